/**
 * Snippets: the part of a document's plain text around the densest cluster of query terms, cut on
 * word boundaries, with the character ranges of the matched words so a UI can highlight them.
 * Pure and deterministic.
 *
 * A service that quotes the same texts again and again prepares each once (`prepareSnippetText`):
 * its words become numbers in the index's term dictionary and two offsets each, ~12 bytes a word,
 * so every passage of a large site can stay prepared. A snippet is then one pass over those
 * numbers (`quoteSnippet`), with no analysis and no string compared.
 */

import { analyzeQuery, analyzeTokens } from './analyzer.js';
import { languageProfile } from './languages.js';

export interface SnippetOptions {
  /** Longest snippet in characters, ellipses included (default 240, at least 40). */
  maxLength?: number;
  /** Keep question words in the query terms (default false: same terms the ranking uses). */
  keepQuestionWords?: boolean;
}

export interface Highlight {
  /** UTF-16 offsets into the snippet text, end exclusive. */
  start: number;
  end: number;
}

export interface Snippet {
  /** The snippet, whitespace collapsed, with "…" where the text was cut. */
  text: string;
  /** Matched words in the snippet text, in order, not overlapping. */
  highlights: Highlight[];
  /** The matched words as they appear in the snippet (distinct, in order of first appearance). */
  matchedWords: string[];
}

/** Term → its number (an index's term dictionary): what a prepared text's words are numbered by. */
export type TermNumbers = ReadonlyMap<string, number>;

/** A text analysed once for snippets: its collapsed form and each word's term number and range. */
export interface PreparedText {
  /** The text with runs of white space collapsed to one space, trimmed (the text itself when it was so). */
  readonly clean: string;
  /**
   * Three numbers per word of `clean`, in order: its term's number in the dictionary it was
   * prepared with plus one (0: not in it), and its UTF-16 start and end (exclusive) in `clean`.
   * One array, 16-bit when every number fits (6 bytes a word; a large site's every passage stays
   * prepared in a few MB).
   */
  readonly words: Uint16Array | Uint32Array;
}

/** `lang`: the text's language (a BCP 47 tag), whose rules made its terms in the index. */
export function prepareSnippetText(text: string, dictionary: TermNumbers, lang?: string): PreparedText {
  const collapsed = collapse(text);
  // Kept once when the text needed no collapsing (its passage already holds it).
  const clean = collapsed === text ? text : collapsed;
  const tokens = analyzeTokens(clean, false, languageProfile(lang));
  const ids = tokens.map((t) => (dictionary.get(t.term) ?? -1) + 1);
  let largest = clean.length;
  for (const id of ids) if (id > largest) largest = id;
  const words = largest <= 0xffff ? new Uint16Array(tokens.length * 3) : new Uint32Array(tokens.length * 3);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    words[3 * i] = ids[i]!;
    words[3 * i + 1] = t.start;
    words[3 * i + 2] = t.end;
  }
  return { clean, words };
}

const ELLIPSIS = '…';
const WS_RE = /\s+/g;

/** Collapse runs of whitespace to one space and trim. */
function collapse(text: string): string {
  return text.replace(WS_RE, ' ').trim();
}

/**
 * Make a snippet of `text` for a query. `query` is the query text, or index terms (e.g. a search
 * result's `matchedTerms`) to highlight exactly those.
 *
 * The window (at most maxLength characters) is the one covering the most distinct query terms,
 * then the most matched words, then the tightest, then the earliest. It is widened to word boundaries inside the
 * length budget and centred on its matches; "…" marks a cut at either end. With no match the
 * snippet is the start of the text.
 */
export function makeSnippet(
  text: string,
  query: string | readonly string[],
  options: SnippetOptions = {},
): Snippet {
  const terms =
    typeof query === 'string'
      ? analyzeQuery(query, !(options.keepQuestionWords ?? false)).map((q) => q.term)
      : query;
  // Only the query's terms need numbers: every other word is −1.
  const dictionary = new Map<string, number>();
  for (const term of terms) if (!dictionary.has(term)) dictionary.set(term, dictionary.size);
  return quoteSnippet(prepareSnippetText(text, dictionary), [...dictionary.values()], options);
}

/**
 * `makeSnippet` of a prepared text, for the terms with these numbers (in the dictionary the text
 * was prepared with). The same snippet as `makeSnippet` of the text and those terms.
 */
