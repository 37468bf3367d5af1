/**
 * Stage 5 of a search: the final order, and the page of it that was asked for.
 *
 * The first pass's best documents are picked with a heap (top-k.ts), deep enough for the page
 * asked for and for proximity's `depth`; proximity may then raise some of them; scores are rounded
 * (score.ts) and sorted. Ties are broken by document number, which follows key order (keys.ts),
 * so the order never depends on how the index was built or on float noise.
 */

import type { SearchIndex } from './build.js';
import { rescoreByProximity } from './proximity.js';
import type { QueryWord, WeightedTerm } from './query-terms.js';
import { type SearchResult, searchResult } from './results.js';
import { roundScore } from './score.js';
import { topK } from './top-k.js';

/**
 * Results `offset … offset + limit` of the documents `ids[0 … count)`, by final score desc, then
 * key asc. `terms` are the query words' main terms (for proximity).
 */
export function rank(
  index: SearchIndex,
  words: QueryWord[],
  terms: WeightedTerm[],
  ids: Uint32Array,
  count: number,
  offset: number,
  limit: number,
): SearchResult[] {
  const c = index.core;
  const r = index.ranking;
  const s = c.scratch;
  const wanted = offset + limit;
  const depth = r.proximity.enabled && terms.length > 1 ? r.proximity.depth : 0;
  const best = topK(s, s.acc, ids, count, Math.max(wanted, depth));
  const scores: number[] = new Array<number>(best.length);
  for (let i = 0; i < best.length; i++) scores[i] = roundScore(s.acc[best[i] as number] as number);
  if (depth > 0 && r.proximity.weight > 0) rescoreByProximity(index, terms, best, scores, depth, wanted);
  // Document numbers follow key order, so comparing them is the key tie-break.
  const order = best.map((_, i) => i);
  order.sort((a, b) => {
    const sa = scores[a] as number;
    const sb = scores[b] as number;
    return sa !== sb ? sb - sa : (best[a] as number) - (best[b] as number);
  });
  return order
    .slice(offset, wanted)
    .map((i) => searchResult(c, words, best[i] as number, scores[i] as number));
}
