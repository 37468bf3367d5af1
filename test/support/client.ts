import { expect } from 'vitest';
import type { PublishedContract } from './openapi.js';

export type BodyType = 'json' | 'form';
export const BODY_TYPES: BodyType[] = ['json', 'form'];

export interface Answer {
  status: number;
  contentType: string;
  headers: Headers;
  body: Record<string, unknown>;
}

/** Encodes a flat object as the given content type (form values must be strings). */
export function encode(
  type: BodyType,
  body: Record<string, unknown>,
): { contentType: string; payload: string } {
  if (type === 'json') return { contentType: 'application/json', payload: JSON.stringify(body) };
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(body)) form.append(key, String(value));
  return { contentType: 'application/x-www-form-urlencoded', payload: form.toString() };
}

/** POSTs raw bytes and parses the JSON answer. */
export async function postRaw(
  url: string,
  path: string,
  payload: string | Buffer,
  headers: Record<string, string>,
): Promise<Answer> {
  const response = await fetch(`${url}${path}`, { method: 'POST', headers, body: payload });
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    headers: response.headers,
    body: JSON.parse(text) as Record<string, unknown>,
  };
}

export async function post(
  url: string,
  path: string,
  type: BodyType,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const { contentType, payload } = encode(type, body);
  return postRaw(url, path, payload, { 'content-type': contentType, ...headers });
}

/** Every answer is checked against the served /openapi.json before the test looks at it. */
export function expectContract(contract: PublishedContract, path: string, answer: Answer): void {
  contract.expectResponse('POST', path, answer.status, answer.contentType, answer.body);
}

/** A 400 VALIDATION_ERROR whose message names each of `fields`. */
export function expectValidationError(answer: Answer, fields: string[]): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(400);
  expect(answer.body.code).toBe('VALIDATION_ERROR');
  for (const field of fields)
    expect(String(answer.body.message)).toMatch(new RegExp(`(: |; )${escape(field)} `));
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

let counter = 0;
/** A fresh valid address per call, so content fingerprints never collide by accident. */
export function uniqueEmail(): string {
  counter += 1;
  return `visitor${process.pid}x${counter}@example.com`;
}
