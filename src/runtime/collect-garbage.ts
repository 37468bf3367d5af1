/**
 * Garbage collection on demand, for the two moments memory must come back at once rather than
 * when V8's heuristics next get to it: the server thread after a reload (the old site is garbage),
 * and the generation worker, which built a site, just before it ends.
 *
 * V8 offers a collection only behind --expose-gc; that flag set now takes effect for contexts made
 * afterwards (as jest-leak-detector does it), so the collector is taken from a new context, once
 * per thread.
 */

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Collector = (options?: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

let collector: Collector | null = null;

function gc(): Collector {
  if (collector === null) {
    setFlagsFromString('--expose-gc');
    collector = runInNewContext('gc') as Collector;
  }
  return collector;
}

/**
 * Two full collections (a pause of some tens of milliseconds): the first frees the old
 * generation, the second returns the pages and backing stores it emptied (on the docs corpus, RSS
 * 3 s after a reload was 12 MB above its level before with one, at it with two).
 */
export function collectGarbage(): void {
  gc()();
  gc()();
}

/**
 * For a worker thread about to end, its work's references dropped: V8 13 (Node 24) keeps the pages
 * of an ended thread's heap in a pool for 8 s before it returns them (src/heap/page-pool.cc); a
 * last-resort collection first returns the emptied pages at once. A worker that had filled 170 MB:
 * 215 MB resident 3.5 s after it ended, 67 MB with this; the docs corpus's cold start, 246–251 MB
 * 3 s after its first answer, 192–200 MB with this. Node 20 returns them when the thread ends, and
 * takes this as one full collection. (The parse workers are left to end as they are: the same in
 * them cost the cold start 0.3–0.5 s on two contended cores, for a few MB.)
 */
export function releaseHeapBeforeExit(): void {
  gc()({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}
