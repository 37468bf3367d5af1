/**
 * HTTP facts every room shares, below any framework: the strong entity tag of exact bytes and
 * If-None-Match's comparison, and what counts as one client of an IP address (for the limits,
 * the streams and insight).
 */
export { clientKey } from './client-key.js';
export { ifNoneMatchMatches } from './conditional.js';
export { strongEtag } from './etag.js';
