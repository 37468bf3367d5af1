/**
 * Which sections of a rendered page are link lists ("Related", "See also", a list of links to other
 * pages): search weighs them little. Worked out from the HTML while it exists (at load time: the
 * HTML itself is not kept), so answering never renders a page.
 */

const HEADING_SPLIT_RE = /<h[1-6][^>]*\sid="([^"]*)"[^>]*>/g;
const LINK_RE = /<a\s[^>]*>([\s\S]*?)<\/a>/g;
const TAG_RE = /<[^>]+>/g;

/** Share of a section's text inside links (with at least two links) that makes it a link list. */
const LINKED_SHARE = 0.6;

function textLength(html: string): number {
  return html.replace(TAG_RE, '').replace(/\s+/g, '').length;
}

/**
 * The anchors (null for the text before the first heading) of the sections with at least two
 * links making up most of their text, in page order.
 */
export function linkListAnchors(html: string): (string | null)[] {
  const chunks: { anchor: string | null; html: string }[] = [];
  let last = 0;
  let anchor: string | null = null;
  for (const m of html.matchAll(HEADING_SPLIT_RE)) {
    chunks.push({ anchor, html: html.slice(last, m.index) });
    anchor = m[1] ?? null;
    last = m.index + m[0].length;
  }
  chunks.push({ anchor, html: html.slice(last) });
  const out: (string | null)[] = [];
  for (const chunk of chunks) {
    // The heading's own text ends the chunk's first element.
    const body = chunk.anchor === null ? chunk.html : chunk.html.replace(/^[\s\S]*?<\/h[1-6]>/, '');
    const total = textLength(body);
    let linked = 0;
    let links = 0;
    for (const m of body.matchAll(LINK_RE)) {
      links++;
      linked += textLength(m[1] ?? '');
    }
    if (links >= 2 && total > 0 && linked / total >= LINKED_SHARE) out.push(chunk.anchor);
  }
  return out;
}
