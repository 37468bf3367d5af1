/**
 * Content negotiation for page URLs (RFC 9110 12.5.1): the Markdown twin is served when the
 * Accept header gives text/markdown a higher quality than text/html. Each type takes the quality
 * of the most specific range that matches it; on a tie, or with no Accept header, HTML wins.
 */

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of header.split(',')) {
    const [mediaType, ...parameters] = part.split(';');
    const [type, subtype] = (mediaType ?? '').trim().toLowerCase().split('/');
    if (!type || !subtype) continue;
    let q = 1;
    for (const parameter of parameters) {
      const [name, value] = parameter.split('=').map((piece) => piece.trim());
      if (name?.toLowerCase() === 'q' && value !== undefined) {
        const parsed = Number(value);
        q = Number.isFinite(parsed) ? Math.min(1, Math.max(0, parsed)) : 0;
      }
    }
    ranges.push({ type, subtype, q });
  }
  return ranges;
}

function qualityOf(ranges: MediaRange[], type: string, subtype: string): number {
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

export function prefersMarkdown(accept: string | string[] | undefined): boolean {
  if (accept === undefined) return false;
  const ranges = parseAccept(Array.isArray(accept) ? accept.join(',') : accept);
  const markdown = qualityOf(ranges, 'text', 'markdown');
  const html = Math.max(qualityOf(ranges, 'text', 'html'), qualityOf(ranges, 'application', 'xhtml+xml'));
  return markdown > 0 && markdown > html;
}
