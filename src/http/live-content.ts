import type { Site } from '../content/index.js';
import type { AskService } from '../nlweb/index.js';

/** A site and the ask service built from it: what a content reload replaces, as one. */
export interface ContentGeneration {
  readonly site: Site;
  readonly ask: AskService;
}

/**
 * The content being served, replaced as a whole by a reload. A new generation is built beside the
 * one serving (pages, index, then whatever the routes derive from it: discovery documents, render
 * caches) and swapped in by one assignment, so a request sees the old site or the new one, never
 * a mix. Nothing keeps a reference to an old generation once its requests end: its memory is freed.
 */
export class LiveContent {
  #current: ContentGeneration;
  #generation = 1;
  readonly #preparers: ((next: ContentGeneration) => void)[] = [];
  /** Set while the serving site's snippet texts are analysed in the background (see analyseInBackground). */
  #analysisSettings: AnalysisSettings | null = null;
  #analysis: NodeJS.Immediate | null = null;
  #analysisStart: NodeJS.Timeout | null = null;

  constructor(initial: ContentGeneration) {
    this.#current = initial;
  }

  get current(): ContentGeneration {
    return this.#current;
  }

  /** 1 for the content loaded at start-up, then one more for each swap. */
  get generation(): number {
    return this.#generation;
  }

  /**
   * Work done on every new generation before it is served (building documents derived from the
   * site), so the first requests after a swap are as fast as the ones before, and an error while
   * deriving them leaves the old generation serving.
   */
  onPrepare(prepare: (next: ContentGeneration) => void): void {
    this.#preparers.push(prepare);
  }

  /** Prepares `next`, then serves it. Throws (still serving the current one) when preparing fails. */
  swap(next: ContentGeneration): void {
    for (const prepare of this.#preparers) prepare(next);
    this.#current = next;
    this.#generation += 1;
    if (this.#analysisSettings !== null) this.#analyseServing(this.#analysisSettings);
  }

  /**
   * From now on, analyses the snippet texts of the site serving (and of each site swapped in
   * later) in the background, ANALYSIS_SLICE_MS per turn of the event loop, until every passage's
   * is done: otherwise each new question pays for the passages it is first to quote, and a fresh
   * server's first thousands of new questions cost ~1.3–1.5 times what they cost later (docs
   * corpus). Requests keep being served between slices. An error stops it (answers then analyse
   * their passages as before) and goes to `onError`.
   */
  analyseInBackground(onError: (error: unknown) => void, delayMs = ANALYSIS_DELAY_MS): void {
    this.#analysisSettings = { onError, delayMs };
    this.#analyseServing(this.#analysisSettings);
  }

  /** Stops the background analysis (on shutdown). */
  stopAnalysis(): void {
    this.#analysisSettings = null;
    this.#cancelAnalysis();
  }

  #cancelAnalysis(): void {
    if (this.#analysisStart !== null) clearTimeout(this.#analysisStart);
    if (this.#analysis !== null) clearImmediate(this.#analysis);
    this.#analysisStart = null;
    this.#analysis = null;
  }

  #analyseServing({ onError, delayMs }: AnalysisSettings): void {
    // The old site's analysis stops here: nothing scheduled keeps a swapped-out site in memory.
    this.#cancelAnalysis();
    const { ask } = this.#current;
    const step = (): void => {
      this.#analysis = null;
      let done: boolean;
      try {
        done = ask.analyseSnippetTexts(ANALYSIS_SLICE_MS);
      } catch (error) {
        onError(error);
        return;
      }
      // Referenced: an unreferenced immediate runs only when something else wakes the event loop,
      // so on an idle server the analysis stalled, then ran a slice on each turn of the next reload
      // (+0.35 s on the docs corpus). stopAnalysis (server close) clears it.
      if (!done) this.#analysis = setImmediate(step);
    };
    this.#analysisStart = setTimeout(() => {
      this.#analysisStart = null;
      step();
    }, delayMs).unref();
  }
}

/** What LiveContent.analyseInBackground was given. */
interface AnalysisSettings {
  onError: (error: unknown) => void;
  delayMs: number;
}

/**
 * How long the background analysis waits after start-up or a swap: the first requests, and a
 * reload's own work (snapshot, garbage collection), come first. Started at once, it delayed a
 * warm start's first answer by ~70 ms (the docs corpus), most likely by the garbage collection of
 * what it had allocated by then.
 */
export const ANALYSIS_DELAY_MS = 1000;

/** Background analysis of snippet texts per turn of the event loop: the most a request waits for it. */
export const ANALYSIS_SLICE_MS = 4;
