import type { AnswerSummary } from '../nlweb/index.js';

/**
 * Whether an answer that found something found it only weakly: the answer's own signal (its text
 * says so when its best page matches at most half of the query's words, weighted; see
 * WEAK_COVERAGE in src/nlweb/service.ts), so the owner's report and the visitor see the same verdict.
 */
export function isWeakMatch(summary: AnswerSummary): boolean {
  return summary.resultCount > 0 && summary.weak;
}
