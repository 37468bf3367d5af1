/**
 * The "query" stage of a search: from the query plan to weighted terms.
 *
 * `planQuery` (query.ts) has already analysed the text and found, for each query word, the index
 * terms that count for it (the exact term, prefix completions, typo corrections, joined forms),
 * each with a factor. Here each of those alternatives gets the two numbers the scoring stages
 * multiply every posting by: its weight in the query (the word's weight · the alternative's
 * factor) and its idf. A word's first alternative is its `main` term: the one feedback and
 * proximity see.
 */

import type { IndexCore } from './build.js';
import type { QueryPlan } from './query.js';
import { MAX_QUERY_TERMS } from './tuning.js';

/** An index term with the numbers the scoring stages need: its weight in the query and its idf. */
export interface WeightedTerm {
  id: number;
  term: string;
  weight: number;
  idf: number;
}

/** One query word's alternatives as weighted terms (see query.ts), strongest first. */
export interface QueryWord {
  /** The first alternative (the exact term when the index has it): proximity's and feedback's view of the word. */
  main: WeightedTerm;
  alternatives: WeightedTerm[];
}

/**
 * Lucene's BM25 idf, always positive: a term in every document still counts a little, so a query
 * of common words ranks by how often they occur rather than not at all.
 */
export function idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/**
 * The plan's words as weighted terms, at most MAX_QUERY_TERMS of them. An alternative's idf may
 * come from elsewhere (see PlannedAlternative): a joined form takes its parts' (`idfOf`), a
 * word's completions share the whole prefix's (`idfDf`), so that rarity alone does not rank them.
 */
export function weightedWords(core: IndexCore, plan: QueryPlan): QueryWord[] {
  const out: QueryWord[] = [];
  for (const w of plan.words) {
    if (out.length >= MAX_QUERY_TERMS) break;
    const alternatives = w.alternatives.map((a) => ({
      id: a.id,
      term: a.term,
      weight: w.weight * a.factor,
      idf: idf(core.docCount, a.idfDf ?? (core.df[a.idfOf ?? a.id] as number)),
    }));
    out.push({ main: alternatives[0] as WeightedTerm, alternatives });
  }
  return out;
}
