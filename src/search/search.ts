/**
 * Ranking: BM25F, then (optionally) RM3 pseudo-relevance feedback, then (optionally) a term-pair
 * proximity bonus on the best documents. Synchronous and deterministic: ties are broken by key,
 * scores are rounded to 6 decimals before ordering.
 */

import type { QueryTerm } from './analyzer.js';
import { analyzeQuery } from './analyzer.js';
import type { IndexCore, SearchIndex } from './build.js';
import { FIELD_COUNT, JOINED_FLAG } from './build.js';

export interface SearchOptions {
  /** Results wanted (default 10). */
  limit?: number;
  /** Results skipped (default 0). */
  offset?: number;
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
/** Proximity considers at most this many distinct query terms (the first ones). */
const MAX_PROXIMITY_TERMS = 32;

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

/** Accumulates weight · BM25F(t, d) into scratch.acc for every document with term t. */
function accumulate(index: SearchIndex, t: WeightedTerm, touchedCount: number): number {
  const c = index.core;
  const { acc, touched } = c.scratch;
  const { postDoc, postTf } = c;
  const norms = index.norms;
  const k1 = index.ranking.k1;
  const scale = t.weight * t.idf * (k1 + 1);
  const end = c.postStart[t.id + 1] as number;
  for (let p = c.postStart[t.id] as number; p < end; p++) {
    const d = postDoc[p] as number;
    const o = d * 3;
    const q = p * 3;
    const tf =
      (postTf[q] as number) * (norms[o] as number) +
      (postTf[q + 1] as number) * (norms[o + 1] as number) +
      (postTf[q + 2] as number) * (norms[o + 2] as number);
    if (tf <= 0) continue;
    const prev = acc[d] as number;
    if (prev === 0) touched[touchedCount++] = d;
    acc[d] = prev + (scale * tf) / (k1 + tf);
  }
  return touchedCount;
}

/**
 * The best `k` documents among the touched ones, by (score desc, document number asc). Document
 * numbers follow key order, so this is also the key tie-break.
 */
function topK(acc: Float64Array, touched: Uint32Array, touchedCount: number, k: number): number[] {
  if (k <= 0 || touchedCount === 0) return [];
  // A min-heap of the best k: the root is the weakest kept document.
  const heap: number[] = [];
  const worse = (a: number, b: number): boolean => {
    const sa = acc[a] as number;
    const sb = acc[b] as number;
    return sa < sb || (sa === sb && a > b);
  };
  const siftDown = (i: number): void => {
    const len = heap.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < len && worse(heap[l] as number, heap[m] as number)) m = l;
      if (r < len && worse(heap[r] as number, heap[m] as number)) m = r;
      if (m === i) return;
      const tmp = heap[i] as number;
      heap[i] = heap[m] as number;
      heap[m] = tmp;
      i = m;
    }
  };
  for (let i = 0; i < touchedCount; i++) {
    const d = touched[i] as number;
    if (heap.length < k) {
      heap.push(d);
      let j = heap.length - 1;
      while (j > 0) {
        const parent = (j - 1) >> 1;
        if (!worse(heap[j] as number, heap[parent] as number)) break;
        const tmp = heap[j] as number;
        heap[j] = heap[parent] as number;
        heap[parent] = tmp;
        j = parent;
      }
    } else if (worse(heap[0] as number, d)) {
      heap[0] = d;
      siftDown(0);
    }
  }
  return heap.sort((a, b) => {
    const sa = acc[a] as number;
    const sb = acc[b] as number;
    return sa !== sb ? sb - sa : a - b;
  });
}

function lookupTerms(core: IndexCore, query: QueryTerm[]): WeightedTerm[] {
  const out: WeightedTerm[] = [];
  for (const q of query) {
    if (out.length >= MAX_QUERY_TERMS) break;
    const id = core.termIds.get(q.term);
    if (id === undefined) continue;
    out.push({ id, term: q.term, weight: q.weight, idf: idf(core.docCount, core.df[id] as number) });
  }
  return out;
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
    s.fbTouched = new Uint32Array(c.termCount);
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
  for (let u = 0; u < used.length; u++) {
    const d = used[u] as number;
    const pd = (docWeight[u] as number) / total;
    const from = c.fwdStart[d * FIELD_COUNT] as number;
    const to = c.fwdStart[d * FIELD_COUNT + FIELD_COUNT] as number;
    let len = 0;
    for (let i = from; i < to; i++) if (((c.fwd[i] as number) & JOINED_FLAG) === 0) len++;
    if (len === 0) continue;
    const w = pd / len;
    for (let i = from; i < to; i++) {
      const v = c.fwd[i] as number;
      if ((v & JOINED_FLAG) !== 0) continue;
      if (fbAcc[v] === 0) fbTouched[nTouched++] = v;
      fbAcc[v] = (fbAcc[v] as number) + w;
    }
  }
  // Candidates: original terms always; new terms if not too common, not numbers, not one letter.
  const maxDf = maxDocFrequency * c.docCount;
  const original = new Set(terms.map((t) => t.id));
  const candidates: number[] = [];
  for (let i = 0; i < nTouched; i++) {
    const t = fbTouched[i] as number;
    const term = c.terms[t] as string;
    if (
      original.has(t) ||
      ((c.df[t] as number) <= maxDf && term.length > 1 && !/^[0-9.]+$/.test(term) && (c.df[t] as number) > 1)
    ) {
      candidates.push(t);
    }
  }
  candidates.sort((a, b) => {
    const wa = fbAcc[a] as number;
    const wb = fbAcc[b] as number;
    return wa !== wb ? wb - wa : a - b;
  });
  const chosen = candidates.slice(0, index.ranking.feedback.terms);
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
  for (let i = 0; i < nTouched; i++) fbAcc[fbTouched[i] as number] = 0;
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
  last: Int32Array;
}

