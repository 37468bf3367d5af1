import { createHash } from 'node:crypto';

/** The length of a full base64url SHA-256 digest. */
const FULL_DIGEST_LENGTH = 43;

/**
 * A strong entity tag (RFC 9110 §8.8.3) for exact bytes: the quoted base64url SHA-256 of them,
 * cut to `length` characters (27 still tell apart 2^162 versions, and keep page headers short).
 * Every cached representation the server sends is tagged here; If-None-Match is matched in
 * src/http-primitives/conditional.ts.
 */
export function strongEtag(body: Uint8Array | string, length = FULL_DIGEST_LENGTH): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, length)}"`;
}
