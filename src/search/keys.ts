/**
 * Index keys are ordered by Unicode code point (the byte order of their UTF-8 encodings); the one
 * comparator lives in src/unicode.
 */
export { compareCodePoints as compareKeys } from '../unicode/index.js';
