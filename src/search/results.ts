/**
 * The "results" stage of a search (stages.ts): what a result says. A document's key, its final
 * score, and which of the query's terms it contains (the snippet highlights them; a result found
 * through feedback alone contains none).
 */

import type { IndexCore } from './build.js';
import { MAX_PROXIMITY_TERMS } from './build.js';
import type { QueryWord } from './query-terms.js';

export interface SearchResult {
  key: string;
  /** The document's number: its place in key order (`index.core.keys[doc]` is `key`). */
  doc: number;
  /** Rounded to 6 decimals (roundScore). */
  score: number;
  /** The query's index terms (stemmed) found in this document, in query order. */
  matchedTerms: string[];
}

/**
 * Scores are rounded to 6 decimals before they are compared: float sums that differ only in their
 * last bits (an order of additions, a platform) must not reorder results, and two documents that
 * score the same to 6 decimals are a tie, broken by key.
 */
export function roundScore(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

/** Whether document d has term `termId`: a binary search of the term's postings (by document). */
function containsDoc(core: IndexCore, termId: number, d: number): boolean {
  let lo = core.postStart[termId] as number;
  let hi = (core.postStart[termId + 1] as number) - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = core.postDoc[mid] as number;
    if (v === d) return true;
    if (v < d) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/**
 * The query terms in document d, in query order: from the presence bits for the first
 * MAX_PROXIMITY_TERMS terms, by a binary search of the postings for any others. For a word with
 * several alternatives, every alternative the document has.
 */
function matchedTerms(core: IndexCore, words: QueryWord[], d: number): string[] {
  const bits = core.scratch.present[d] as number;
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as QueryWord;
    if (w.alternatives.length === 1) {
      const t = w.main;
      if (i < MAX_PROXIMITY_TERMS ? (bits & (1 << i)) !== 0 : containsDoc(core, t.id, d)) {
        if (!out.includes(t.term)) out.push(t.term);
      }
      continue;
    }
    if (i < MAX_PROXIMITY_TERMS && (bits & (1 << i)) === 0) continue;
    for (const t of w.alternatives) if (!out.includes(t.term) && containsDoc(core, t.id, d)) out.push(t.term);
  }
  return out;
}

/** Document d's result. Reads scratch.present, so it runs before the search clears it. */
export function searchResult(core: IndexCore, words: QueryWord[], d: number, score: number): SearchResult {
  return { key: core.keys[d] as string, doc: d, score, matchedTerms: matchedTerms(core, words, d) };
}
