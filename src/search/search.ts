/**
 * Ranking: BM25F, then (optionally) RM3 pseudo-relevance feedback, then (optionally) a term-pair
 * proximity bonus on the best documents. Synchronous and deterministic: ties are broken by key,
 * scores are rounded to 6 decimals before ordering.
 */

import type { IndexCore, Scratch, SearchIndex } from './build.js';
import { MAX_PROXIMITY_TERMS } from './build.js';
import { planQuery, type QueryCorrection, type QueryPlan } from './query.js';

// A local copy of build.ts's FIELD_COUNT: hot loops read it, and a module-local constant is cheaper
// than an imported binding under some loaders (tsx compiles imports to getters).
const NF = 3;

export interface SearchOptions {
  /** Results wanted (default 10). */
  limit?: number;
  /** Results skipped (default 0). */
  offset?: number;
  /** Match the last word as a prefix when the text ends inside it (default true). */
  prefix?: boolean;
  /** Correct misspelt words and split run-together ones (default true). */
  typos?: boolean;
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

export interface SearchResult {
  key: string;
  /** Rounded to 6 decimals. */
  score: number;
  /** The query's index terms (stemmed) found in this document, in query order. */
  matchedTerms: string[];
}

/** Queries are cut to this many distinct terms (a 1000-character query has fewer). */
export const MAX_QUERY_TERMS = 256;

export function roundScore(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

/** Lucene's BM25 idf, always positive. */
function idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

interface WeightedTerm {
  id: number;
  term: string;
  weight: number;
  idf: number;
}

/** Accumulates weight · idf · BM25F(t, d) into scratch.acc for every document with term t. */
function accumulate(index: SearchIndex, t: WeightedTerm, touchedCount: number): number {
  const c = index.core;
  const { acc, touched } = c.scratch;
  const postDoc = c.postDoc;
  const postWeight = index.postWeight;
  const scale = t.weight * t.idf;
  const end = c.postStart[t.id + 1] as number;
  for (let p = c.postStart[t.id] as number; p < end; p++) {
    const w = postWeight[p] as number;
    if (w === 0) continue;
    const d = postDoc[p] as number;
    const prev = acc[d] as number;
    // Branch-free: whether d is new is unpredictable, and a mispredicted branch per new document
    // cost more than this store.
    touched[touchedCount] = d;
    touchedCount += +(prev === 0);
    acc[d] = prev + scale * w;
  }
  return touchedCount;
}

/**
 * `accumulate` for the query's own i-th term, also setting bit i of scratch.present[d] (for
 * i < MAX_PROXIMITY_TERMS) in every document that has the term, so that proximity can skip
 * documents with fewer than two query terms without reading them.
 */
function accumulateQueryTerm(index: SearchIndex, t: WeightedTerm, i: number, touchedCount: number): number {
  if (i >= MAX_PROXIMITY_TERMS) return accumulate(index, t, touchedCount);
  const c = index.core;
  const { acc, touched, present } = c.scratch;
  const postDoc = c.postDoc;
  const postWeight = index.postWeight;
  const scale = t.weight * t.idf;
  const bit = 1 << i;
  const end = c.postStart[t.id + 1] as number;
  for (let p = c.postStart[t.id] as number; p < end; p++) {
    const d = postDoc[p] as number;
    // Set even for a zero weight: a bit too many only costs a proximity scan, one too few would skip one.
    present[d] = (present[d] as number) | bit;
    const w = postWeight[p] as number;
    if (w === 0) continue;
    const prev = acc[d] as number;
    touched[touchedCount] = d;
    touchedCount += +(prev === 0);
    acc[d] = prev + scale * w;
  }
  return touchedCount;
}

/**
 * Places `id` at the root of the min-heap `heap[0 … n)` (ordered by value asc, then id desc, so the
 * root is the weakest) and moves it down to where it belongs.
 */
function siftDown(heap: Uint32Array, values: Float64Array, n: number, id: number): void {
  const v = values[id] as number;
  let j = 0;
  for (;;) {
    const l = 2 * j + 1;
    if (l >= n) break;
    let m = l;
    let mId = heap[l] as number;
    let mv = values[mId] as number;
    const r = l + 1;
    if (r < n) {
      const rId = heap[r] as number;
      const rv2 = values[rId] as number;
      if (rv2 < mv || (rv2 === mv && rId > mId)) {
        m = r;
        mId = rId;
        mv = rv2;
      }
    }
    if (mv < v || (mv === v && mId > id)) {
      heap[j] = mId;
      j = m;
    } else break;
  }
  heap[j] = id;
}

/**
 * The best `k` of `ids[0 … count)` by (value desc, id asc), best first. Used for documents (ids =
 * document numbers, which follow key order, so this is also the key tie-break) and for feedback
 * terms. A binary min-heap of the kept ids: the root is the weakest.
 */
function topK(scratch: Scratch, values: Float64Array, ids: Uint32Array, count: number, k: number): number[] {
  if (k <= 0 || count === 0) return [];
  const size = Math.min(k, count);
  if (scratch.heap.length < size) scratch.heap = new Uint32Array(Math.max(size, 2 * scratch.heap.length));
  const heap = scratch.heap;
  let n = 0;
  let i = 0;
  // Fill the heap with the first `size` ids, sifting each up past stronger parents.
  for (; i < count && n < size; i++) {
    const id = ids[i] as number;
    const v = values[id] as number;
    let j = n++;
    while (j > 0) {
      const parent = (j - 1) >> 1;
      const p = heap[parent] as number;
      const pv = values[p] as number;
      if (pv > v || (pv === v && p < id)) {
        heap[j] = p;
        j = parent;
      } else break;
    }
    heap[j] = id;
  }
  // Then each further id replaces the root (the weakest kept) when it beats it. The root and its
  // value stay in locals: most ids are rejected by this one comparison.
  let root = heap[0] as number;
  let rootValue = values[root] as number;
  for (; i < count; i++) {
    const id = ids[i] as number;
    const v = values[id] as number;
    if (v < rootValue || (v === rootValue && id > root)) continue;
    siftDown(heap, values, n, id);
    root = heap[0] as number;
    rootValue = values[root] as number;
  }
  // Pop the weakest repeatedly, filling the output from the back: best first.
  const out = new Array<number>(n);
  while (n > 0) {
    out[n - 1] = heap[0] as number;
    const id = heap[--n] as number;
    siftDown(heap, values, n, id);
  }
  return out;
}

/** One query word's alternatives as weighted terms (see query.ts), strongest first. */
interface QueryWord {
  /** The first alternative (the exact term when the index has it): proximity's and feedback's view of the word. */
  main: WeightedTerm;
  alternatives: WeightedTerm[];
}

function weightedWords(core: IndexCore, plan: QueryPlan): QueryWord[] {
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

/**
 * A word with several alternatives: each document scores its best alternative (a document with
 * "protocol" and "protocols" is not counted twice for "protoc"), and bit i of present is set.
 */
function accumulateWord(index: SearchIndex, word: QueryWord, i: number, touchedCount: number): number {
  if (word.alternatives.length === 1 && word.main === word.alternatives[0])
    return accumulateQueryTerm(index, word.main, i, touchedCount);
  const c = index.core;
  const { acc, touched, present, groupAcc, groupTouched } = c.scratch;
  const postDoc = c.postDoc;
  const postWeight = index.postWeight;
  const bit = i < MAX_PROXIMITY_TERMS ? 1 << i : 0;
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

/**
 * RM3: the feedback documents' term distributions P(t|D) = tf/|D|, weighted by P(D|Q), give
 * expansion terms; the final query is (1 − λ)·feedback + λ·original, scaled so that original
 * terms keep their weight. Returns the weight to add per term (original or new).
 *
 * P(D|Q) ∝ exp(score): RM1 weights a document by its query likelihood, which is exponential in a
 * log-scale score, and BM25 is such a score (a sum of log-odds weights). Compared with weights
 * proportional to the raw BM25 score (flat over the top documents), this follows the first pass's
 * confidence: a clear best match dominates the feedback, a tie spreads it. It has no parameter.
 */
function feedbackTerms(index: SearchIndex, fbDocs: number[], terms: WeightedTerm[]): WeightedTerm[] {
  const c = index.core;
  const { docs, maxDocFrequency } = index.ranking.feedback;
  const lambda = index.ranking.feedback.originalWeight;
  if (fbDocs.length === 0 || lambda >= 1) return [];
  const s = c.scratch;
  if (!s.fbAcc || s.fbAcc.length !== c.termCount) {
    s.fbAcc = new Float64Array(c.termCount);
    // One spare slot: the branch-free append writes before it knows whether to count.
    s.fbTouched = new Uint32Array(c.termCount + 1);
  }
  const fbAcc = s.fbAcc;
  const fbTouched = s.fbTouched as Uint32Array;
  let nTouched = 0;
  const used = fbDocs.slice(0, docs);
  const top = s.acc[used[0] as number] as number;
  const linear = index.ranking.feedback.docWeighting === 'linear';
  const docWeight = used.map((d) => (linear ? (s.acc[d] as number) : Math.exp((s.acc[d] as number) - top)));
  let total = 0;
  for (const w of docWeight) total += w;
  const words = c.words;
  for (let u = 0; u < used.length; u++) {
    const d = used[u] as number;
    const len =
      (c.fieldLen[d * NF] as number) +
      (c.fieldLen[d * NF + 1] as number) +
      (c.fieldLen[d * NF + 2] as number);
    const pd = (docWeight[u] as number) / total;
    // A document with under 0.1% of the feedback mass cannot move the term weights much.
    if (len === 0 || pd < 1e-3) continue;
    const w = pd / len;
    const to = c.wordStart[d * NF + NF] as number;
    for (let i = c.wordStart[d * NF] as number; i < to; i++) {
      const v = words[i] as number;
      const prev = fbAcc[v] as number;
      fbTouched[nTouched] = v; // branch-free, as in accumulate
      nTouched += +(prev === 0);
      fbAcc[v] = prev + w;
    }
  }
  // Candidates: original terms always; new terms if expandable (not a number, not one letter, in
  // two documents or more) and not too common.
  const maxDf = maxDocFrequency * c.docCount;
  const mark = c.scratch.queryMark;
  let nCandidates = 0;
  for (let i = 0; i < nTouched; i++) {
    const t = fbTouched[i] as number;
    if ((mark[t] as number) >= 0 || (c.expandable[t] === 1 && (c.df[t] as number) <= maxDf)) {
      fbTouched[nCandidates++] = t;
    } else {
      fbAcc[t] = 0;
    }
  }
  const chosen = topK(s, fbAcc, fbTouched, nCandidates, index.ranking.feedback.terms);
  let sum = 0;
  for (const t of chosen) sum += fbAcc[t] as number;
  const qSum = terms.reduce((a, t) => a + t.weight, 0);
  const out: WeightedTerm[] = [];
  if (sum > 0) {
    const scale = (((1 - lambda) / lambda) * qSum) / sum;
    for (const t of chosen) {
      out.push({
        id: t,
        term: c.terms[t] as string,
        weight: (fbAcc[t] as number) * scale,
        idf: idf(c.docCount, c.df[t] as number),
      });
    }
  }
  for (let i = 0; i < nCandidates; i++) fbAcc[fbTouched[i] as number] = 0;
  return out;
}

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
function proximityBonus(index: SearchIndex, d: number, terms: WeightedTerm[], ctx: ProximityContext): number {
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
 * MAX_PROXIMITY_TERMS terms, by a binary search of the postings for any others.
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
 */
function rescoreByProximity(
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
      if (!skip) scores[i] = roundScore(first + weight * proximityBonus(index, d, terms, ctx));
    }
    keepBest(kept, scores[i] as number, wanted);
  }
}

/** Keeps the `k` largest values seen in the min-heap `heap` (its root is the k-th largest). */
function keepBest(heap: number[], v: number, k: number): void {
  if (heap.length < k) {
    let j = heap.length;
    heap.push(v);
    while (j > 0) {
      const parent = (j - 1) >> 1;
      if ((heap[parent] as number) <= v) break;
      heap[j] = heap[parent] as number;
      j = parent;
    }
    heap[j] = v;
    return;
  }
  if (v <= (heap[0] as number)) return;
  let j = 0;
  for (;;) {
    const l = 2 * j + 1;
    if (l >= k) break;
    const r = l + 1;
    const m = r < k && (heap[r] as number) < (heap[l] as number) ? r : l;
    if ((heap[m] as number) >= v) break;
    heap[j] = heap[m] as number;
    j = m;
  }
  heap[j] = v;
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
  const plan = planQuery(c, queryText, {
    dropQuestionWords: r.dropQuestionWords,
    prefix: options.prefix ?? true,
    typos: options.typos ?? true,
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
    words.forEach((w, i) => (touched = accumulateWord(index, w, i, touched)));

    if (r.feedback.enabled && r.feedback.docs > 0 && r.feedback.terms > 0) {
      const candidates = topK(s, s.acc, s.touched, touched, r.feedback.docs * 3);
      const fbDocs = distinctTexts(c, candidates, r.feedback.docs);
      for (const t of feedbackTerms(index, fbDocs, terms)) touched = accumulate(index, t, touched);
    }

    let candidates = touched;
    if (options.allow) {
      // Keep the allowed documents at the front of the candidates (touched keeps them all for clean-up).
      const allow = options.allow;
      const kept: number[] = [];
      for (let i = 0; i < touched; i++) {
        const d = s.touched[i] as number;
        if (allow[d] === 1) kept.push(d);
      }
      candidates = kept.length;
      const scratchIds = Uint32Array.from(kept);
      return outcome(rank(index, words, terms, scratchIds, candidates, offset, limit));
    }
    return outcome(rank(index, words, terms, s.touched, candidates, offset, limit));
  } finally {
    if (touched * 8 > c.docCount) {
      // A large share of the documents: clearing the arrays in one sweep is cheaper than one by one.
      s.acc.fill(0);
      s.present.fill(0);
    } else {
      for (let i = 0; i < touched; i++) {
        const d = s.touched[i] as number;
        s.acc[d] = 0;
        s.present[d] = 0;
      }
    }
    for (const w of words) for (const t of w.alternatives) s.queryMark[t.id] = -1;
  }
}

/**
 * The first `k` of the feedback candidates whose text is not a copy of an earlier one's: a page
 * copied in several versions must not pull the feedback towards itself several times over.
 */
function distinctTexts(core: IndexCore, docs: number[], k: number): number[] {
  const seen = new Set<number>();
  const out: number[] = [];
  for (const d of docs) {
    const copy = core.docCopyOf[d] as number;
    if (seen.has(copy)) continue;
    seen.add(copy);
    out.push(d);
    if (out.length === k) break;
  }
  return out;
}

function rank(
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
  return order.slice(offset, wanted).map((i) => {
    const d = best[i] as number;
    return {
      key: c.keys[d] as string,
      score: scores[i] as number,
      matchedTerms: matchedTerms(c, words, d),
    };
  });
}
