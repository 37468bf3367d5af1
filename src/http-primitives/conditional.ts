/** Conditional GET for every cached representation the server sends (pages, assets, discovery documents). */

/** RFC 9110 §13.1.2: If-None-Match uses the weak comparison; `*` matches any current representation. */
export function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}
