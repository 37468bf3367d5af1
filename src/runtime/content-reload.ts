/**
 * Reloading the content while serving: what changed is rebuilt beside the site serving (in the
 * generation worker), then swapped in as a whole.
 */
import type { LiveContent } from '../http/index.js';
import { ANALYSIS_FILE, contentAnalysisKey } from './content-snapshot.js';
import { loadContent, roundTimings, type ContentConfig, type LoadedContent } from './content-load.js';
import { GenerationWorker } from './generation-worker.js';

import { join } from 'node:path';

import type { Logger } from 'pino';

import { MIN_FILES_FOR_WORKERS, type ContentProblem, type PreviousBuild } from '../content/index.js';

import { collectGarbage } from './collect-garbage.js';

/**
 * Lines logged for one problem (the same message) before the rest are counted in one line: a big
 * site converted from elsewhere can have thousands of files with one mistake (javascript.info's
 * 1,813 files without a title), which would bury everything else in the log.
 */
export const LOGGED_PER_PROBLEM = 20;

/**
 * Logs each content problem with its file and line, at most LOGGED_PER_PROBLEM of each message,
 * then how many more there are of it (`frontdoor check` lists them all).
 */
export function logContentProblems(logger: Logger, problems: readonly ContentProblem[]): void {
  const seen = new Map<string, { problem: ContentProblem; count: number }>();
  for (const problem of problems) {
    const key = `${problem.severity}\u0000${problem.message}`;
    const entry = seen.get(key) ?? { problem, count: 0 };
    seen.set(key, entry);
    if (++entry.count > LOGGED_PER_PROBLEM) continue;
    const log = problem.severity === 'error' ? logger.error.bind(logger) : logger.warn.bind(logger);
    log({ file: problem.file, line: problem.line }, `content: ${problem.message}`);
  }
  for (const { problem, count } of seen.values()) {
    if (count <= LOGGED_PER_PROBLEM) continue;
    const log = problem.severity === 'error' ? logger.error.bind(logger) : logger.warn.bind(logger);
    log(
      { more: count - LOGGED_PER_PROBLEM },
      `content: ${count - LOGGED_PER_PROBLEM} more like this (${problem.message}); \`frontdoor check\` lists them all`,
    );
  }
}

const errorKey = (problem: ContentProblem) => `${problem.file}\u0000${problem.message}`;

/** How many times each error (by file and message; lines move when text above them changes) occurs. */
function errorCounts(problems: readonly ContentProblem[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const problem of problems)
    if (problem.severity === 'error') counts.set(errorKey(problem), (counts.get(errorKey(problem)) ?? 0) + 1);
  return counts;
}

/** The errors of a reload beyond those of the content serving (an error that occurs more often counts). */
function newErrors(
  problems: readonly ContentProblem[],
  serving: ReadonlyMap<string, number>,
): ContentProblem[] {
  const allowed = new Map(serving);
  const fresh: ContentProblem[] = [];
  for (const problem of problems) {
    if (problem.severity !== 'error') continue;
    const left = allowed.get(errorKey(problem)) ?? 0;
    if (left > 0) allowed.set(errorKey(problem), left - 1);
    else fresh.push(problem);
  }
  return fresh;
}

export type ReloadOutcome =
  | { status: 'swapped'; generation: number; pages: number; ms: number }
  | { status: 'unchanged' }
  | { status: 'refused'; errors: ContentProblem[] }
  | { status: 'failed'; error: Error };

/**
 * Reloads the content on request (a watched change, SIGHUP), one reload at a time: a request that
 * arrives during a reload is served by one more reload after it, which sees every change so far.
 * A reload whose content has errors is refused: the site serving stays, and the errors are logged
 * with file and line.
 */
export class ContentReloader {
  #contentHash: string;
  /** The build serving now: a reload reuses its pages for the files that did not change. */
  #previous: PreviousBuild | undefined;
  /** The last reload asked for (settled or not). */
  #tail: Promise<unknown> = Promise.resolve();
  /** A reload asked for that has not started reading yet: a new request joins it. */
  #queued: Promise<ReloadOutcome> | null = null;
  /**
   * The serving generation's snapshot save: while it runs it holds that generation (the start-up's
   * may still be writing, fsync and all, when the first reload swaps).
   */
  #servingSaved: Promise<void>;
  #closed = false;
  /** The errors of the content serving now, counted by file and message (see #newErrors). */
  #servingErrors: Map<string, number>;

