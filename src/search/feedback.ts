/**
 * The "feedback" stage of a search (stages.ts; optional): RM3 pseudo-relevance feedback.
 *
 * The first pass's best documents are taken to be relevant, and the words they use most become
 * extra query terms: a query for "heat transfer" learns "boundary layer" from the papers it found.
 * The expansion terms are then scored like any other (accumulate.ts) into the same scores, and the
 * ranking that follows sees both.
 */

import type { IndexCore, SearchIndex } from './build.js';
import { accumulateTerm } from './accumulate.js';
import { idf, type WeightedTerm } from './query-terms.js';
import { topK } from './top-k.js';

// A local copy of build.ts's FIELD_COUNT: hot loops read it, and a module-local constant is cheaper
// than an imported binding under some loaders (tsx compiles imports to getters).
const NF = 3;

/**
 * Adds the expansion terms' scores to the first pass's (scratch.acc) and returns the new count of
 * touched documents. The feedback documents are the first pass's best distinct texts, chosen from
 * three times as many of the best documents; `terms` are the query words' main terms.
 */
export function addFeedback(index: SearchIndex, terms: WeightedTerm[], touchedCount: number): number {
  const s = index.core.scratch;
  const { docs, shortQueryWords, shortQueryLift } = index.ranking.feedback;
  const candidates = topK(s, s.acc, s.touched, touchedCount, docs * 3);
  const fbDocs = distinctTexts(index.core, candidates, docs);
  const expansion = feedbackTerms(index, fbDocs, terms);
  if (expansion.length === 0) return touchedCount;
  const short = terms.length <= shortQueryWords;
  const firstPassCount = touchedCount;
  // The first pass's scores, kept for the short query's cap in groupAcc: a per-document array that
  // is all zero between words (accumulateWord), so no array is allocated per search.
  if (short)
    for (let i = 0; i < firstPassCount; i++) {
      const d = s.touched[i] as number;
      s.groupAcc[d] = s.acc[d] as number;
    }
  // Presence bit 0: expansion terms are not query words, for proximity nor for matched terms.
  for (const t of expansion) touchedCount = accumulateTerm(index, t, 0, touchedCount);
  if (!short) return touchedCount;
  return capShortQueryLift(index, firstPassCount, touchedCount, shortQueryLift);
}

/**
 * A short query's feedback (see FeedbackParams.shortQueryWords): each document the first pass
 * scored keeps at most (1 + lift) times its first-pass score (held in scratch.groupAcc, cleared
 * here), and the documents only feedback scored are dropped: with one or two words, the terms
 * drawn from a few documents would otherwise outweigh what the query names. Returns the touched
 * count of the first pass.
 */
function capShortQueryLift(
  index: SearchIndex,
  firstPassCount: number,
  touchedCount: number,
  lift: number,
): number {
  const { acc, touched, groupAcc } = index.core.scratch;
  for (let i = 0; i < firstPassCount; i++) {
    const d = touched[i] as number;
    const most = (groupAcc[d] as number) * (1 + lift);
    if ((acc[d] as number) > most) acc[d] = most;
    groupAcc[d] = 0;
  }
  // Expansion terms set no presence bits, so a score is all these documents hold.
  for (let i = firstPassCount; i < touchedCount; i++) acc[touched[i] as number] = 0;
  return firstPassCount;
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

/**
 * RM3: the feedback documents' term distributions P(t|D) = tf/|D|, weighted by P(D|Q), give
 * expansion terms; the final query is (1 − λ)·feedback + λ·original, scaled so that original
 * terms keep their weight. Returns the weight to add per term (original or new).
 *
 * P(D|Q) ∝ exp(score): RM1 weights a document by its query likelihood, which is exponential in a
 * log-scale score, and BM25 is such a score (a sum of log-odds weights). Compared with weights
 * proportional to the raw BM25 score (flat over the top documents), this follows the first pass's
 * confidence: a clear best match dominates the feedback, a tie spreads it. It has no parameter.
 *
 * Query terms must be marked in scratch.queryMark (they are always candidates).
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
      fbTouched[nTouched] = v; // branch-free, as in accumulateTerm
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
