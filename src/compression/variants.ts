import {
  codedEtag,
  compress,
  compressInBackground,
  KEPT_BEST_MAX_BYTES,
  type ContentCoding,
  type Effort,
} from './codings.js';

/** One coding of a kept body: its bytes and its own ETag. */
export interface CodedBody {
  readonly body: Buffer;
  readonly etag: string;
}

/** How a body's variants are made. */
export type VariantMaking =
  /** Each on its first request, synchronously (discovery documents, assets: a few, for the site's life). */
  | { mode: 'on-request' }
  /**
   * Each of `codings` at once on the thread pool; `made` runs as each is stored (a byte-bounded
   * cache weighs the body again). Until then the body has no variant in that coding.
   */
  | { mode: 'background'; codings: readonly ContentCoding[]; made: () => void };

/**
 * The coded variants of one kept body, beside its identity bytes, compressed at the `best` level
 * (brotli 11 up to KEPT_BEST_MAX_BYTES, `kept` above): bytes sent many times are compressed once,
 * as small as brotli makes them. brotli 11 takes 25–60 ms for a 20 KB page, so a page kept from
 * its second request has its variants made in the background (the thread pool), not on a request.
 */
export class CodedVariants {
  readonly #identity: Buffer;
  readonly #etag: string;
  readonly #effort: Effort;
  readonly #made = new Map<ContentCoding, CodedBody>();
  readonly #onRequest: boolean;
  /** Settles once every background variant is stored (or failed: the body stays without it). */
  readonly settled: Promise<void>;

  constructor(identity: Buffer, etag: string, making: VariantMaking) {
    this.#identity = identity;
    this.#etag = etag;
    this.#effort = identity.length > KEPT_BEST_MAX_BYTES ? 'kept' : 'best';
    this.#onRequest = making.mode === 'on-request';
    this.settled =
      making.mode === 'background'
        ? Promise.all(
            making.codings.map(async (coding) => {
              try {
                const body = await compressInBackground(identity, coding, this.#effort);
                this.#made.set(coding, { body, etag: codedEtag(etag, coding) });
                making.made();
              } catch {
                // zlib failing on a buffer is not expected; the body is then sent compressed per response.
              }
            }),
          ).then(() => undefined)
        : Promise.resolve();
  }

  /** The variant in `coding`: made now when on request; undefined while a background one is not made. */
  get(coding: ContentCoding): CodedBody | undefined {
    let made = this.#made.get(coding);
    if (made === undefined && this.#onRequest) {
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
