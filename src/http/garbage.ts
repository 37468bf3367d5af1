/**
 * How the server keeps its heap small. Garbage collection on demand, for the two moments memory
 * must come back at once rather than when V8's heuristics next get to it: the server thread after
 * a reload (the old site is garbage), and the generation worker, which built a site, just before
 * it ends. And, where V8 has it, its memory saver mode for the whole process.
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

/** Set by useMemorySaverMode; then on whenever no site is being built. */
let memorySaverWanted = false;
let sitesBeingBuilt = 0;

/**
 * Once the last build is over, the mode comes back this much later: switched on at once, the
 * tighter heap limit's first collection fell on the first answers after a warm start.
 */
export const MEMORY_SAVER_RESUME_MS = 2_000;
let resumeTimer: NodeJS.Timeout | null = null;

const applyMemorySaverMode = (delayMs = 0) => {
  if (!memorySaverWanted) return;
  if (resumeTimer !== null) clearTimeout(resumeTimer);
  resumeTimer = null;
  if (sitesBeingBuilt > 0) setFlagsFromString('--no-memory-saver-mode');
  else if (delayMs === 0) setFlagsFromString('--memory-saver-mode');
  else {
    resumeTimer = setTimeout(applyMemorySaverMode, delayMs);
    resumeTimer.unref();
  }
};

/**
 * V8 13 (Node 24) keeps more of a busy server's heap resident than V8 11 (Node 20): the docs
 * corpus after a minute of new questions, 199–203 MB against 170 MB. Its memory saver mode (the
 * heap policy Chrome gives background tabs: the old generation grows in smaller steps and is
 * collected sooner) holds it at ~176–190 MB. V8 reads the flag at each decision, for every thread;
 * building a site under it (parse and index workers, a snapshot read) took half as long again,
 * so it is off while one is built (see buildingSite). Left as the operator chose when the command
 * line names the flag (`--no-memory-saver-mode`), and not set where V8 has no such flag (Node
 * 20 and 22). True when it is used.
 */
export function useMemorySaverMode(execArgv: readonly string[] = process.execArgv): boolean {
  if (Number(process.versions.v8.split('.')[0]) < 13) return false;
  if (execArgv.some((arg) => /^--(no-)?memory[-_]saver[-_]mode\b/.test(arg))) return false;
  memorySaverWanted = true;
  applyMemorySaverMode();
  return true;
}

/** Whether V8's memory saver mode is on now (used, no site being built, and resumed). */
export const memorySaverModeOn = (): boolean =>
  memorySaverWanted && sitesBeingBuilt === 0 && resumeTimer === null;

/**
 * Marks a site being built (a start-up load, a reload), from its first read to its worker's
 * retirement: meanwhile V8's memory saver mode, where used, is off. Call the function returned
 * when the build is over (calling it again does nothing).
 */
export function buildingSite(): () => void {
  sitesBeingBuilt++;
  applyMemorySaverMode();
  let over = false;
  return () => {
    if (over) return;
    over = true;
    sitesBeingBuilt--;
    applyMemorySaverMode(MEMORY_SAVER_RESUME_MS);
  };
}
