/**
 * A content-reading worker thread (see read-in-worker.ts): reads and hashes the folder, posts the
 * summary, then posts the files' text if asked ('files') and exits.
 */

import { parentPort, workerData } from 'node:worker_threads';
import { readContent } from './read.js';
import { stampsOf, toWire, type ReadJob, type ReadMessage } from './read-wire.js';

const post = (message: ReadMessage) => parentPort!.postMessage(message);
const job = workerData as ReadJob;

try {
  const content = await readContent(job.contentDir, job.options);
  const { files, ...summary } = content;
  post({ kind: 'summary', summary: toWire({ ...summary, stamps: stampsOf(content) }) });
  parentPort!.once('message', () => {
    post({ kind: 'files', files });
    parentPort!.close();
  });
} catch (error) {
  post({ kind: 'failed', message: (error as Error).stack ?? String(error) });
}
