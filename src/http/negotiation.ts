/**
 * Content negotiation (RFC 9110 12.5.1), the one Accept parser: each media type takes the quality
 * of the most specific range that matches it (on equal specificity, the higher quality). A q that
 * is not a valid qvalue is ignored (the range keeps q=1); a type no range matches has quality 0.
 */

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of header.split(',')) {
    const [mediaType, ...parameters] = part.split(';');
    const [type, subtype] = (mediaType ?? '').trim().toLowerCase().split('/');
    if (!type || !subtype) continue;
    let q = 1;
    for (const parameter of parameters) {
      const [name, value] = parameter.split('=').map((piece) => piece.trim());
      if (name?.toLowerCase() === 'q' && value !== undefined && QVALUE.test(value)) q = Number(value);
    }
    ranges.push({ type, subtype, q });
  }
  return ranges;
}

function qualityOf(ranges: MediaRange[], mediaType: string): number {
  const [type, subtype] = mediaType.split('/');
  let best: { specificity: number; q: number } | null = null;
  for (const range of ranges) {
    let specificity = -1;
    if (range.type === type && range.subtype === subtype) specificity = 2;
    else if (range.type === type && range.subtype === '*') specificity = 1;
    else if (range.type === '*' && range.subtype === '*') specificity = 0;
    if (specificity < 0) continue;
    if (
      best === null ||
      specificity > best.specificity ||
      (specificity === best.specificity && range.q > best.q)
    )
      best = { specificity, q: range.q };
  }
  return best?.q ?? 0;
}

/** Page URLs: the Markdown twin when Accept ranks text/markdown above HTML; on a tie, or with no Accept, HTML. */
export function prefersMarkdown(accept: string | string[] | undefined): boolean {
  if (accept === undefined) return false;
  const ranges = parseAccept(Array.isArray(accept) ? accept.join(',') : accept);
  const markdown = qualityOf(ranges, 'text/markdown');
  const html = Math.max(qualityOf(ranges, 'text/html'), qualityOf(ranges, 'application/xhtml+xml'));
  return markdown > 0 && markdown > html;
}

/**
 * /ask: true when the Accept header ranks text/event-stream above application/json (what a browser
 * EventSource sends: `Accept: text/event-stream`). Equal preference keeps the JSON default.
 */
export function acceptPrefersEventStream(accept: string | undefined): boolean {
  if (!accept) return false;
  const ranges = parseAccept(accept);
  const sse = qualityOf(ranges, 'text/event-stream');
  return sse > 0 && sse > qualityOf(ranges, 'application/json');
}

/**
 * Content-coding negotiation (RFC 9110 §12.5.3): the coding of `available` the client accepts
 * with the highest quality, on a tie the first in `available`'s order; null for identity. No
 * Accept-Encoding, an empty one, only unknown codings, `q=0` for each, or identity ranked above
 * them all give identity. A coding not listed takes the quality of `*` when present; `x-gzip` is
 * gzip. A q that is not a valid qvalue is ignored (the coding keeps q=1), as for Accept.
 */
export function negotiateCoding<C extends string>(
  acceptEncoding: string | string[] | undefined,
  available: readonly C[],
): C | null {
  if (acceptEncoding === undefined) return null;
  const header = Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : acceptEncoding;
  const listed = new Map<string, number>();
  for (const part of header.split(',')) {
    const [token, ...parameters] = part.split(';');
    let coding = (token ?? '').trim().toLowerCase();
    if (coding === '') continue;
    if (coding === 'x-gzip') coding = 'gzip';
    let q = 1;
    for (const parameter of parameters) {
      const [name, value] = parameter.split('=').map((piece) => piece.trim());
      if (name?.toLowerCase() === 'q' && value !== undefined && QVALUE.test(value)) q = Number(value);
    }
    // Listed twice, the higher quality counts.
    listed.set(coding, Math.max(q, listed.get(coding) ?? 0));
  }
  const wildcard = listed.get('*');
  let best: C | null = null;
  let bestQ = 0;
  for (const coding of available) {
    const q = listed.get(coding) ?? wildcard ?? 0;
    if (q > bestQ) [best, bestQ] = [coding, q];
  }
  const identity = listed.get('identity');
  return identity !== undefined && identity > bestQ ? null : best;
}
