/**
 * Reading and hashing a content folder in a worker thread, so that the thread that starts the
 * server can meanwhile read the snapshot that content may match: on a warm start of a large site
 * the two took about as long as each other (~0.4 s each for 7,544 files) and added up. The worker
 * answers with the hash first and keeps the files' text until told whether it is needed (a
 * snapshot that matched does not need it: ~30 MB never cross to the main thread).
 */

import type { Worker } from 'node:worker_threads';
import { UNREADABLE, type ContentFiles, type LoadOptions } from './loader.js';
import { startModuleWorker } from './parallel.js';
import type { SourceFile } from './page.js';

/** A read folder without its files' text: enough to key a snapshot and to reload from it. */
export type ContentSummary = Omit<ContentFiles, 'files'>;

/** What the read worker is given. */
export interface ReadJob {
  contentDir: string;
  options: Pick<LoadOptions, 'reservedAnchors'>;
}

/** What it posts: the summary, then (when asked with 'files') the files; or why it failed. */
export type ReadMessage =
  | { kind: 'summary'; summary: WireSummary }
  | { kind: 'files'; files: SourceFile[] }
  | { kind: 'failed'; message: string };

/** The summary as posted: UNREADABLE, a symbol, cannot be cloned across threads. */
export type WireSummary = Omit<ContentSummary, 'siteInfoText'> & { siteInfoText: string | null | { unreadable: true } };

export const toWire = (summary: ContentSummary): WireSummary => ({
  ...summary,
  siteInfoText: summary.siteInfoText === UNREADABLE ? { unreadable: true } : summary.siteInfoText,
});

const fromWire = (summary: WireSummary): ContentSummary => ({
  ...summary,
  siteInfoText: typeof summary.siteInfoText === 'object' && summary.siteInfoText !== null ? UNREADABLE : summary.siteInfoText,
});

export interface ContentReading {
  /** The folder's hash, paths and problems, as soon as it has been read. */
  readonly summary: Promise<ContentSummary>;
  /** The whole read folder, as readContent gives it; the worker then exits. */
  files(): Promise<ContentFiles>;
  /** The files are not needed: the worker exits without sending them. */
  close(): void;
}

export function readContentInWorker(contentDir: string, options: ReadJob['options'] = {}): ContentReading {
  const job: ReadJob = { contentDir, options: { reservedAnchors: options.reservedAnchors } };
  const worker: Worker = startModuleWorker('content/read-worker', job);
  let onFiles: ((files: SourceFile[]) => void) | null = null;
  let failFiles: ((error: Error) => void) | null = null;
  let failure: Error | null = null;
  const summary = new Promise<ContentSummary>((resolve, reject) => {
    const fail = (error: Error) => {
      failure ??= error;
      reject(error);
      failFiles?.(error);
    };
    worker.on('message', (message: ReadMessage) => {
      if (message.kind === 'summary') resolve(fromWire(message.summary));
      else if (message.kind === 'files') onFiles?.(message.files);
      else fail(new Error(`reading the content failed: ${message.message}`));
    });
    worker.once('error', fail);
    worker.once('exit', (code) => fail(new Error(`the content-reading worker exited with code ${code}`)));
  });
  // A failure nobody awaited yet must not surface as an unhandled rejection.
  summary.catch(() => undefined);
  return {
    summary,
    files: async () => {
      const read = await summary;
      const files = await new Promise<SourceFile[]>((resolve, reject) => {
        if (failure) return reject(failure);
        onFiles = resolve;
        failFiles = reject;
        worker.postMessage('files');
      });
      return { ...read, files };
    },
    close: () => void worker.terminate(),
  };
}
