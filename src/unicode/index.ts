/**
 * Unicode text primitives: the folding (anchors and search terms) and code point order
 * (deterministic listings and index keys) that content and search must agree on, and the UTF-8
 * decoding of content files and encoding of text kept as bytes. No other room's concerns.
 */
export { foldLetters } from './fold.js';
export { compareCodePoints } from './order.js';
export { decodeUtf8, UTF8_SCRATCH_BYTES, utf8Bytes } from './utf8.js';