function proximityContext(index: SearchIndex, terms: WeightedTerm[]): ProximityContext {
  const q = Math.min(terms.length, MAX_PROXIMITY_TERMS);
  const pairWeight = new Float64Array(q * q);
  const k1 = index.ranking.k1;
  for (let i = 0; i < q; i++) {
    const ti = terms[i] as WeightedTerm;
    for (let j = i + 1; j < q; j++) {
      const tj = terms[j] as WeightedTerm;
      pairWeight[i * q + j] = Math.min(ti.weight * ti.idf, tj.weight * tj.idf) * (k1 + 1);
    }
  }
  return {
    q,
    window: index.ranking.proximity.window,
    adjacentOnly: index.ranking.proximity.pairs === 'adjacent',
    pairWeight,
    pair: new Float64Array(q * q),
    last: new Int32Array(q),
  };
}

/**
 * BM25TP proximity: for each pair of distinct query terms, acc = Σ 1/dist² over occurrences at
 * most `window` words apart in the same field (each occurrence paired with the latest occurrence
 * of the other term); the pair adds min(w_i·idf_i, w_j·idf_j) · (k1+1)·acc / (K + acc), with K the
 * BM25 length factor of the whole document. Query terms must be marked in scratch.queryMark.
 */
function proximityBonus(index: SearchIndex, d: number, terms: WeightedTerm[], ctx: ProximityContext): number {
  const c = index.core;
  const { q, window, adjacentOnly, pair, last, pairWeight } = ctx;
  // Only documents with two or more of the query terms can have a pair.
  let present = 0;
  for (let i = 0; i < q && present < 2; i++) if (containsDoc(c, (terms[i] as WeightedTerm).id, d)) present++;
  if (present < 2) return 0;
  const mark = c.scratch.queryMark;
  const fwd = c.fwd;
  pair.fill(0);
  let any = false;
  let docLen = 0;
  let avgLen = 0;
  for (let f = 0; f < FIELD_COUNT; f++) {
    docLen += c.fieldLen[d * FIELD_COUNT + f] as number;
    avgLen += c.avgFieldLen[f] as number;
    last.fill(-1_000_000);
    const from = c.fwdStart[d * FIELD_COUNT + f] as number;
    const to = c.fwdStart[d * FIELD_COUNT + f + 1] as number;
    let pos = 0;
    for (let i = from; i < to; i++) {
      const v = fwd[i] as number;
      if ((v & JOINED_FLAG) !== 0) continue;
      const qi = mark[v] as number;
      if (qi >= 0 && qi < q) {
        const lo = adjacentOnly ? Math.max(0, qi - 1) : 0;
        const hi = adjacentOnly ? Math.min(q - 1, qi + 1) : q - 1;
        for (let qj = lo; qj <= hi; qj++) {
          if (qj === qi) continue;
          const dist = pos - (last[qj] as number);
          if (dist <= window) {
            const k = qi < qj ? qi * q + qj : qj * q + qi;
            pair[k] = (pair[k] as number) + 1 / (dist * dist);
            any = true;
          }
        }
        last[qi] = pos;
      }
      pos++;
    }
  }
  if (!any) return 0;
  const b = index.ranking.fields.body.b;
  const K = index.ranking.k1 * (1 - b + (avgLen > 0 ? (b * docLen) / avgLen : 0));
  let bonus = 0;
  for (let i = 0; i < q; i++) {
    for (let j = i + 1; j < q; j++) {
      const a = pair[i * q + j] as number;
      if (a !== 0) bonus += ((pairWeight[i * q + j] as number) * a) / (K + a);
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
  const limit = checkCount('limit', options.limit, 10);
  const offset = checkCount('offset', options.offset, 0);
  if (limit === 0 || typeof queryText !== 'string') return [];
  const c = index.core;
  const r = index.ranking;
  const terms = lookupTerms(c, analyzeQuery(queryText, r.dropQuestionWords));
  if (terms.length === 0) return [];

  const s = c.scratch;
  let touched = 0;
  try {
    for (const t of terms) touched = accumulate(index, t, touched);

    if (r.feedback.enabled && r.feedback.docs > 0 && r.feedback.terms > 0) {
      const fbDocs = topK(s.acc, s.touched, touched, r.feedback.docs);
      for (const t of feedbackTerms(index, fbDocs, terms)) touched = accumulate(index, t, touched);
    }

    const wanted = offset + limit;
    const depth = r.proximity.enabled && terms.length > 1 ? r.proximity.depth : 0;
    const best = topK(s.acc, s.touched, touched, Math.max(wanted, depth));
    const scored = best.map((d, i) => ({ d, score: s.acc[d] as number, rerank: i < depth }));
    if (depth > 0) {
      terms.forEach((t, i) => (s.queryMark[t.id] = i));
      try {
        const ctx = proximityContext(index, terms);
        for (const x of scored) {
          if (x.rerank) x.score += r.proximity.weight * proximityBonus(index, x.d, terms, ctx);
        }
      } finally {
        for (const t of terms) s.queryMark[t.id] = -1;
      }
    }
    for (const x of scored) x.score = roundScore(x.score);
    // Document numbers follow key order, so comparing them is the key tie-break.
    scored.sort((a, b) => (a.score !== b.score ? b.score - a.score : a.d - b.d));
    return scored.slice(offset, wanted).map((x) => ({
      key: c.keys[x.d] as string,
      score: x.score,
      matchedTerms: terms.filter((t) => containsDoc(c, t.id, x.d)).map((t) => t.term),
    }));
  } finally {
    for (let i = 0; i < touched; i++) s.acc[s.touched[i] as number] = 0;
  }
}
