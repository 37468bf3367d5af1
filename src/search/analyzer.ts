/**
 * The analyzer: text → index terms. Used identically for documents and queries, so what a query
 * can match is exactly what the index holds.
 *
 * 1. Tokens are runs of Unicode letters and digits (combining marks stay inside a token). Runs
 *    joined by a hyphen, dot, underscore or apostrophe form one compound token: "ICH-M11",
 *    "e-mail", "node.js", "max_length", "don't", "21.5".
 * 2. Each part is folded: NFKD, combining marks removed, lowercased, a few letters that NFKD keeps
 *    are spelled out (ß→ss, æ→ae, ø→o, œ→oe, ł→l, đ/ð→d, þ→th, ı→i).
 * 3. An English possessive "'s" is dropped; other apostrophes join ("don't" → "dont").
 * 4. A compound of several parts yields each part of two or more characters and, in addition,
 *    the parts written together: "e-mail" → mail, email; "ICH-M11" → ich, m11, ichm11;
 *    "U.S.A." → usa; "3.14" → 14, 3.14 (digit-only parts joined by dots keep their dots). So
 *    "email" and "e-mail" meet, and "ICH M11" finds "ICH-M11". The joined form is an extra term
 *    at the same place and adds no length, unless it is the compound's only term.
 * 5. Parts that are stop words (a modest, Lucene-like English list of 33 words) are dropped.
 * 6. Words made of ASCII letters only are stemmed with Snowball English (Porter2); words with
 *    digits or other scripts are kept as folded.
 */

import { foldLetters } from '../unicode/index.js';
import { stemEnglish } from './stemmer.js';

/** Lucene's English stop words (EnglishAnalyzer.ENGLISH_STOP_WORDS_SET), 33 words. */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'but',
  'by',
  'for',
  'if',
  'in',
  'into',
  'is',
  'it',
  'no',
  'not',
  'of',
  'on',
  'or',
  'such',
  'that',
  'the',
  'their',
  'then',
  'there',
  'these',
  'they',
  'this',
  'to',
  'was',
  'will',
  'with',
]);

/**
 * Words that carry the form of a question rather than its topic ("what", "how", "does", "can",
 * "you"...). A query drops them when it has at least one other term, so "how do I rotate keys?"
 * searches for "rotate keys" while "how" alone still searches for "how". Documents keep them.
 * Matched on the folded word, before stemming.
 */
export const QUESTION_WORDS: ReadonlySet<string> = new Set([
  'what',
  'which',
  'who',
  'whom',
  'whose',
  'when',
  'where',
  'why',
  'how',
  'whether',
  'do',
  'does',
  'did',
  'done',
  'doing',
  'can',
  'could',
  'should',
  'would',
  'shall',
  'may',
  'might',
  'must',
  'has',
  'have',
  'had',
  'having',
  'been',
  'being',
  'were',
  'am',
  'i',
  'me',
  'my',
  'we',
  'us',
  'our',
  'you',
  'your',
  'its',
  'any',
  'some',
  'so',
  'than',
  'about',
  'from',
  'please',
]);

/** Longest token part that is indexed; longer runs (hashes, base64) are skipped. */
export const MAX_TERM_LENGTH = 64;

/** One analyzed token, with where it came from in the text. */
export interface AnalyzedToken {
  /** The index term (folded, stemmed). */
  term: string;
  /** The folded word before stemming (used for question-word removal). */
  folded: string;
  /** UTF-16 offsets of the surface word in the input text. */
  start: number;
  end: number;
  /** False for the joined form of a compound, which adds no length. */
  primary: boolean;
}

