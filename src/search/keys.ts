/**
 * Compare two strings in Unicode code point order, which is also the byte order of their UTF-8
 * encodings. (JavaScript's `<` compares UTF-16 code units, which orders characters above U+FFFF
 * before U+E000–U+FFFF; this does not.)
 */
export function compareKeys(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codeUnitRank(x) - codeUnitRank(y);
  }
  return a.length - b.length;
}

/** Maps a UTF-16 code unit so that surrogates sort after U+E000–U+FFFF, as their code points do. */
function codeUnitRank(c: number): number {
  if (c >= 0xd800 && c <= 0xdfff) return c + 0x2000;
  if (c >= 0xe000) return c - 0x800;
  return c;
}
