import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  CODINGS,
  CodedVariants,
  codedEtag,
  compress,
  COMPRESSION_MIN_BYTES,
  type ContentCoding,
} from '../compression/index.js';
import { ifNoneMatchMatches } from '../http-primitives/index.js';
import { negotiateCoding } from './negotiation.js';

/**
 * The coding a response body of `length` bytes goes out in: null (identity) when compression is
 * off (COMPRESSION=off), the body is small, or the client accepts none of `available`.
 */
export function codingFor(
  enabled: boolean,
  acceptEncoding: string | string[] | undefined,
  length: number,
  available: readonly ContentCoding[] = CODINGS,
): ContentCoding | null {
  if (!enabled || length < COMPRESSION_MIN_BYTES) return null;
  return negotiateCoding(acceptEncoding, available);
}

/** Adds Accept-Encoding to the reply's Vary: a shared cache must keep a response per coding. */
export function varyOnCoding(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  reply.header(
    'vary',
    typeof vary === 'string' && vary !== '' ? `${vary}, Accept-Encoding` : 'Accept-Encoding',
  );
}

/** A body the server keeps and sends with a strong ETag (a page, a discovery document, an asset). */
export interface CachedBody {
  body: Buffer | string;
  etag: string;
  contentType: string;
  /** Its coded variants, kept beside it; absent for a body made for this response alone. */
  variants?: CodedVariants | undefined;
}

/**
 * Sends a cached body in the coding the request negotiates, with that coding's ETag, or 304 when
 * the client holds that variant already. A body without a kept variant in that coding is
 * compressed for this response at the `fresh` level (a page asked once), with a weak ETag.
 */
export function sendCached(
  request: FastifyRequest,
  reply: FastifyReply,
  enabled: boolean,
  cached: CachedBody,
) {
  const length = typeof cached.body === 'string' ? Buffer.byteLength(cached.body) : cached.body.length;
  if (enabled) varyOnCoding(reply);
  const coding = codingFor(enabled, request.headers['accept-encoding'], length);
  const kept = coding === null ? undefined : cached.variants?.get(coding);
  // A body compressed for this response alone (not kept, or its kept variant not made yet) has
  // other bytes than the kept variant will: its tag is weak, which If-None-Match still compares
  // equal (RFC 9110 §8.8.3.2).
  const etag = (coding !== null && kept === undefined ? 'W/' : '') + codedEtag(cached.etag, coding);
  reply.header('etag', etag);
  if (ifNoneMatchMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
  reply.code(200).type(cached.contentType);
  if (coding === null) return reply.send(cached.body);
  reply.header('content-encoding', coding);
  return reply.send(kept?.body ?? compress(cached.body, coding, 'fresh'));
}

/**
 * Coded variants of bodies that live as long as their site (discovery documents, assets), made
 * on a coding's first request at the best level and kept with the body (a WeakMap on its bytes).
 */
export class LongLivedVariants {
  readonly #variants = new WeakMap<Buffer, CodedVariants>();

  of(body: Buffer, etag: string): CodedVariants {
    let variants = this.#variants.get(body);
    if (variants === undefined) {
      variants = new CodedVariants(body, etag, { mode: 'on-request' });
      this.#variants.set(body, variants);
    }
    return variants;
  }
}
