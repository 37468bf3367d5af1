/**
 * The one escaping function for everything interpolated into HTML (text and double-quoted
 * attribute values alike), and the JSON encoder for `<script type="application/ld+json">`.
 */

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);
}

/**
 * JSON for a script data block: `<` (so `</script>` and `<!--` cannot end or alter the block), `>`
 * and `&` are written as \u escapes, and U+2028/U+2029 as well so the text stays valid JavaScript.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
