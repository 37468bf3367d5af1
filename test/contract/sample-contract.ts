import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { BUNDLED_CONTENT, REPO_ROOT } from '../support/files.js';
import { buildTestApp, TEST_BASE_URL } from '../support/servers.js';

/**
 * The sample site's published contract: the OpenAPI document, the agent documents, the form pages
 * (with and without errors), the embed markup and the API's answers to good and bad bodies. First
 * recorded from main before forms came from configuration, and matched byte for byte by the forms
 * work; recorded again when a deliberate change (the brand, the language catalogue) changes them
 * (`RECORD_SAMPLE_CONTRACT=1 npx vitest run test/contract/sample-contract.test.ts`, then review the
 * diff). The test compares every build's answers with it, byte for byte.
 */
export const RECORDING_FILE = join(REPO_ROOT, 'test', 'fixtures', 'sample-contract.json');

interface Exchange {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  payload?: string;
}

const json = { 'content-type': 'application/json' };
const sameSiteForm = { 'content-type': 'application/x-www-form-urlencoded', origin: TEST_BASE_URL };

export const EXCHANGES: readonly Exchange[] = [
  ...[
    '/openapi.json',
    '/agents.md',
    '/api.md',
    '/auth.md',
    '/llms.txt',
    '/.well-known/agent-skills/index.json',
    '/.well-known/agent-skills/search-and-contact/SKILL.md',
    '/.well-known/ard.json',
    '/.well-known/ai-catalog.json',
    '/.well-known/api-catalog',
    '/developers',
    '/docs',
    '/demo',
    '/solutions/cros',
    '/solutions/research-sites',
    '/forms/demo-request/sent',
    '/forms/document-suggestion/sent',
    '/embed/forms/demo?page=/pricing',
    '/embed/forms/suggestion?page=/solutions/cros',
  ].map((url) => ({ method: 'GET' as const, url })),
  {
    method: 'POST',
    url: '/api/leads',
    headers: json,
    payload: '{"email":"no","persona":"principal-investigator","companyType":"sponsor","extra":1}',
  },
  { method: 'POST', url: '/api/leads', headers: json, payload: '{}' },
  {
    method: 'POST',
    url: '/api/document-suggestions',
    headers: json,
    payload: '{"companyType":"sponsor","persona":"x","suggestion":" "}',
  },
  {
    method: 'POST',
    url: '/api/document-suggestions',
    headers: json,
    payload: '{"companyType":"cro","persona":"principal-investigator","suggestion":"A DSMB charter"}',
  },
  {
    method: 'POST',
    url: '/api/document-suggestions',
    headers: json,
    payload:
      '{"companyType":"research-site","persona":"principal-investigator","suggestion":"A DSMB charter"}',
  },
  {
    method: 'POST',
    url: '/api/leads',
    headers: json,
    payload: '{"name":"Ada Byron","email":"ada@example.org","companyType":"cro","persona":"study-start-up"}',
  },
  {
    method: 'POST',
    url: '/forms/demo-request',
    headers: sameSiteForm,
    payload:
      'firstName=Ada&lastName=&email=ada%40&companyType=research-site&persona=clinical-science&sourcePage=%2Fdemo',
  },
  {
    method: 'POST',
    url: '/forms/document-suggestion',
    headers: sameSiteForm,
    payload: 'companyType=cro&persona=&suggestion=x&sourcePage=%2Fsolutions%2Fcros',
  },
];

export interface RecordedAnswer {
  request: string;
  status: number;
  contentType: string | undefined;
  body: string;
}

export async function answersOf(app: FastifyInstance): Promise<RecordedAnswer[]> {
  const answers: RecordedAnswer[] = [];
  for (const exchange of EXCHANGES) {
    const response = await app.inject({
      method: exchange.method,
      url: exchange.url,
      headers: exchange.headers ?? {},
      ...(exchange.payload === undefined ? {} : { payload: exchange.payload }),
    });
    answers.push({
      request: `${exchange.method} ${exchange.url}${exchange.payload ? ` ${exchange.payload}` : ''}`,
      status: response.statusCode,
      contentType: response.headers['content-type'] as string | undefined,
      body: response.body,
    });
  }
  return answers;
}

/** The sample site served by the whole application (every room), for recording and comparing. */
export async function sampleSiteAnswers(): Promise<RecordedAnswer[]> {
  const served = await buildTestApp({ CONTENT_DIR: BUNDLED_CONTENT });
  try {
    return await answersOf(served.app);
  } finally {
    await served.close();
  }
}

export function readRecording(): RecordedAnswer[] {
  return JSON.parse(readFileSync(RECORDING_FILE, 'utf8')) as RecordedAnswer[];
}

export function writeRecording(answers: RecordedAnswer[]): void {
  writeFileSync(RECORDING_FILE, `${JSON.stringify(answers, null, 1)}\n`);
}