export function quoteSnippet(
  prepared: PreparedText,
  wanted: readonly number[],
  options: SnippetOptions = {},
): Snippet {
  const maxLength = Math.max(40, Math.floor(options.maxLength ?? 240));
  const { clean, words } = prepared;

  // The matched words: their ranges and which wanted term each is (its place in `wanted`).
  const hitStart: number[] = [];
  const hitEnd: number[] = [];
  const hitTerm: number[] = [];
  if (wanted.length > 0) {
    for (let i = 0; i < words.length; i += 3) {
      const id = words[i]!;
      if (id === 0) continue;
      const which = wanted.indexOf(id - 1);
      if (which < 0) continue;
      const start = words[i + 1]!;
      const end = words[i + 2]!;
      const last = hitStart.length - 1;
      // A compound's joined form spans its parts: keep one highlight per surface range.
      if (last >= 0 && start < hitEnd[last]!) {
        if (end > hitEnd[last]!) hitEnd[last] = end;
        continue;
      }
      hitStart.push(start);
      hitEnd.push(end);
      hitTerm.push(which);
    }
  }
  const hitCount = hitStart.length;

  if (clean.length <= maxLength) return finish(clean, 0, clean.length, hitStart, hitEnd);

  // Budget for the window itself, leaving room for an ellipsis at both ends.
  const budget = maxLength - 2;
  let bestFrom = -1;
  let bestTo = -1;
  let bestDistinct = 0;
  let bestCount = 0;
  let bestSpan = Infinity;
  const counts = new Int32Array(wanted.length);
  let distinct = 0;
  let lo = 0;
  for (let hi = 0; hi < hitCount; hi++) {
    if (counts[hitTerm[hi]!]!++ === 0) distinct++;
    const end = hitEnd[hi]!;
    while (end - hitStart[lo]! > budget) {
      if (--counts[hitTerm[lo]!]! === 0) distinct--;
      lo++;
    }
    const count = hi - lo + 1;
    const span = end - hitStart[lo]!;
    if (
      distinct > bestDistinct ||
      (distinct === bestDistinct && (count > bestCount || (count === bestCount && span < bestSpan)))
    ) {
      bestDistinct = distinct;
      bestCount = count;
      bestSpan = span;
      bestFrom = lo;
      bestTo = hi;
    }
  }

  let start: number;
  let end: number;
  // Matches must stay inside: [firstHit, lastHit) is never cut.
  let firstHit = budget;
  let lastHit = 0;
  if (bestFrom < 0) {
    start = 0;
    end = budget;
  } else {
    firstHit = hitStart[bestFrom]!;
    lastHit = hitEnd[bestTo]!;
    const spare = budget - (lastHit - firstHit);
    // Some context before the first match, the rest after the last.
    start = Math.max(0, firstHit - Math.min(Math.floor(spare / 3), 60));
    end = Math.min(clean.length, start + budget);
    if (end === clean.length) start = Math.max(0, end - budget);
  }
  // Move inwards to word boundaries.
  if (start > 0 && clean[start - 1] !== ' ') {
    const sp = clean.indexOf(' ', start);
    start = sp >= 0 && sp < firstHit ? sp + 1 : Math.min(firstHit, end);
  }
  // A snippet that starts inside a quotation ("…11 compliant" or") reads as if the quoted words
  // were the text's own: start at its sentence, or at its opening mark, when the matches still fit.
  const opening = start > 0 ? quotationOpenAt(clean, start) : -1;
  if (opening >= 0) {
    const sentence = sentenceStart(clean, opening);
    if (lastHit - sentence <= budget || lastHit - opening <= budget) {
      start = lastHit - sentence <= budget ? sentence : opening;
      end = Math.min(clean.length, start + budget);
    } else {
      // Too far back to keep every match: start after the quotation instead.
      const closing = clean.indexOf(clean[opening] === '"' ? '"' : '\u201d', start);
      let after = closing + 1;
      while (after < clean.length && clean[after] === ' ') after++;
      if (closing >= 0 && after < lastHit) {
        start = after;
        end = Math.min(clean.length, start + budget);
      }
    }
  }
  if (end < clean.length && clean[end] !== ' ') {
    const sp = clean.lastIndexOf(' ', end);
    const cut = sp >= lastHit && sp > start ? sp : lastHit;
    // A single word longer than the budget is cut where it must be.
    if (cut > start) end = cut;
  }
  return finish(clean, start, end, hitStart, hitEnd);
}

/**
 * Where the quotation that `at` lies inside opens, or -1: after an odd number of straight double
 * quotes, or after a “ not yet closed by ”.
 */
function quotationOpenAt(clean: string, at: number): number {
  const straight = clean.lastIndexOf('"', at - 1);
  if (straight >= 0) {
    let count = 0;
    for (let i = clean.indexOf('"'); i >= 0 && i < at; i = clean.indexOf('"', i + 1)) count++;
    if (count % 2 === 1) return straight;
  }
  const curly = clean.lastIndexOf('\u201c', at - 1);
  return curly >= 0 && clean.lastIndexOf('\u201d', at - 1) < curly ? curly : -1;
}

/** The start of the sentence `at` is in: after the last ". ", "! " or "? " before it, or 0. */
function sentenceStart(clean: string, at: number): number {
  for (let i = at - 1; i > 0; i--) if (clean[i] === ' ' && /[.!?]/.test(clean[i - 1]!)) return i + 1;
  return 0;
}

const TRAILING_CUT = /[\s,;:]/u;

/** `text` without trailing white space, commas, semicolons and colons (a backward scan: a `…+$` regex retries at every space). */
function trimEndPunctuation(text: string): string {
  let end = text.length;
  while (end > 0 && TRAILING_CUT.test(text[end - 1]!)) end--;
  return end === text.length ? text : text.slice(0, end);
}

function finish(
  clean: string,
  start: number,
  end: number,
  hitStart: readonly number[],
  hitEnd: readonly number[],
): Snippet {
  let body = clean.slice(start, end);
  // Trim trailing punctuation before an ellipsis so it reads "word…" not "word,…".
  if (end < clean.length) body = trimEndPunctuation(body);
  const prefix = start > 0 ? ELLIPSIS : '';
  const suffix = end < clean.length ? ELLIPSIS : '';
  const text = prefix + body + suffix;
  const highlights: Highlight[] = [];
  const matchedWords: string[] = [];
  const bodyEnd = start + body.length;
  for (let i = 0; i < hitStart.length; i++) {
    const hs = hitStart[i]!;
    const he = hitEnd[i]!;
    if (hs < start || he > bodyEnd) continue;
    const s = hs - start + prefix.length;
    const e = he - start + prefix.length;
    highlights.push({ start: s, end: e });
    const word = text.slice(s, e);
    if (!matchedWords.includes(word)) matchedWords.push(word);
  }
  return { text, highlights, matchedWords };
}
