/**
 * The one Unicode folding, shared by heading anchors (content) and search analysis (search), so
 * that "Ħal Far" is the anchor `hal-far` and is searched as `hal far`.
 */

/** Letters that NFKD does not decompose into an ASCII base letter plus marks. */
const SPELLED_OUT: Readonly<Record<string, string>> = {
  ß: 'ss',
  ẞ: 'ss',
  æ: 'ae',
  ø: 'o',
  œ: 'oe',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  ħ: 'h',
  ŧ: 't',
  ŋ: 'ng',
  ſ: 's',
};
const SPELLED_OUT_PATTERN = new RegExp(`[${Object.keys(SPELLED_OUT).join('')}]`, 'gu');
const COMBINING_MARKS = /\p{M}+/gu;

/** NFKD, combining marks removed, lowercased, and the letters above spelled out; nothing else removed. */
export function foldLetters(text: string): string {
  return text
    .normalize('NFKD')
    .replace(COMBINING_MARKS, '')
    .toLowerCase()
    .replace(SPELLED_OUT_PATTERN, (letter) => SPELLED_OUT[letter] ?? letter);
}
