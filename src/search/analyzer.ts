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
 *
 * Steps 2, 3, 5 and 6 are those of the text's language (languages.ts): a language with a Snowball
 * stemmer folds a word to lowercase only (its stemmer needs the accents), cuts elisions, drops its
 * own stop words and stems with its own stemmer; its term is the stem, folded. Chinese, Japanese,
 * Korean and Thai runs are cut by script whatever the language (cjk.ts). English, and any language
 * without a stemmer, is analysed as it always was.
 */

import { foldLetters } from '../unicode/index.js';
import { CJK_OR_THAI_RE, scanCjk } from './cjk.js';
import { ENGLISH, type LanguageProfile } from './languages.js';

export { QUESTION_WORDS, STOP_WORDS, stemWord } from './english.js';

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
  /** The language whose rules made the term (the stop and question words to check). */
  profile: LanguageProfile;
}

const TOKEN_RE = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*(?:[-‐‑._'’][\p{L}\p{N}][\p{L}\p{N}\p{M}]*)*/gu;
const PART_SEP_RE = /[-‐‑._]/;
const ASCII_WORD_RE = /^[\x20-\x7e]*$/;
const NON_ALNUM_RE = /[^\p{L}\p{N}]+/gu;
const DIGITS_RE = /^[0-9]+$/;

/** Unicode folding of one word: NFKD, combining marks removed, lowercase, special letters. */
export function foldWord(word: string): string {
  if (ASCII_WORD_RE.test(word)) return word.toLowerCase();
  // NFKD can produce punctuation (e.g. "½" → "1⁄2"); keep letters and digits only.
  return foldLetters(word).replace(NON_ALNUM_RE, '');
}

/**
 * A word of a Snowball language: lowercase and composed, accents kept for the stemmer (letters and
 * digits only, as foldWord).
 */
function lowerWord(word: string): string {
  if (ASCII_WORD_RE.test(word)) return word.toLowerCase();
  return word.normalize('NFC').toLowerCase().replace(NON_ALNUM_RE, '');
}

/** Folds one apostrophe-joined piece, dropping a trailing possessive "'s". */
function foldPiece(raw: string, profile: LanguageProfile): string {
  if (profile.snowball) return foldSnowballPiece(raw, profile);
  if (raw.includes("'") || raw.includes('’')) {
    const bits = raw.split(/['’]/);
    const last = bits[bits.length - 1];
    if (bits.length > 1 && (last === 's' || last === 'S')) bits.pop();
    return foldWord(bits.join(''));
  }
  return foldWord(raw);
}

/** foldPiece for a Snowball language: an elided article is cut ("l'objet" → objet), other apostrophes join. */
function foldSnowballPiece(raw: string, profile: LanguageProfile): string {
  if (raw.includes("'") || raw.includes('’')) {
    const bits = raw.split(/['’]/);
    if (bits.length > 1 && profile.elision?.has((bits[0] as string).toLowerCase())) bits.shift();
    return lowerWord(bits.join(''));
  }
  return lowerWord(raw);
}

/** A word's index term in a language: its stem, and for a Snowball language the stem folded. */
export function termOf(folded: string, profile: LanguageProfile): string {
  return profile.snowball ? foldWord(profile.stem(folded)) : profile.stem(folded);
}

/**
 * Analyze text into tokens with their offsets. `keepStopWords` keeps stop words (used by the
 * snippet code to locate words; never for indexing).
 */
export function analyzeTokens(
  text: string,
  keepStopWords = false,
  profile: LanguageProfile = ENGLISH,
): AnalyzedToken[] {
  const sink = new TokenList();
  scanWords(text, sink, keepStopWords, profile);
  return sink.tokens;
}

/**
 * Receives the words of a text in order, folded but not stemmed: a word's term is
 * termOf(folded, profile), always. An index build numbers each distinct folded word of a profile
 * once instead of stemming and looking up every token (most of analysing a large site).
 */
export interface WordSink {
  /** `primary` is false for the joined form of a compound, which adds no length. */
  word(folded: string, start: number, end: number, primary: boolean, profile: LanguageProfile): void;
}

class TokenList implements WordSink {
  readonly tokens: AnalyzedToken[] = [];
  word(folded: string, start: number, end: number, primary: boolean, profile: LanguageProfile): void {
    this.tokens.push({ term: termOf(folded, profile), folded, start, end, primary, profile });
  }
}

/**
 * The words analyzeTokens makes tokens of, given to `sink` (stop words left out unless kept),
 * analysed by the rules of `profile`'s language.
 */
export function scanWords(
  text: string,
  sink: WordSink,
  keepStopWords = false,
  profile: LanguageProfile = ENGLISH,
): void {
  if (ASCII_TEXT_RE.test(text)) {
    analyzeAsciiTokens(text, keepStopWords, sink, profile);
    return;
  }
  TOKEN_RE.lastIndex = 0;
  for (let m = TOKEN_RE.exec(text); m !== null; m = TOKEN_RE.exec(text)) {
    const raw = m[0];
    if (CJK_OR_THAI_RE.test(raw)) {
      // Runs of another script inside it are tokens of their own, analysed as usual.
      scanCjk(raw, m.index, sink, (part, at) => scanToken(part, at, sink, keepStopWords, profile));
    } else scanToken(raw, m.index, sink, keepStopWords, profile);
  }
}

/** One token of TOKEN_RE (no Chinese, Japanese, Korean or Thai in it). */
function scanToken(
  raw: string,
  at: number,
  sink: WordSink,
  keepStopWords: boolean,
  profile: LanguageProfile,
): void {
  if (PART_SEP_RE.test(raw)) analyzeCompound(sink, raw, at, keepStopWords, profile);
  else pushWord(sink, foldPiece(raw, profile), at, at + raw.length, keepStopWords, profile);
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
function analyzeAsciiTokens(
  text: string,
  keepStopWords: boolean,
  out: WordSink,
  profile: LanguageProfile,
): void {
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
    if (joined) analyzeCompound(out, raw, start, keepStopWords, profile);
    else
      pushWord(
        out,
        apostrophe ? foldPiece(raw, profile) : raw.toLowerCase(),
        start,
        i,
        keepStopWords,
        profile,
      );
  }
}

/**
 * A token with hyphens, dots or underscores: split at them (apostrophes stay inside a part). Parts
 * of one character ("e" of "e-mail", the letters of "U.S.A.") are not terms on their own; they
 * live on in the joined form.
 */
function analyzeCompound(
  out: WordSink,
  raw: string,
  start: number,
  keepStopWords: boolean,
  profile: LanguageProfile,
): void {
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
    const f = foldPiece(piece, profile);
    if (f.length > 0) folded.push(f);
    if (f.length > 1 && pushWord(out, f, partStart, partStart + piece.length, keepStopWords, profile))
      pushedParts++;
    partStart += piece.length;
  }
  if (folded.length < 2) {
    // Nothing left to join ("x-" cannot occur; "a-b" with one empty fold can).
    if (pushedParts === 0 && folded.length === 1)
      pushWord(out, folded[0] as string, start, start + raw.length, keepStopWords, profile);
    return;
  }
  const numeric = separatorsAreDots && folded.every((f) => DIGITS_RE.test(f));
  // "3.14" keeps its dots; stemWord leaves anything but ASCII letters as it is.
  const joined = numeric ? folded.join('.') : folded.join('');
  if (joined.length > MAX_TERM_LENGTH) return;
  // The joined form adds no length, unless it is the compound's only term.
  out.word(joined, start, start + raw.length, pushedParts === 0, profile);
}

/** Adds a word unless it is empty, too long or a stop word; returns whether it was added. */
function pushWord(
  out: WordSink,
  folded: string,
  start: number,
  end: number,
  keepStopWords: boolean,
  profile: LanguageProfile,
): boolean {
  if (folded.length === 0 || folded.length > MAX_TERM_LENGTH) return false;
  if (!keepStopWords && profile.stop.has(folded)) return false;
  out.word(folded, start, end, true, profile);
  return true;
}

/**
 * The index terms of a text, in order (stop words removed, compounds expanded). A query whose
 * `analyze` is empty has nothing searchable in it.
 */
export function analyze(text: string, profile: LanguageProfile = ENGLISH): string[] {
  return analyzeTokens(text, false, profile).map((t) => t.term);
}

/** True when the text has at least one searchable term. */
export function hasSearchableTerms(text: string, profile: LanguageProfile = ENGLISH): boolean {
  return analyzeTokens(text, false, profile).length > 0;
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
export function analyzeQuery(
  text: string,
  dropQuestionWords = true,
  profile: LanguageProfile = ENGLISH,
): QueryTerm[] {
  let tokens = analyzeTokens(text, false, profile);
  if (dropQuestionWords) {
    const kept = tokens.filter((t) => !t.profile.question.has(t.folded));
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
