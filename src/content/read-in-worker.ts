/**
 * Reading and hashing a content folder in a worker thread, so that the thread that starts the
 * server can meanwhile read the snapshot that content may match: on a warm start of a large site
 * the two took about as long as each other (~0.4 s each for 7,544 files) and added up. The worker
 * answers with the hash first and keeps the files' text until told whether it is needed (a
 * snapshot that matched does not need it: ~30 MB never cross to the main thread). Given the stamps
 * of an earlier read (`known`), it only stats the files whose stamp is unchanged, and reads them
 * when their text is asked for, or at once when the snapshot's hash (`snapshotHash`) shows they
 * will be.
 */

import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from './parallel.js';
import type { ContentFiles } from './read.js';
import { fromWire, type ContentSummary, type ReadJob, type ReadMessage } from './read-wire.js';

export type { ContentSummary } from './read-wire.js';

export interface ContentReading {
  /** The folder's hash, paths and problems, as soon as it has been read. */
  readonly summary: Promise<ContentSummary>;
  /**
   * The whole folder with every file read (none left unread: readContent without `known`); the
   * worker then exits. Its hash differs from the summary's only when a file changed in between.
   */
  files(): Promise<ContentFiles>;
  /** The files are not needed: the worker exits without sending them. */
  close(): void;
}

export function readContentInWorker(
  contentDir: string,
  options: ReadJob['options'] = {},
  snapshotHash?: string,
): ContentReading {
  const job: ReadJob = {
    contentDir,
    options: {
      reservedAnchors: options.reservedAnchors,
      htmlBodySelector: options.htmlBodySelector,
      stampSettleMs: options.stampSettleMs,
      known: options.known,
      maxFileBytes: options.maxFileBytes,
    },
    snapshotHash,
  };
  const worker: Worker = startModuleWorker('content/read-worker', job);
  let onFiles: ((content: ContentFiles) => void) | null = null;
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
      else if (message.kind === 'files')
        onFiles?.({ ...fromWire(message.content), files: message.content.files });
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
      await summary;
      return new Promise<ContentFiles>((resolve, reject) => {
        if (failure) return reject(failure);
        onFiles = resolve;
        failFiles = reject;
        worker.postMessage('files');
      });
    },
    close: () => void worker.terminate(),
  };
}
