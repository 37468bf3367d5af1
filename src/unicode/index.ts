/**
 * Unicode text primitives that content and search must agree on: the folding (anchors and search
 * terms) and code point order (deterministic listings and index keys). No other room's concerns.
 */
export { foldLetters } from './fold.js';
export { compareCodePoints } from './order.js';
