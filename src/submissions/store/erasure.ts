import type { SubmissionFields } from '../types.js';

/**
 * Which stored submissions a data-subject erasure request (`submissions erase --email`) covers:
 * every one that holds the address anywhere the request could have put it, not only in its
 * `email` field. A client chooses its own Idempotency-Key (`yara.erase@example.com` is a valid
 * one), user agent, and behind a trusted proxy its X-Request-Id; a suggestion without an `email`
 * may name the address in its text. Both stores select candidates with a cheap substring test in
 * SQL (HOLDS_ADDRESS_COLUMNS) and keep those for which `holdsAddress` says yes.
 */

/** The columns the SQL prefilter searches (besides `fields`, as JSON text). */
export const HOLDS_ADDRESS_COLUMNS = ['fields', 'idempotency_key', 'user_agent', 'request_id'] as const;

/** Characters of an address's local part and domain: an occurrence inside a longer address is not this one. */
const BEFORE = /[A-Za-z0-9!#$%&'*+/=?^_`{|}~.\-\p{L}\p{N}]/u;
const AFTER = /[\p{L}\p{N}\-_]/u;

/**
 * Whether `text` holds `address` as a whole address (case-insensitive): `yara@example.com` is in
 * "write to Yara@Example.com." but not in "ayara@example.com" or "yara@example.community".
 */
export function holdsAddress(text: string, address: string): boolean {
  const haystack = text.toLowerCase();
  const needle = address.toLowerCase();
  if (needle === '') return false;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) {
    const before = at === 0 ? '' : haystack[at - 1]!;
    const end = at + needle.length;
    const after = haystack.slice(end, end + 2);
    const beforeFree = before === '' || !BEFORE.test(before);
    // A full stop ends a sentence unless a label follows it (`example.com.au`).
    const afterFree =
      after === '' || (after[0] === '.' ? !AFTER.test(after[1] ?? '') : !AFTER.test(after[0]!));
    if (beforeFree && afterFree) return true;
  }
  return false;
}

/** The stored values of one submission an erasure request looks at. */
export interface ErasureCandidate {
  fields: string;
  idempotency_key: string | null;
  user_agent: string | null;
  request_id: string;
}

/** Whether a stored submission holds the address: in its e-mail, any other field, its key, user agent or request id. */
export function submissionHoldsAddress(row: ErasureCandidate, address: string): boolean {
  const fields = JSON.parse(row.fields) as SubmissionFields;
  const values = [...Object.values(fields), row.idempotency_key ?? '', row.user_agent ?? '', row.request_id];
  return values.some((value) => holdsAddress(value, address));
}
