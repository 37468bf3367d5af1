/**
 * Snippets: the part of a document's plain text around the densest cluster of query terms, cut on
 * word boundaries, with the character ranges of the matched words so a UI can highlight them.
 * Pure and deterministic.
 */

import { analyzeQuery, analyzeTokens } from './analyzer.js';

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

/**
 * A text analysed once for snippets: its collapsed form and every term with its range there. A
 * caller that makes many snippets of the same text (a search service quoting its passages) keeps
 * these instead of analysing the text for every answer.
 */
export interface PreparedText {
  readonly clean: string;
  readonly terms: readonly string[];
  /** UTF-16 offsets into `clean` of each term's word, end exclusive. */
  readonly starts: Uint32Array;
  readonly ends: Uint32Array;
}

export function prepareSnippetText(text: string): PreparedText {
  const clean = collapse(text);
  const tokens = analyzeTokens(clean);
  const terms = new Array<string>(tokens.length);
  const starts = new Uint32Array(tokens.length);
  const ends = new Uint32Array(tokens.length);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    terms[i] = t.term;
    starts[i] = t.start;
    ends[i] = t.end;
  }
  return { clean, terms, starts, ends };
}

const ELLIPSIS = '…';
const WS_RE = /\s+/g;

/** Collapse runs of whitespace to one space and trim. */
function collapse(text: string): string {
  return text.replace(WS_RE, ' ').trim();
}

function termSet(query: string | readonly string[], keepQuestionWords: boolean): Set<string> {
  if (typeof query === 'string') return new Set(analyzeQuery(query, !keepQuestionWords).map((q) => q.term));
  return new Set(query);
}

interface Hit {
  start: number;
  end: number;
  term: string;
}

/**
 * Make a snippet of `text` for a query. `query` is the query text, or index terms (e.g. a search
 * result's `matchedTerms`) to highlight exactly those.
 *
 * The window (at most maxLength characters) is the one covering the most distinct query terms,
 * then the most matched words, then the tightest, then the earliest. It is widened to word boundaries inside the
 * length budget and centred on its matches; "…" marks a cut at either end. With no match the
 * snippet is the start of the text. `text` may be given prepared (`prepareSnippetText`): the
 * snippet is the same.
 */
export function makeSnippet(
  text: string | PreparedText,
  query: string | readonly string[],
  options: SnippetOptions = {},
): Snippet {
  const maxLength = Math.max(40, Math.floor(options.maxLength ?? 240));
  const prepared = typeof text === 'string' ? prepareSnippetText(text) : text;
  const { clean, terms, starts, ends } = prepared;
  const wanted = termSet(query, options.keepQuestionWords ?? false);

  const hits: Hit[] = [];
  if (wanted.size > 0) {
    for (let i = 0; i < terms.length; i++) {
      const term = terms[i]!;
      if (!wanted.has(term)) continue;
      const start = starts[i]!;
      const end = ends[i]!;
      const prev = hits[hits.length - 1];
      // A compound's joined form spans its parts: keep one highlight per surface range.
      if (prev && start < prev.end) {
        if (end > prev.end) prev.end = end;
        continue;
      }
      hits.push({ start, end, term });
    }
  }

  if (clean.length <= maxLength) return finish(clean, 0, clean.length, hits);

  // Budget for the window itself, leaving room for an ellipsis at both ends.
  const budget = maxLength - 2;
  let bestFrom = -1;
  let bestTo = -1;
  let bestDistinct = 0;
  let bestCount = 0;
  let bestSpan = Infinity;
  const counts = new Map<string, number>();
  let lo = 0;
  for (let hi = 0; hi < hits.length; hi++) {
    const h = hits[hi] as Hit;
    counts.set(h.term, (counts.get(h.term) ?? 0) + 1);
    while (h.end - (hits[lo] as Hit).start > budget) {
      const l = hits[lo] as Hit;
      const n = (counts.get(l.term) as number) - 1;
      if (n === 0) counts.delete(l.term);
      else counts.set(l.term, n);
      lo++;
    }
    const distinct = counts.size;
    const count = hi - lo + 1;
    const span = h.end - (hits[lo] as Hit).start;
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
    firstHit = (hits[bestFrom] as Hit).start;
    lastHit = (hits[bestTo] as Hit).end;
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
  if (end < clean.length && clean[end] !== ' ') {
    const sp = clean.lastIndexOf(' ', end);
    const cut = sp >= lastHit && sp > start ? sp : lastHit;
    // A single word longer than the budget is cut where it must be.
    if (cut > start) end = cut;
  }
  return finish(clean, start, end, hits);
}

const TRAILING_CUT = /[\s,;:]/u;

/** `text` without trailing white space, commas, semicolons and colons (a backward scan: a `…+$` regex retries at every space). */
function trimEndPunctuation(text: string): string {
  let end = text.length;
  while (end > 0 && TRAILING_CUT.test(text[end - 1]!)) end--;
  return end === text.length ? text : text.slice(0, end);
}

function finish(clean: string, start: number, end: number, hits: Hit[]): Snippet {
  let body = clean.slice(start, end);
  // Trim trailing punctuation before an ellipsis so it reads "word…" not "word,…".
  if (end < clean.length) body = trimEndPunctuation(body);
  const prefix = start > 0 ? ELLIPSIS : '';
  const suffix = end < clean.length ? ELLIPSIS : '';
  const text = prefix + body + suffix;
  const highlights: Highlight[] = [];
  const matchedWords: string[] = [];
  const seen = new Set<string>();
  for (const h of hits) {
    if (h.start < start || h.end > start + body.length) continue;
    const s = h.start - start + prefix.length;
    const e = h.end - start + prefix.length;
    highlights.push({ start: s, end: e });
    const word = text.slice(s, e);
    if (!seen.has(word)) {
      seen.add(word);
      matchedWords.push(word);
    }
  }
  return { text, highlights, matchedWords };
}
