import type { AnswerSummary } from '../nlweb/index.js';

/** Share of the query's terms the top result must match for the answer to count as a good match. */
export const WEAK_MATCH_COVERAGE = 2 / 3;

/**
 * Whether an answer that found something found it only weakly. Answers do not say so themselves
 * yet, so this reads what they expose: the top result matched fewer than two thirds of the query's
 * distinct terms (a two-word question answered by a page with one of the words; a three-word
 * question with one). BM25 scores are not compared: they do not mean the same across queries.
 * This is the one place to point at an answer's own weak-match signal once it has one.
 */
export function isWeakMatch(summary: AnswerSummary): boolean {
  return (
    summary.resultCount > 0 && summary.topMatchedTermCount < summary.queryTermCount * WEAK_MATCH_COVERAGE
  );
}
