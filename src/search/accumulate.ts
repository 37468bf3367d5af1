/**
 * The "words" stage of a search (stages.ts): candidate collection and BM25F scoring, term at a time.
 *
 * The index stores, per posting, the term's saturated BM25F weight in that document for the
 * current ranking (`postWeight`, see build.ts), so scoring a term is one multiply-add per posting:
 * `acc[d] += weight · idf · postWeight[p]`. The documents touched on the way are listed in
 * `scratch.touched`: they are the candidates, and the list is what gets cleared after the search
 * (the scratch arrays are per index, reused by every search).
 *
 * While scoring the query's own words, bit i of `scratch.present[d]` is set for every document
 * that has word i (i < MAX_PROXIMITY_TERMS). Proximity reads it to skip documents with fewer than
 * two query words, and result shaping reads it to list the matched terms without a search.
 */

import type { SearchIndex } from './build.js';
import { MAX_PROXIMITY_TERMS } from './build.js';
import type { QueryWord, WeightedTerm } from './query-terms.js';

/**
 * Adds weight · idf · BM25F(t, d) into scratch.acc for every document d with term t, appends the
 * documents it scores for the first time to scratch.touched, and returns the new count. With a
 * non-zero `presentBit`, also sets that bit in scratch.present for every document with t.
 */
export function accumulateTerm(
  index: SearchIndex,
  t: WeightedTerm,
  presentBit: number,
  touchedCount: number,
): number {
  const c = index.core;
  const { acc, touched, present } = c.scratch;
  const postDoc = c.postDoc;
  const postWeight = index.postWeight;
  const scale = t.weight * t.idf;
  const end = c.postStart[t.id + 1] as number;
  for (let p = c.postStart[t.id] as number; p < end; p++) {
    const d = postDoc[p] as number;
    // Set even for a zero weight: a bit too many only costs a proximity scan, one too few would skip one.
    if (presentBit !== 0) present[d] = (present[d] as number) | presentBit;
    const w = postWeight[p] as number;
    if (w === 0) continue;
    const prev = acc[d] as number;
    // Branch-free: whether d is new is unpredictable, and a mispredicted branch per new document
    // cost more than this store.
    touched[touchedCount] = d;
    touchedCount += +(prev === 0);
    acc[d] = prev + scale * w;
  }
  return touchedCount;
}

/** The presence bit of the query's i-th word: none past MAX_PROXIMITY_TERMS (a 32-bit mask). */
export function presenceBit(i: number): number {
  return i < MAX_PROXIMITY_TERMS ? 1 << i : 0;
}

/**
 * Scores the query's i-th word. A word with several alternatives (a prefix's completions, a
 * correction beside the exact term) counts once per document, by its best alternative there: a
 * document with "protocol" and "protocols" is not counted twice for "protoc". The best is kept in
 * scratch.groupAcc and added to acc when all alternatives are read.
 */
export function accumulateWord(index: SearchIndex, word: QueryWord, i: number, touchedCount: number): number {
  const bit = presenceBit(i);
  if (word.alternatives.length === 1 && word.main === word.alternatives[0])
    return accumulateTerm(index, word.main, bit, touchedCount);
  const c = index.core;
  const { acc, touched, present, groupAcc, groupTouched } = c.scratch;
  const postDoc = c.postDoc;
  const postWeight = index.postWeight;
  let n = 0;
  for (const t of word.alternatives) {
    const scale = t.weight * t.idf;
    const end = c.postStart[t.id + 1] as number;
    for (let p = c.postStart[t.id] as number; p < end; p++) {
      const d = postDoc[p] as number;
      present[d] = (present[d] as number) | bit;
      const v = scale * (postWeight[p] as number);
      const prev = groupAcc[d] as number;
      if (v > prev) {
        // Scores are positive, so a document is listed once: when it first gets one.
        if (prev === 0) groupTouched[n++] = d;
        groupAcc[d] = v;
      }
    }
  }
  for (let k = 0; k < n; k++) {
    const d = groupTouched[k] as number;
    const v = groupAcc[d] as number;
    groupAcc[d] = 0;
    const prev = acc[d] as number;
    touched[touchedCount] = d;
    touchedCount += +(prev === 0);
    acc[d] = prev + v;
  }
  return touchedCount;
}

/** Returns the scores and presence bits of the `touchedCount` touched documents to zero. */
export function clearScores(index: SearchIndex, touchedCount: number): void {
  const c = index.core;
  const s = c.scratch;
  if (touchedCount * 8 > c.docCount) {
    // A large share of the documents: clearing the arrays in one sweep is cheaper than one by one.
    s.acc.fill(0);
    s.present.fill(0);
  } else {
    for (let i = 0; i < touchedCount; i++) {
      const d = s.touched[i] as number;
      s.acc[d] = 0;
      s.present[d] = 0;
    }
  }
}
