import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync, type BrotliOptions } from 'node:zlib';

/** The content codings the server sends (RFC 9110 §8.4.1); identity is the absence of one. */
export type ContentCoding = 'br' | 'gzip';

/** The server's order of preference when a client accepts several codings equally. */
export const CODINGS: readonly ContentCoding[] = ['br', 'gzip'];

/**
 * Bodies shorter than this go out as they are: below about a kilobyte the coding's framing and the
 * CPU cost outweigh the bytes saved (an answer with no results, a 304's neighbours, an error).
 */
export const COMPRESSION_MIN_BYTES = 1024;

/**
 * How hard a body is compressed: `fresh` for a body made for one response (a never-asked answer, a
 * page asked once), `kept` for bytes compressed once and sent many times (a kept page, a discovery
 * document, an asset). Measured on a 24.8 KB answer and a 21.3 KB page of the sample site
 * (docs/benchmarks-history.md, part 7): brotli quality 2 takes ~0.13 ms for 4.4× fewer bytes, where
 * quality 1 (0.08 ms) stays under 4× and quality 4–5 costs 4× the time for 10 % fewer bytes;
 * quality 11 saves another 15 % but takes 25–60 ms, so it is for bytes compressed once and sent
 * many times, up to KEPT_BEST_MAX_BYTES: kept pages (on the thread pool), discovery documents
 * and assets. gzip at level 6 is zlib's default; 9 costs little more once.
 */
export const LEVELS = {
  fresh: { br: 2, gzip: 6 },
  kept: { br: 5, gzip: 9 },
  best: { br: 11, gzip: 9 },
} as const;
// `kept` is what a body above KEPT_BEST_MAX_BYTES gets in place of `best`.

export type Effort = keyof typeof LEVELS;

/**
 * Bytes larger than this are compressed at `kept`, not `best`: brotli 11 costs ~2–3 ms per KB,
 * and it runs on the request that first asks for the coding (llms-full.txt of a big site is MBs).
 */
export const KEPT_BEST_MAX_BYTES = 64 * 1024;

const brotliOptions = (length: number, effort: Effort): BrotliOptions => ({
  params: {
    [constants.BROTLI_PARAM_QUALITY]: LEVELS[effort].br,
    [constants.BROTLI_PARAM_SIZE_HINT]: length,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
  },
});

/** The body in `coding`, compressed synchronously at the effort's level. */
export function compress(body: Buffer | string, coding: ContentCoding, effort: Effort): Buffer {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  if (coding === 'gzip') return gzipSync(bytes, { level: LEVELS[effort].gzip });
  return brotliCompressSync(bytes, brotliOptions(bytes.length, effort));
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** The same bytes as `compress`, made on the thread pool (the event loop goes on serving). */
export function compressInBackground(body: Buffer, coding: ContentCoding, effort: Effort): Promise<Buffer> {
  if (coding === 'gzip') return gzipAsync(body, { level: LEVELS[effort].gzip });
  return brotliAsync(body, brotliOptions(body.length, effort));
}

/**
 * The ETag of a representation's `coding` variant: a different representation needs a different
 * strong tag (RFC 9110 §8.8.3.3), so the coding is added inside the quotes (`"abc"` → `"abc.br"`).
 */
export function codedEtag(etag: string, coding: ContentCoding | null): string {
  if (coding === null) return etag;
  return etag.endsWith('"') ? `${etag.slice(0, -1)}.${coding}"` : `${etag}.${coding}`;
}
