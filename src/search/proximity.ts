/**
 * The "proximity" stage of a search (stages.ts; optional): a bonus for query words that stand
 * close together.
 *
 * BM25 scores each word on its own, so "cross-site request forgery" ranks a page that mentions
 * "request" in one section and "forgery" in another as high as one that names the attack. This
 * stage rescans the best documents' words (the forward index, `words` by field) and adds a bonus
 * per pair of query words found near each other. It is the costliest stage per document, so it
 * runs on the first pass's best `depth` documents only, and skips any that cannot reach the
 * results even with the largest bonus they could get.
 */

import type { SearchIndex } from './build.js';
import { MAX_PROXIMITY_TERMS } from './build.js';
import type { WeightedTerm } from './query-terms.js';
import { roundScore } from './results.js';
import { keepBest } from './top-k.js';

// A local copy of build.ts's FIELD_COUNT: hot loops read it, and a module-local constant is cheaper
// than an imported binding under some loaders (tsx compiles imports to getters).
const NF = 3;

/** Per-query working space for the proximity bonus. */
interface ProximityContext {
  q: number;
  window: number;
  adjacentOnly: boolean;
  /** min(w_i·idf_i, w_j·idf_j) · (k1 + 1) for i < j, at i·q + j. */
  pairWeight: Float64Array;
  pair: Float64Array;
  /** Per query term i: bit j set when pair (i, j) has occurred in the current document. */
  pairRows: Int32Array;
  /** The last `window` query-term occurrences: positions and query indexes (a ring). */
  ringPos: Int32Array;
  ringTerm: Int32Array;
  /** Sum of the fields' average lengths. */
  avgLen: number;
}

function proximityContext(index: SearchIndex, terms: WeightedTerm[]): ProximityContext {
  const q = Math.min(terms.length, MAX_PROXIMITY_TERMS);
  const s = index.core.scratch;
  const pairWeight = s.pairWeight;
  const k1 = index.ranking.k1;
  for (let i = 0; i < q; i++) {
    const ti = terms[i] as WeightedTerm;
    for (let j = i + 1; j < q; j++) {
      const tj = terms[j] as WeightedTerm;
      pairWeight[i * q + j] = Math.min(ti.weight * ti.idf, tj.weight * tj.idf) * (k1 + 1);
    }
  }
  const a = index.core.avgFieldLen;
  const window = Math.max(1, index.ranking.proximity.window);
  if (s.ringPos.length < window) {
    s.ringPos = new Int32Array(window);
    s.ringTerm = new Int32Array(window);
  }
  return {
    q,
    window,
    adjacentOnly: index.ranking.proximity.pairs === 'adjacent',
    pairWeight,
    pair: s.pair,
    pairRows: s.pairRows,
    ringPos: s.ringPos,
    ringTerm: s.ringTerm,
    avgLen: (a[0] as number) + (a[1] as number) + (a[2] as number),
  };
}

/**
 * BM25TP proximity (Rasolofo & Savoy 2003): for each pair of distinct query terms, acc = Σ 1/dist²
 * over every pair of their occurrences at most `window` indexed words apart in the same field; the
 * pair adds min(w_i·idf_i, w_j·idf_j) · (k1+1)·acc / (K + acc), with K the BM25 length factor of
 * the whole document. Query terms must be marked in scratch.queryMark.
 */
