/**
 * The index's vocabulary of surface words (folded, unstemmed), for the matching that works on
 * what people type rather than on index terms: the last word as a prefix ("protoc" → protocol),
 * typo correction ("amendmnet" → amendment) and split forms ("part11" → part 11). Plain data
 * (arrays and typed arrays), so an index can be serialised as it is.
 */

import { compareCodePoints as compareKeys } from '../unicode/index.js';

export interface Vocabulary {
  /** Every folded word of the indexed text (joined compound forms included), in key order. */
  readonly words: readonly string[];
  /** The index term of each word. */
  readonly term: Uint32Array;
  /** A 32-bit letter signature of each word (see letterMask). */
  readonly mask: Uint32Array;
  /** The languages each word is a word of: bit p for language profile p (languages.ts). */
  readonly langs: Uint32Array;
}

/** Bit (code mod 31) set for every character: one edit changes at most two bits. */
export function letterMask(word: string): number {
  let m = 0;
  for (let i = 0; i < word.length; i++) m |= 1 << (word.charCodeAt(i) % 31);
  return m >>> 0;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

export function buildVocabulary(
  wordTerm: ReadonlyMap<string, number>,
  wordLangs: ReadonlyMap<string, number> = new Map(),
): Vocabulary {
  const words = [...wordTerm.keys()].sort(compareKeys);
  const term = new Uint32Array(words.length);
  const mask = new Uint32Array(words.length);
  const langs = new Uint32Array(words.length);
  words.forEach((w, i) => {
    term[i] = wordTerm.get(w) as number;
    mask[i] = letterMask(w);
    langs[i] = wordLangs.get(w) ?? 1;
  });
  return { words, term, mask, langs };
}

/** Any UTF-16 unit from U+D800 up: where code unit order and code point order can disagree. */
const HIGH_UNIT_RE = /[\ud800-\uffff]/;

/** First index whose word is ≥ `word` in key order. */
function lowerBound(words: readonly string[], word: string): number {
  let lo = 0;
  let hi = words.length;
  if (!HIGH_UNIT_RE.test(word)) {
    // For a word with no unit from U+D800 up, JavaScript's `<` (code units) orders it against any
    // other string as key order (code points) does: at their first difference its unit is below
    // U+D800, where the two orders agree. `<` is native; the key comparison was most of a query
    // plan's vocabulary look-ups.
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((words[mid] as string) < word) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareKeys(words[mid] as string, word) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The place of a surface word in the vocabulary, or −1. */
export function wordIndex(v: Vocabulary, word: string): number {
  const i = lowerBound(v.words, word);
  return i < v.words.length && v.words[i] === word ? i : -1;
}

/** The term of a surface word, or −1. */
export function lookupWord(v: Vocabulary, word: string): number {
  const i = wordIndex(v, word);
  return i < 0 ? -1 : (v.term[i] as number);
}

/** Index range [from, to) of the words that start with `prefix`. */
export function prefixRange(v: Vocabulary, prefix: string): [number, number] {
  const from = lowerBound(v.words, prefix);
  let lo = from;
  let hi = v.words.length;
  // Words with the prefix are contiguous from `from`; find the first one without it.
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((v.words[mid] as string).startsWith(prefix)) lo = mid + 1;
    else hi = mid;
  }
  return [from, lo];
}

/**
 * Optimal string alignment distance (Damerau–Levenshtein with adjacent transpositions, each
 * substring edited once), or max + 1 when it is larger than `max`.
 */
export function editDistance(a: string, b: string, max: number): number {
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > max) return max + 1;
  let prev2 = new Array<number>(lb + 1).fill(0);
  let prev = new Array<number>(lb + 1);
  let cur = new Array<number>(lb + 1);
  for (let j = 0; j <= lb; j++) prev[j] = j;
  for (let i = 1; i <= la; i++) {
    cur[0] = i;
    let rowMin = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= lb; j++) {
      const cb = b.charCodeAt(j - 1);
      let d = Math.min(
        (prev[j] as number) + 1,
        (cur[j - 1] as number) + 1,
        (prev[j - 1] as number) + (ca === cb ? 0 : 1),
      );
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb)
        d = Math.min(d, (prev2[j - 2] as number) + 1);
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max) return max + 1;
    const t = prev2;
    prev2 = prev;
    prev = cur;
    cur = t;
  }
  return Math.min(prev[lb] as number, max + 1);
}

/**
 * Edits forgiven in a word of this length, as the search servers do it: none up to 4
 * characters, one from 5, two from 8.
 */
export function allowedEdits(length: number): number {
  if (length <= 4) return 0;
  return length < 8 ? 1 : 2;
}

export interface Correction {
  /** Index into the vocabulary. */
  word: number;
  distance: number;
}

/**
 * Vocabulary words within the allowed edit distance of `word` (not `word` itself), nearest first,
 * then by the document frequency `df` of their term (more common first), then in key order.
 * Only the nearest distance found is kept, at most `limit` words, and only words of the languages
 * whose bits `langBit` has. Deterministic.
 */
export function corrections(
  v: Vocabulary,
  word: string,
  df: Uint32Array,
  limit: number,
  langBit = 0xffffffff,
): Correction[] {
  const max = allowedEdits(word.length);
  if (max === 0) return [];
  const mask = letterMask(word);
  const found: Correction[] = [];
  let best = max;
  const { words } = v;
  for (let i = 0; i < words.length; i++) {
    if (popcount(((v.mask[i] as number) ^ mask) >>> 0) > 2 * best) continue;
    // A word is corrected only to a word of its own language.
    if (((v.langs[i] as number) & langBit) === 0) continue;
    const w = words[i] as string;
    if (Math.abs(w.length - word.length) > best || w === word) continue;
    const d = editDistance(word, w, best);
    if (d > best) continue;
    if (d < best) {
      best = d;
      found.length = 0;
    }
    found.push({ word: i, distance: d });
  }
  found.sort((a, b) => {
    const da = df[v.term[a.word] as number] as number;
    const db = df[v.term[b.word] as number] as number;
    return da !== db ? db - da : a.word - b.word;
  });
  return found.slice(0, limit);
}
