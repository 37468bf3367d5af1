/**
 * Searching an index: the entry point. Synchronous and deterministic.
 *
 * The query is planned first (query.ts, query-terms.ts: each word's index terms, exact, prefix
 * completions, typo corrections and joined forms, with a weight and an idf); then the passage
 * stages run in order (stages.ts: words, feedback, scope, top, proximity, order, results). The
 * ask service's page stage (page-stage.ts) groups the results by page.
 *
 * The stages share the index's scratch arrays (build.ts), so a search allocates little; this file
 * marks the query terms in them before the stages and clears what they touched afterwards.
 */

import type { SearchIndex } from './build.js';
import { clearScores } from './accumulate.js';
import { planQuery, type QueryCorrection } from './query.js';
import { weightedWords } from './query-terms.js';
import type { SearchResult } from './results.js';
import { PASSAGE_STAGES, startSearch } from './stages.js';

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
  // The query stage: what each word matches.
  const plan = planQuery(c, queryText, {
    dropQuestionWords: index.ranking.dropQuestionWords,
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
  const run = startSearch(index, words, terms, options.allow, offset, limit);
  // Mark every alternative with its word's index in the query, for feedback and proximity.
  words.forEach((w, i) => {
    for (const t of w.alternatives) s.queryMark[t.id] = i;
  });
  try {
    for (const stage of PASSAGE_STAGES) stage.run(run);
    return outcome(run.results);
  } finally {
    clearScores(index, run.touched);
    for (const w of words) for (const t of w.alternatives) s.queryMark[t.id] = -1;
  }
}