function proximityBonus(index: SearchIndex, d: number, ctx: ProximityContext): number {
  const c = index.core;
  const { q, window, adjacentOnly, pair, pairRows, pairWeight, ringPos, ringTerm } = ctx;
  const mark = c.scratch.queryMark;
  const words = c.words;
  const wordStart = c.wordStart;
  let any = false;
  // The last `window` occurrences of query terms, newest at head − 1. A word's position is its
  // place in `words` plus a gap wider than the window per field before it, so fields never pair.
  let head = 0;
  let filled = 0;
  for (let f = 0; f < NF; f++) {
    const to = wordStart[d * NF + f + 1] as number;
    const gap = f * (window + 1);
    for (let i = wordStart[d * NF + f] as number; i < to; i++) {
      const qi = mark[words[i] as number] as number;
      if (qi >= 0 && qi < q) {
        const pos = i + gap;
        let slot = head;
        for (let k = 0; k < filled; k++) {
          slot = slot === 0 ? window - 1 : slot - 1;
          const dist = pos - (ringPos[slot] as number);
          if (dist > window) break;
          const qj = ringTerm[slot] as number;
          if (qj === qi || (adjacentOnly && qj !== qi - 1 && qj !== qi + 1)) continue;
          const lo = qi < qj ? qi : qj;
          const hi = qi < qj ? qj : qi;
          const row = pairRows[lo] as number;
          const bit = 1 << hi;
          // The pair's first occurrence starts its sum (no array to clear per document).
          pair[lo * q + hi] = ((row & bit) !== 0 ? (pair[lo * q + hi] as number) : 0) + 1 / (dist * dist);
          pairRows[lo] = row | bit;
          any = true;
        }
        ringPos[head] = pos;
        ringTerm[head] = qi;
        head = head === window - 1 ? 0 : head + 1;
        if (filled < window) filled++;
      }
    }
  }
  if (!any) return 0;
  const docLen =
    (c.fieldLen[d * NF] as number) + (c.fieldLen[d * NF + 1] as number) + (c.fieldLen[d * NF + 2] as number);
  const b = index.ranking.fields.body.b;
  const K = index.ranking.k1 * (1 - b + (ctx.avgLen > 0 ? (b * docLen) / ctx.avgLen : 0));
  let bonus = 0;
  // The pairs that occurred, in (i, j) order, clearing their bits for the next document.
  for (let i = 0; i < q; i++) {
    let row = pairRows[i] as number;
    if (row === 0) continue;
    pairRows[i] = 0;
    while (row !== 0) {
      const j = 31 - Math.clz32(row & -row);
      row &= row - 1;
      const a = pair[i * q + j] as number;
      bonus += ((pairWeight[i * q + j] as number) * a) / (K + a);
    }
  }
  return bonus;
}

/**
 * The most the proximity bonus can add to document d: each pair of query terms that d contains
 * adds weight · pairWeight · acc / (K + acc) < weight · pairWeight.
 */
function proximityCeiling(ctx: ProximityContext, bits: number, weight: number): number {
  const { q, pairWeight } = ctx;
  let sum = 0;
  for (let i = 0; i < q; i++) {
    if ((bits & (1 << i)) === 0) continue;
    for (let j = i + 1; j < q; j++) if ((bits & (1 << j)) !== 0) sum += pairWeight[i * q + j] as number;
  }
  return weight * sum;
}

/**
 * Adds the proximity bonus to the first `depth` of `best` (in first-pass order, so by score desc)
 * and rounds their scores into `scores`. Only the best `wanted` are returned, so a document whose
 * score plus its bonus ceiling stays below the wanted-th best final score found so far cannot be
 * returned and is not scanned: the answer is the same as with every document scanned.
 * `terms` are the query words' main terms, marked in scratch.queryMark.
 */
export function rescoreByProximity(
  index: SearchIndex,
  terms: WeightedTerm[],
  best: number[],
  scores: number[],
  depth: number,
  wanted: number,
): void {
  const s = index.core.scratch;
  const weight = index.ranking.proximity.weight;
  const ctx = proximityContext(index, terms);
  // The wanted-th best final score so far: a min-heap of the best `wanted` final scores.
  const kept: number[] = [];
  const n = Math.min(depth, best.length);
  for (let i = 0; i < n; i++) {
    const d = best[i] as number;
    const first = s.acc[d] as number;
    const bits = s.present[d] as number;
    // Fewer than two query terms in d: no pair, no bonus.
    if ((bits & (bits - 1)) !== 0) {
      // A margin well above rounding and float error keeps the skip on the safe side of a tie.
      const skip =
        kept.length === wanted && first + proximityCeiling(ctx, bits, weight) + 1e-5 < (kept[0] as number);
      if (!skip) scores[i] = roundScore(first + weight * proximityBonus(index, d, ctx));
    }
    keepBest(kept, scores[i] as number, wanted);
  }
}
