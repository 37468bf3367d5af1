/**
 * The generation worker as the server thread sees it: the jobs it is given and the messages it
 * answers with (its thread is generation-thread.ts).
 */
import type { ContentSnapshot, SaveResult, SiteSnapshot } from './content-snapshot.js';

import type { Worker } from 'node:worker_threads';

import { startModuleWorker, type ContentFiles, type Page, type WireSummary } from '../content/index.js';
import { type CopyGroups } from '../nlweb/index.js';
import { type SearchIndex } from '../search/index.js';
import { type SnapshotKey } from '../snapshot/index.js';

/**
 * The page fields an 'index' job goes without: nothing the index or the groups of copies read
 * (the reload test compares a reload's index with a full build's), and most of a page's bytes.
 */
export type HeldBack = Pick<Page, 'markdown' | 'frontMatter'>;
export const withoutHeldBack = (page: Page): Page => ({ ...page, markdown: '', frontMatter: {} });
export const heldBack = (page: Page): HeldBack => ({
  markdown: page.markdown,
  frontMatter: page.frontMatter,
});

/**
 * What the generation worker is given: the content to build a whole site from (it then writes the
 * snapshot), or a reload's pages (most of them reused) to index, then the rest of that site for
 * the snapshot ('save', sent once the new site serves).
 */
export type GenerationJob =
  | {
      kind: 'site';
      /** The folder as read, in the form that crosses threads (see read-wire.ts). */
      content: WireSummary & Pick<ContentFiles, 'files'>;
      /** Where the worker writes the snapshot after answering; null for none. */
      snapshotFile: string | null;
      snapshotKey: SnapshotKey;
      /** Where it then writes the passages' analysis (ANALYSIS_FILE); null for none. */
      analysis: KeptAnalysis | null;
    }
  | {
      kind: 'index';
      pages: Page[];
      /** For each page, whether it is the serving build's own (its file unchanged). */
      reused: boolean[];
    }
  | {
      kind: 'save';
      site: Omit<ContentSnapshot, 'pages' | 'index' | 'copies'>;
      /** The held-back fields of the 'index' job's pages, in the same order. */
      heldBack: HeldBack[];
      snapshotFile: string;
      snapshotKey: SnapshotKey;
      analysis: KeptAnalysis | null;
    }
  /** The work is done: hand the heap back, then say so ('released'), to be ended. */
  | { kind: 'release' };

/** Where the passages' analysis of a build is kept, and its key (contentAnalysisKey). */
export interface KeptAnalysis {
  file: string;
  key: SnapshotKey;
}

/**
 * What it answers: for a 'site' job, the site ('parsed') then its index and copies ('indexed');
 * for an 'index' job, only the index and copies (the pages are the caller's own); then whether
 * the snapshot was written.
 */
export type GenerationMessage =
  | { kind: 'parsed'; site: SiteSnapshot }
  | {
      kind: 'indexed';
      index: SearchIndex;
      copies: CopyGroups;
      /** How many passages were analysed (the others' analysis was kept from the serving build). */
      passagesAnalysed: number;
    }
  | { kind: 'saved'; bytes: number }
  | { kind: 'not-saved'; message: string }
  | { kind: 'released' }
  | { kind: 'failed'; message: string };

export interface GenerationWorkerData {
  /** Words to stem while waiting for a job: likely the ones the job will index. */
  warmUpWords: readonly string[];
  /** Parse workers to start while waiting for a job (a 'site' job will use them). */
  parseWorkers: number;
  /** The analysis kept with the serving build, read while waiting for an 'index' job. */
  previousAnalysis: KeptAnalysis | null;
}

type GenerationAnswer<K extends GenerationMessage['kind']> = Extract<
  GenerationMessage,
  { kind: K | (K extends 'saved' ? 'not-saved' : never) }
>;

/**
 * A thread running generation-worker.ts, which waits for its jobs: a reload starts one while it
 * reads the folder, so the thread, its isolate and its modules are ready when the pages are.
 * Ended by its owner once done (or by a failure).
 */
export class GenerationWorker {
  readonly #worker: Worker;
  readonly #inbox: GenerationMessage[] = [];
  #waiter: { resolve: (message: GenerationMessage) => void; reject: (error: Error) => void } | null = null;
  #gone: Error | null = null;

  /** What the worker does while it waits for its job (see GenerationWorkerData). */
  constructor(ahead: Partial<GenerationWorkerData> = {}) {
    const data: GenerationWorkerData = {
      warmUpWords: ahead.warmUpWords ?? [],
      parseWorkers: ahead.parseWorkers ?? 0,
      previousAnalysis: ahead.previousAnalysis ?? null,
    };
    this.#worker = startModuleWorker('runtime/generation-thread', data);
    this.#worker.on('message', (message: GenerationMessage) => {
      const waiter = this.#waiter;
      this.#waiter = null;
      if (waiter) waiter.resolve(message);
      else this.#inbox.push(message);
    });
    this.#worker.once('error', (error) => this.#stop(error));
    this.#worker.once('exit', (code) =>
      this.#stop(new Error(`the site-building worker exited with code ${code} before answering`)),
    );
  }

  send(job: GenerationJob): void {
    this.#worker.postMessage(job);
  }

  /**
   * The worker's next answer, which must be of `kind` ('saved' stands for 'not-saved' too). A
   * failure, a wrong answer or the worker's end rejects, and ends the worker.
   */
  async next<K extends 'parsed' | 'indexed' | 'saved' | 'released'>(kind: K): Promise<GenerationAnswer<K>> {
    const message =
      this.#inbox.shift() ??
      (await new Promise<GenerationMessage>((resolve, reject) => {
        if (this.#gone) reject(this.#gone);
        else this.#waiter = { resolve, reject };
      }).catch((error: Error) => {
        this.end();
        throw error;
      }));
    if (message.kind === kind || (kind === 'saved' && message.kind === 'not-saved'))
      return message as GenerationAnswer<K>;
    this.end();
    throw new Error(
      message.kind === 'failed'
        ? `building the site failed: ${message.message}`
        : `the site-building worker answered '${message.kind}' instead of '${kind}'`,
    );
  }

  end(): void {
    this.#stop(new Error('the site-building worker was ended'));
    void this.#worker.terminate();
  }

  /**
   * Ends the worker once it has handed its heap back (see releaseHeapBeforeExit): asked for when
   * its work is done and the site it built serves, so that the collection does not compete with
   * the start-up or the swap (on Node 24 it did, by 0.2–0.5 s of the cold start). Meanwhile the
   * worker does not keep the process alive.
   */
  async retire(): Promise<void> {
    if (this.#gone) return;
    this.#worker.unref();
    this.send({ kind: 'release' });
    await this.next('released').catch(() => undefined);
    this.end();
  }

  #stop(error: Error): void {
    this.#gone ??= error;
    const waiter = this.#waiter;
    this.#waiter = null;
    waiter?.reject(error);
  }
}

/**
 * Whether `generator` wrote the snapshot it was asked to write. Never rejects. The caller retires
 * the worker once the site it built serves.
 */
export function savedBy(generator: GenerationWorker): Promise<SaveResult> {
  return generator.next('saved').then(
    (message) => (message.kind === 'saved' ? { bytes: message.bytes } : { message: message.message }),
    (error: Error) => ({ message: error.message }),
  );
}