  constructor(
    private readonly config: ContentConfig,
    private readonly logger: Logger,
    private readonly content: LiveContent,
    contentHash: string,
    previous?: PreviousBuild,
    servingSaved: Promise<void> = Promise.resolve(),
    servingProblems: readonly ContentProblem[] = [],
  ) {
    this.#servingErrors = errorCounts(servingProblems);
    this.#contentHash = contentHash;
    this.#previous = previous;
    this.#servingSaved = servingSaved;
  }

  /** Asks for a reload; resolves with the outcome of the reload that covers this request. */
  reload(reason: string): Promise<ReloadOutcome> {
    if (this.#queued) return this.#queued;
    const run = this.#tail.then(() => {
      this.#queued = null;
      return this.#reloadOnce(reason);
    });
    this.#queued = run;
    this.#tail = run.catch(() => undefined);
    return run;
  }

  /** Stops accepting reloads; resolves when the one running (if any) has ended. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#tail;
  }

  async #reloadOnce(reason: string): Promise<ReloadOutcome> {
    if (this.#closed) return { status: 'unchanged' };
    const started = performance.now();
    // A large site is indexed in a worker: started now, it gets ready while the folder is read,
    // warming up on the words of the site serving (a page changed, most words stay).
    const worker =
      (this.#previous?.files.length ?? 0) >= MIN_FILES_FOR_WORKERS
        ? new GenerationWorker({
            warmUpWords: this.content.current.ask.index.core.vocabulary.words,
            previousAnalysis: {
              file: join(this.config.dataDir, ANALYSIS_FILE),
              key: contentAnalysisKey(this.#contentHash),
            },
          })
        : undefined;
    let loaded: LoadedContent | null;
    try {
      loaded = await loadContent(this.config, this.logger, {
        streams: this.content.current.ask.streams,
        unlessHash: this.#contentHash,
        offThread: true,
        ...(this.#previous ? { previous: this.#previous } : {}),
        ...(worker ? { worker } : {}),
      });
    } catch (error) {
      this.logger.error({ err: error, reason }, 'content reload failed; the current site is still served');
      return { status: 'failed', error: error as Error };
    }
    if (loaded === null) {
      this.logger.debug({ reason }, 'content reload: nothing changed');
      return { status: 'unchanged' };
    }
    // Only errors the serving content does not have refuse a reload: a site that started with pages
    // it skips (1,813 untitled exercise files on javascript.info) must still take its owner's edits.
    const errors = newErrors(loaded.problems, this.#servingErrors);
    if (errors.length > 0) {
      logContentProblems(this.logger, errors);
      this.logger.error(
        { reason, errors: errors.length, generation: this.content.generation },
        `content reload refused: ${errors.length} content error(s) the serving site does not have, listed above with file and line; the current site is still served`,
      );
      // Its snapshot still saves the next start the build (and ends the worker).
      await loaded.saveSnapshot();
      return { status: 'refused', errors };
    }
    try {
      this.content.swap(loaded.generation);
    } catch (error) {
      this.logger.error({ err: error, reason }, 'content reload failed; the current site is still served');
      await loaded.saveSnapshot();
      return { status: 'failed', error: error as Error };
    }
    this.#contentHash = loaded.contentHash;
    this.#previous = loaded.build;
    this.#servingErrors = errorCounts(loaded.problems);
    logContentProblems(this.logger, loaded.problems);
    const ms = Math.round(performance.now() - started);
    this.logger.info(
      {
        reason,
        generation: this.content.generation,
        pages: loaded.generation.site.pages.length,
        ms,
        source: loaded.source,
        filesParsed: loaded.filesParsed,
        filesRead: loaded.filesRead,
        passagesAnalysed: loaded.passagesAnalysed,
        // Where the time went (as in the start-up line): reading and hashing the folder, parsing and
        // indexing, and the ask service over the new index; the rest of `ms` is swapping in.
        timings: roundTimings(loaded.timings),
      },
      'content reloaded',
    );
    await loaded.saveSnapshot();
    // The old generation (its index, pages, caches; ~25 MB on the docs corpus) is garbage now that
    // its requests and its own snapshot save have ended. V8 would keep it until the heap next
    // reaches its limit, which under steady traffic is not soon: collected now, memory returns to
    // where it was before the reload.
    await this.#servingSaved;
    this.#servingSaved = loaded.saveSnapshot();
    collectGarbage();
    return {
      status: 'swapped',
      generation: this.content.generation,
      pages: loaded.generation.site.pages.length,
      ms,
    };
  }
}
