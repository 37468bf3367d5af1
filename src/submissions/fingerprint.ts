import { createHash } from 'node:crypto';
import type { SubmissionFields, SubmissionKind } from './types.js';

export { DUPLICATE_WINDOW_MS } from '../contract/index.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** JSON with sorted keys, so the same fields hash the same whichever order or content type sent them. */
export function canonicalJson(fields: SubmissionFields): string {
  return JSON.stringify(Object.fromEntries(Object.entries(fields).sort(([a], [b]) => (a < b ? -1 : 1))));
}

/** Hash of the validated body: what an Idempotency-Key is bound to. */
export function requestHash(kind: SubmissionKind | string, fields: SubmissionFields): string {
  return sha256(`${kind}\n${canonicalJson(fields)}`);
}

/**
 * Endpoint + normalised e-mail + hash of the other fields with white space collapsed, so the
 * same person sending the same text twice is recognised even when the address differs in case.
 */
export function contentFingerprint(kind: SubmissionKind | string, fields: SubmissionFields): string {
  const email = (fields.email ?? '').trim().toLowerCase();
  const rest: SubmissionFields = {};
  for (const [key, value] of Object.entries(fields))
    if (key !== 'email') rest[key] = value.trim().replace(/\s+/g, ' ');
  return sha256(`${kind}\n${email}\n${canonicalJson(rest)}`);
}
