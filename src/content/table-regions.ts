/**
 * Wraps each table of trusted HTML in a scrollable, focusable region so a wide table scrolls on
 * its own (reachable by keyboard) instead of widening the page on a phone. The region is named by
 * the table's caption, else numbered; a repeated caption gets the table's number, so every region
 * on the page has its own name.
 */
export function wrapTables(html: string): string {
  let count = 0;
  const used = new Set<string>();
  return html
    .replace(
      /<table(\s[^>]*)?>(\s*<caption[^>]*>([\s\S]*?)<\/caption>)?/g,
      (match, _attrs, _caption, captionHtml) => {
        count += 1;
        const captionText = typeof captionHtml === 'string' ? captionHtml.replace(/<[^>]*>/g, '').trim() : '';
        let name = captionText !== '' ? captionText : `Table ${count}`;
        if (used.has(name)) name = `${name} (table ${count})`;
        used.add(name);
        // The caption is already escaped HTML text; quotes are the only characters left to escape.
        return `<div class="table-scroll" role="region" tabindex="0" aria-label="${name.replace(/"/g, '&quot;')}">${match}`;
      },
    )
    .replace(/<\/table>/g, '</table></div>');
}
