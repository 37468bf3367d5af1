/**
 * The ranking of passages (the index's documents) as an ordered list of named stages, in the way
 * Meilisearch lists its ranking rules. A search (search.ts) plans the query ("query": query.ts,
 * query-terms.ts) and then runs PASSAGE_STAGES in order over one SearchRun; the page stage
 * (page-stage.ts) then turns the passages into pages. The numbers that tune them are in tuning.ts.
 *
 * The stages share the index's scratch arrays (build.ts): "words" and "feedback" score into
 * scratch.acc and list the documents they touch in scratch.touched; search.ts clears both after
 * the last stage, whatever happens.
 */

import type { SearchIndex } from './build.js';
import { accumulateWord } from './accumulate.js';
import { addFeedback } from './feedback.js';
import { rescoreByProximity } from './proximity.js';
import type { QueryWord, WeightedTerm } from './query-terms.js';
import { roundScore, type SearchResult, searchResult } from './results.js';
import { topK } from './top-k.js';

/** One search in progress: what the stages read and what each leaves for the next. */
export interface SearchRun {
  readonly index: SearchIndex;
  readonly words: QueryWord[];
  /** The query words' main terms (what feedback and proximity see of each word). */
  readonly terms: WeightedTerm[];
  /** Only documents marked 1 here may be results (a scope); feedback still reads every document. */
  readonly allow: Uint8Array | undefined;
  readonly offset: number;
  readonly limit: number;
  /** Documents scored so far: scratch.touched[0 … touched). */
  touched: number;
  /** The candidates for the results: candidates[0 … count). */
  candidates: Uint32Array;
  count: number;
  /** How many of the best the proximity stage re-scores (0: it does not run). */
  depth: number;
  /** The best candidates (document numbers) and their scores, in the same order. */
  best: number[];
  scores: number[];
  /** Places in `best`, in final order. */
  order: number[];
  results: SearchResult[];
}

export interface PassageStage {
  readonly name: string;
  readonly run: (search: SearchRun) => void;
}

/** The passage ranking, in the order the stages run. */
export const PASSAGE_STAGES: readonly PassageStage[] = [
  {
    // BM25F, term at a time, with the fields' weights (Meilisearch's "words" and "attribute"); a
    // word's alternatives (exact, completions, corrections: "typo") count by their best.
    name: 'words',
    run(search) {
      const { index, words } = search;
      words.forEach((w, i) => (search.touched = accumulateWord(index, w, i, search.touched)));
    },
  },
  {
    // RM3: the best documents' words become extra query terms, scored into the same accumulator.
    name: 'feedback',
    run(search) {
      const f = search.index.ranking.feedback;
      if (f.enabled && f.docs > 0 && f.terms > 0)
        search.touched = addFeedback(search.index, search.terms, search.touched);
    },
  },
  {
    // The candidates: every document scored, or those the scope allows (in the same order).
    name: 'scope',
    run(search) {
      const s = search.index.core.scratch;
      const allow = search.allow;
      if (allow === undefined) {
        search.candidates = s.touched;
        search.count = search.touched;
        return;
      }
      const kept: number[] = [];
      for (let i = 0; i < search.touched; i++) {
        const d = s.touched[i] as number;
        if (allow[d] === 1) kept.push(d);
      }
      search.candidates = Uint32Array.from(kept);
      search.count = kept.length;
    },
  },
  {
    // The best candidates by a heap (top-k.ts), deep enough for the page asked for and for
    // proximity's depth; their scores rounded (roundScore).
    name: 'top',
    run(search) {
      const { index } = search;
      const s = index.core.scratch;
      const p = index.ranking.proximity;
      search.depth = p.enabled && search.terms.length > 1 ? p.depth : 0;
      const best = topK(
        s,
        s.acc,
        search.candidates,
        search.count,
        Math.max(search.offset + search.limit, search.depth),
      );
      const scores: number[] = new Array<number>(best.length);
      for (let i = 0; i < best.length; i++) scores[i] = roundScore(s.acc[best[i] as number] as number);
      search.best = best;
      search.scores = scores;
    },
  },
  {
    // BM25TP: a bonus for query words close together, on the best `depth` documents only.
    name: 'proximity',
    run(search) {
      const { index } = search;
      if (search.depth > 0 && index.ranking.proximity.weight > 0)
        rescoreByProximity(
          index,
          search.terms,
          search.best,
          search.scores,
          search.depth,
          search.offset + search.limit,
        );
    },
  },
  {
    // Final score descending; ties by document number, which follows key order, so the order
    // never depends on how the index was built or on float noise.
    name: 'order',
    run(search) {
      const { best, scores } = search;
      const order = best.map((_, i) => i);
      order.sort((a, b) => {
        const sa = scores[a] as number;
        const sb = scores[b] as number;
        return sa !== sb ? sb - sa : (best[a] as number) - (best[b] as number);
      });
      search.order = order;
    },
  },
  {
    // The page of results asked for: each document's key, score and matched terms.
    name: 'results',
    run(search) {
      const core = search.index.core;
      const { best, scores, words } = search;
      search.results = search.order
        .slice(search.offset, search.offset + search.limit)
        .map((i) => searchResult(core, words, best[i] as number, scores[i] as number));
    },
  },
];

/**
 * A search to run through PASSAGE_STAGES (`for (const stage of PASSAGE_STAGES) stage.run(search)`),
 * its query words already marked in the scratch arrays.
 */
export function startSearch(
  index: SearchIndex,
  words: QueryWord[],
  terms: WeightedTerm[],
  allow: Uint8Array | undefined,
  offset: number,
  limit: number,
): SearchRun {
  return {
    index,
    words,
    terms,
    allow,
    offset,
    limit,
    touched: 0,
    candidates: index.core.scratch.touched,
    count: 0,
    depth: 0,
    best: [],
    scores: [],
    order: [],
    results: [],
  };
}