const TOKEN_RE = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*(?:[-‐‑._'’][\p{L}\p{N}][\p{L}\p{N}\p{M}]*)*/gu;
const PART_SEP_RE = /[-‐‑._]/;
const ASCII_WORD_RE = /^[\x20-\x7e]*$/;
const NON_ALNUM_RE = /[^\p{L}\p{N}]+/gu;
const ASCII_LETTERS_RE = /^[a-z]+$/;
const DIGITS_RE = /^[0-9]+$/;

/** Unicode folding of one word: NFKD, combining marks removed, lowercase, special letters. */
export function foldWord(word: string): string {
  if (ASCII_WORD_RE.test(word)) return word.toLowerCase();
  // NFKD can produce punctuation (e.g. "½" → "1⁄2"); keep letters and digits only.
  return foldLetters(word).replace(NON_ALNUM_RE, '');
}

// A bounded cache of word → term; analysis is pure, so the cache only saves time.
const STEM_CACHE = new Map<string, string>();
const STEM_CACHE_LIMIT = 200_000;

/**
 * Stem a folded word: ASCII-letter words through Porter2, anything else unchanged. Only stemmed
 * words are cached: numbers and other words come back as they are, and caching them filled the
 * cache (and ~10 MB of a server's memory) with every number ever asked.
 */
export function stemWord(folded: string): string {
  if (!ASCII_LETTERS_RE.test(folded)) return folded;
  const cached = STEM_CACHE.get(folded);
  if (cached !== undefined) return cached;
  const term = stemEnglish(folded);
  if (STEM_CACHE.size >= STEM_CACHE_LIMIT) STEM_CACHE.clear();
  STEM_CACHE.set(folded, term);
  return term;
}

/** Folds one apostrophe-joined piece, dropping a trailing possessive "'s". */
function foldPiece(raw: string): string {
  if (raw.includes("'") || raw.includes('’')) {
    const bits = raw.split(/['’]/);
    const last = bits[bits.length - 1];
    if (bits.length > 1 && (last === 's' || last === 'S')) bits.pop();
    return foldWord(bits.join(''));
  }
  return foldWord(raw);
}

/**
 * Analyze text into tokens with their offsets. `keepStopWords` keeps stop words (used by the
 * snippet code to locate words; never for indexing).
 */
export function analyzeTokens(text: string, keepStopWords = false): AnalyzedToken[] {
  const sink = new TokenList();
  scanWords(text, sink, keepStopWords);
  return sink.tokens;
}

/**
 * Receives the words of a text in order, folded but not stemmed: a word's term is
 * stemWord(folded), always. An index build numbers each distinct folded word once instead of
 * stemming and looking up every token (most of analysing a large site).
 */
export interface WordSink {
  /** `primary` is false for the joined form of a compound, which adds no length. */
  word(folded: string, start: number, end: number, primary: boolean): void;
}

class TokenList implements WordSink {
  readonly tokens: AnalyzedToken[] = [];
  word(folded: string, start: number, end: number, primary: boolean): void {
    this.tokens.push({ term: stemWord(folded), folded, start, end, primary });
  }
}

/** The words analyzeTokens makes tokens of, given to `sink` (stop words left out unless kept). */
export function scanWords(text: string, sink: WordSink, keepStopWords = false): void {
  if (ASCII_TEXT_RE.test(text)) {
    analyzeAsciiTokens(text, keepStopWords, sink);
    return;
  }
  TOKEN_RE.lastIndex = 0;
  for (let m = TOKEN_RE.exec(text); m !== null; m = TOKEN_RE.exec(text)) {
    const raw = m[0];
    if (PART_SEP_RE.test(raw)) analyzeCompound(sink, raw, m.index, keepStopWords);
    else pushWord(sink, foldPiece(raw), m.index, m.index + raw.length, keepStopWords);
  }
}

const ASCII_TEXT_RE = /^[^\u0080-\uffff]*$/;

/** ASCII letter or digit (what \p{L} and \p{N} match below 128; \p{M} matches nothing there). */
function isAsciiAlnum(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57);
}

/**
 * analyzeTokens for ASCII text: the same tokens as TOKEN_RE, found by a scan of character codes,
 * which also tells which tokens have a separator, so plain words skip the compound and apostrophe
 * handling. (Most text on the sites served is ASCII; a test compares the two paths.)
 */
function analyzeAsciiTokens(text: string, keepStopWords: boolean, out: WordSink): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    if (!isAsciiAlnum(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    let joined = false; // - . _
    let apostrophe = false;
    for (;;) {
      i++;
      while (i < n && isAsciiAlnum(text.charCodeAt(i))) i++;
      // A separator joins only when a letter or digit follows it.
      if (i + 1 >= n || !isAsciiAlnum(text.charCodeAt(i + 1))) break;
      const sep = text.charCodeAt(i);
      if (sep === 39) apostrophe = true;
      else if (sep === 45 || sep === 46 || sep === 95) joined = true;
      else break;
      i++;
    }
    const raw = text.slice(start, i);
    if (joined) analyzeCompound(out, raw, start, keepStopWords);
    else pushWord(out, apostrophe ? foldPiece(raw) : raw.toLowerCase(), start, i, keepStopWords);
  }
}

/**
 * A token with hyphens, dots or underscores: split at them (apostrophes stay inside a part). Parts
 * of one character ("e" of "e-mail", the letters of "U.S.A.") are not terms on their own; they
 * live on in the joined form.
 */
function analyzeCompound(out: WordSink, raw: string, start: number, keepStopWords: boolean): void {
  const folded: string[] = [];
  let separatorsAreDots = true;
  let partStart = start;
  let pushedParts = 0;
  const parts = raw.split(/([-‐‑._])/);
  for (let p = 0; p < parts.length; p++) {
    const piece = parts[p] as string;
    if (p % 2 === 1) {
      if (piece !== '.') separatorsAreDots = false;
      partStart += piece.length;
      continue;
    }
    const f = foldPiece(piece);
    if (f.length > 0) folded.push(f);
    if (f.length > 1 && pushWord(out, f, partStart, partStart + piece.length, keepStopWords)) pushedParts++;
    partStart += piece.length;
  }
  if (folded.length < 2) {
    // Nothing left to join ("x-" cannot occur; "a-b" with one empty fold can).
    if (pushedParts === 0 && folded.length === 1)
      pushWord(out, folded[0] as string, start, start + raw.length, keepStopWords);
    return;
  }
  const numeric = separatorsAreDots && folded.every((f) => DIGITS_RE.test(f));
  // "3.14" keeps its dots; stemWord leaves anything but ASCII letters as it is.
  const joined = numeric ? folded.join('.') : folded.join('');
  if (joined.length > MAX_TERM_LENGTH) return;
  // The joined form adds no length, unless it is the compound's only term.
  out.word(joined, start, start + raw.length, pushedParts === 0);
}

/** Adds a word unless it is empty, too long or a stop word; returns whether it was added. */
function pushWord(
  out: WordSink,
  folded: string,
  start: number,
  end: number,
  keepStopWords: boolean,
): boolean {
  if (folded.length === 0 || folded.length > MAX_TERM_LENGTH) return false;
  if (!keepStopWords && STOP_WORDS.has(folded)) return false;
  out.word(folded, start, end, true);
  return true;
}

/**
 * The index terms of a text, in order (stop words removed, compounds expanded). A query whose
 * `analyze` is empty has nothing searchable in it.
 */
export function analyze(text: string): string[] {
  return analyzeTokens(text).map((t) => t.term);
}

/** True when the text has at least one searchable term. */
export function hasSearchableTerms(text: string): boolean {
  return analyzeTokens(text).length > 0;
}

/** A query's terms with their weights (query-term frequency), question words removed when others remain. */
export interface QueryTerm {
  term: string;
  weight: number;
}

/**
 * Query analysis: the analyzer's terms, with question-form words dropped when at least one other
 * term remains (unless `dropQuestionWords` is false), duplicates merged into a weight (the query
 * term frequency), in order of first appearance.
 */
export function analyzeQuery(text: string, dropQuestionWords = true): QueryTerm[] {
  let tokens = analyzeTokens(text);
  if (dropQuestionWords) {
    const kept = tokens.filter((t) => !QUESTION_WORDS.has(t.folded));
    if (kept.length > 0) tokens = kept;
  }
  const byTerm = new Map<string, QueryTerm>();
  for (const t of tokens) {
    const q = byTerm.get(t.term);
    if (q) q.weight += 1;
    else byTerm.set(t.term, { term: t.term, weight: 1 });
  }
  return [...byTerm.values()];
}
