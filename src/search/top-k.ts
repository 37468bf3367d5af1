/**
 * Selecting the best few of many without sorting them all: binary heaps over typed arrays.
 *
 * Every stage that keeps "the best k" uses these: the first pass's best documents (for feedback
 * and for ranking), feedback's best expansion terms, and the proximity stage's running k-th best
 * final score. Ties are part of the order, not left to chance: ids are document numbers (which
 * follow key order) or term numbers, and the lower id wins a tie, so the result is deterministic.
 */

import type { Scratch } from './build.js';

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
export function topK(
  scratch: Scratch,
  values: Float64Array,
  ids: Uint32Array,
  count: number,
  k: number,
): number[] {
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

/** Keeps the `k` largest values seen in the min-heap `heap` (its root is the k-th largest). */
export function keepBest(heap: number[], v: number, k: number): void {
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
