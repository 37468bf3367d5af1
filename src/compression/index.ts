/**
 * HTTP content codings (brotli and gzip from node:zlib) for bodies the rooms above keep: the levels
 * chosen by measurement, the coded variants kept beside a body's identity bytes with an ETag per
 * coding, and the gzip splice that shares one deflated answer between responses that differ in a
 * head. Negotiation from Accept-Encoding, and the headers, are the HTTP layer's.
 */
export {
  CODINGS,
  codedEtag,
  compress,
  compressInBackground,
  COMPRESSION_MIN_BYTES,
  KEPT_BEST_MAX_BYTES,
  LEVELS,
  type ContentCoding,
  type Effort,
} from './codings.js';
export { CodedVariants, type CodedBody, type VariantMaking } from './variants.js';
export { GzipSplice } from './gzip-splice.js';
