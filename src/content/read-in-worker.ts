/**
 * Reading and hashing a content folder in a worker thread, so that the thread that starts the
 * server can meanwhile read the snapshot that content may match: on a warm start of a large site
 * the two took about as long as each other (~0.4 s each for 7,544 files) and added up. The worker
 * answers with the hash first and keeps the files' text until told whether it is needed (a
 * snapshot that matched does not need it: ~30 MB never cross to the main thread).
 */

import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from './parallel.js';
import type { SourceFile } from './page.js';
import type { ContentFiles } from './read.js';
import { fromWire, type ContentSummary, type ReadJob, type ReadMessage } from './read-wire.js';

export type { ContentSummary } from './read-wire.js';

export interface ContentReading {
  /** The folder's hash, paths and problems, as soon as it has been read. */
  readonly summary: Promise<ContentSummary>;
  /** The whole read folder, as readContent gives it; the worker then exits. */
  files(): Promise<ContentFiles>;
  /** The files are not needed: the worker exits without sending them. */
  close(): void;
}

export function readContentInWorker(contentDir: string, options: ReadJob['options'] = {}): ContentReading {
  const job: ReadJob = {
    contentDir,
    options: { reservedAnchors: options.reservedAnchors, stampSettleMs: options.stampSettleMs },
  };
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
      const { stamps: _inFiles, ...rest } = read;
      return { ...rest, files };
    },
    close: () => void worker.terminate(),
  };
}
