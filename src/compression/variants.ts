import { codedEtag, compress, KEPT_BEST_MAX_BYTES, type ContentCoding, type Effort } from './codings.js';

/** One coding of a kept body: its bytes and its own ETag. */
export interface CodedBody {
  readonly body: Buffer;
  readonly etag: string;
}

/**
 * The coded variants of one kept body, beside its identity bytes. Made all at once (`eager`), for
 * a body kept in a byte-bounded cache that weighs them when it is stored; or each on its first
 * request (`lazy`), for a body that lives as long as the site (discovery documents, assets).
 */
export class CodedVariants {
  readonly #identity: Buffer;
  readonly #etag: string;
  readonly #made = new Map<ContentCoding, CodedBody>();

  readonly #effort: Effort;

  /**
   * `eagerly` lists the codings made at once. A body kept from its second request is compressed at
   * `kept` (~0.5 ms for 20 KB), not `best` (~25 ms), which would stall that request; a body that
   * lives as long as the site may take `best` (up to KEPT_BEST_MAX_BYTES).
   */
  constructor(identity: Buffer, etag: string, effort: Effort, eagerly: readonly ContentCoding[] = []) {
    this.#identity = identity;
    this.#etag = etag;
    this.#effort = effort === 'best' && identity.length > KEPT_BEST_MAX_BYTES ? 'kept' : effort;
    for (const coding of eagerly) this.of(coding);
  }

  /** The variant in `coding`, compressed now if it was not yet. */
  of(coding: ContentCoding): CodedBody {
    let made = this.#made.get(coding);
    if (made === undefined) {
      made = { body: compress(this.#identity, coding, this.#effort), etag: codedEtag(this.#etag, coding) };
      this.#made.set(coding, made);
    }
    return made;
  }

  /** The bytes of the variants made so far. */
  get bytes(): number {
    let total = 0;
    for (const made of this.#made.values()) total += made.body.length;
    return total;
  }
}
