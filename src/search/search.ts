/**
 * Searching an index: the entry point, and the order of the stages. Synchronous and deterministic.
 *
 * A search runs these stages, one file each:
 *
 * 1. **Plan** (query.ts, query-terms.ts): the text is analysed into query words; each word gets
 *    the index terms that count for it (exact, prefix completions, typo corrections, joined forms)
 *    with a weight and an idf.
 * 2. **Score** (accumulate.ts): BM25F, term at a time, into a per-document accumulator; the
 *    documents touched are the candidates.
 * 3. **Feedback** (feedback.ts, optional): RM3 — the best documents' words become extra query
 *    terms, scored into the same accumulator.
 * 4. **Proximity** (proximity.ts, optional): a bonus for query words close together, on the best
 *    documents only.
 * 5. **Rank** (rank.ts, with top-k.ts and score.ts): scores rounded to 6 decimals, sorted, ties
 *    by key; the page asked for.
 * 6. **Results** (results.ts): each document's key, score and matched terms.
 *
 * The stages share the index's scratch arrays (build.ts), so a search allocates little; this file
 * marks the query terms in them before the stages and clears what they touched afterwards.
 */

import type { SearchIndex } from './build.js';
import { accumulateWord, clearScores } from './accumulate.js';
import { addFeedback } from './feedback.js';
import { planQuery, type QueryCorrection } from './query.js';
import { weightedWords } from './query-terms.js';
import { rank } from './rank.js';
import type { SearchResult } from './results.js';

export type { SearchResult } from './results.js';

export interface SearchOptions {
  /** Results wanted (default 10). */
  limit?: number;
  /** Results skipped (default 0). */
  offset?: number;
  /** Match the last word as a prefix when the text ends inside it (default true). */
  prefix?: boolean;
  /** Correct misspelt words and split run-together ones (default true). */
  typos?: boolean;
  /** The query's language (PlanOptions.lang). */
  lang?: string;
  /**
   * Only documents whose number (their place in key order, `index.core.keys`) is 1 here are
   * returned (a scope: a path prefix, a section, a tag). Feedback still reads every document.
   */
  allow?: Uint8Array;
}

/** A search's results and what it searched for. */
export interface SearchOutcome {
  results: SearchResult[];
  /** Misspelt or run-together words and what was searched instead. */
  corrections: QueryCorrection[];
  /** The query with the corrections applied. */
  correctedText: string;
  /** Whether any query word matched something in the index. */
  matchedAny: boolean;
  /**
   * The query's words as searched: their weight and the index terms that count for each (none for
   * a word that matches nothing in the index).
   */
  queryWords: { weight: number; terms: string[] }[];
}

function checkCount(name: string, v: number | undefined, dflt: number): number {
  if (v === undefined) return dflt;
  if (!Number.isInteger(v) || v < 0) throw new RangeError(`${name} must be a whole number ≥ 0`);
  return v;
}

/**
 * Search the index. Results are sorted by score (rounded to 6 decimals) descending, ties by key
 * ascending in UTF-8 byte order. An empty array when the query has nothing searchable.
 */
export function search(index: SearchIndex, queryText: string, options: SearchOptions = {}): SearchResult[] {
  return searchWithPlan(index, queryText, options).results;
}

/** `search`, also telling what was searched for (corrections, the corrected text). */
export function searchWithPlan(
  index: SearchIndex,
  queryText: string,
  options: SearchOptions = {},
): SearchOutcome {
  const limit = checkCount('limit', options.limit, 10);
  const offset = checkCount('offset', options.offset, 0);
  const nothing: SearchOutcome = {
    results: [],
    corrections: [],
    correctedText: '',
    matchedAny: false,
    queryWords: [],
  };
  if (typeof queryText !== 'string') return nothing;
  const c = index.core;
  const r = index.ranking;
  // 1. Plan.
  const plan = planQuery(c, queryText, {
    dropQuestionWords: r.dropQuestionWords,
    prefix: options.prefix ?? true,
    typos: options.typos ?? true,
    ...(options.lang ? { lang: options.lang } : {}),
  });
  const words = weightedWords(c, plan);
  const outcome = (results: SearchResult[]): SearchOutcome => ({
    results,
    corrections: plan.corrections,
    correctedText: plan.correctedText,
    matchedAny: words.length > 0,
    queryWords: [
      ...plan.words.map((w) => ({ weight: w.weight, terms: w.alternatives.map((a) => a.term) })),
      ...plan.unmatched.map((weight) => ({ weight, terms: [] })),
    ],
  });
  if (limit === 0 || words.length === 0) return outcome([]);
  const terms = words.map((w) => w.main);

  const s = c.scratch;
  let touched = 0;
  // Mark every alternative with its word's index in the query, for feedback and proximity.
  words.forEach((w, i) => {
    for (const t of w.alternatives) s.queryMark[t.id] = i;
  });
  try {
    // 2. Score.
    words.forEach((w, i) => (touched = accumulateWord(index, w, i, touched)));

    // 3. Feedback.
    if (r.feedback.enabled && r.feedback.docs > 0 && r.feedback.terms > 0)
      touched = addFeedback(index, terms, touched);

    // 4–6. Proximity, rank, results: over the allowed candidates when the search is scoped.
    if (options.allow) {
      // Keep the allowed documents at the front of the candidates (touched keeps them all for clean-up).
      const allow = options.allow;
      const kept: number[] = [];
      for (let i = 0; i < touched; i++) {
        const d = s.touched[i] as number;
        if (allow[d] === 1) kept.push(d);
      }
      return outcome(rank(index, words, terms, Uint32Array.from(kept), kept.length, offset, limit));
    }
    return outcome(rank(index, words, terms, s.touched, touched, offset, limit));
  } finally {
    clearScores(index, touched);
    for (const w of words) for (const t of w.alternatives) s.queryMark[t.id] = -1;
  }
}
