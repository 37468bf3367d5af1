import { LruCache } from '../cache/index.js';
import { compress, GzipSplice, type ContentCoding } from '../compression/index.js';
import type { AskOutcome } from '../nlweb/index.js';
import { ANSWER_TAIL } from './answer-bytes.js';

/**
 * The gzip splices of popular answers kept at most (their deflated bytes and the identity content
 * they keep alive, counted together): ~300 answers of 20 KB.
 */
export const ANSWER_SPLICE_BYTES = 8 * 1024 * 1024;

/** Served coding order for a popular answer: its gzip is spliced (no compression per response). */
export const POPULAR_ORDER: readonly ContentCoding[] = ['gzip', 'br'];

const TAIL = Buffer.from(ANSWER_TAIL);

/**
 * Coded /ask answers. An answer is `head + content + tail` where only the head (its `_meta`, with
 * the request id) differs per response. A popular answer (kept by the ask service) in gzip shares
 * one deflated `content + tail` between its responses (GzipSplice: a CRC of the head per
 * response); anything else is compressed whole for its response at the `fresh` level.
 */
export class AnswerCoder {
  readonly #splices: LruCache<AskOutcome, GzipSplice>;

  constructor(keptBytes = ANSWER_SPLICE_BYTES) {
    this.#splices = new LruCache(keptBytes, (splice) => splice.bytes + splice.identityBytes);
  }

  /** The coded answer's chunks, in order. */
  coded(outcome: AskOutcome, head: string, coding: ContentCoding, popular: boolean): Buffer[] {
    const headBytes = Buffer.from(head, 'utf8');
    if (coding === 'gzip' && popular && headBytes.length <= 0xffff) {
      const splice = this.#splices.getOrSet(
        outcome,
        () => new GzipSplice(Buffer.concat([outcome.contentJson, TAIL])),
      );
      const { before, after } = splice.wrap(headBytes);
      return [before, splice.deflated, after];
    }
    return [compress(Buffer.concat([headBytes, outcome.contentJson, TAIL]), coding, 'fresh')];
  }

  /** The bytes the kept splices count (their deflated and identity bytes). */
  get keptBytes(): number {
    return this.#splices.weight;
  }
}
