/**
 * A content-reading worker thread (see read-in-worker.ts): reads and hashes the folder, posts the
 * summary, then posts the whole folder, every file's text, if asked ('files') and exits.
 */

import { parentPort, workerData } from 'node:worker_threads';
import { readContent, readUnread, type ContentFiles } from './read.js';
import { stampsOf, toWire, type ReadJob, type ReadMessage } from './read-wire.js';

const post = (message: ReadMessage) => parentPort!.postMessage(message);
const job = workerData as ReadJob;

try {
  const content = await readContent(job.contentDir, job.options);
  const { files: _texts, ...summary } = content;
  post({ kind: 'summary', summary: toWire({ ...summary, stamps: stampsOf(content) }) });
  // The files whose stamps were known are not read yet; a snapshot made from other content will
  // be rejected, and then the caller needs them all.
  const readAll = () => readUnread(content, job.options);
  let whole: Promise<ContentFiles> | null =
    job.snapshotHash !== undefined && job.snapshotHash !== content.hash ? readAll() : null;
  whole?.catch(() => undefined);
  parentPort!.once('message', () => {
    (whole ??= readAll()).then(
      ({ files, ...rest }) => {
        post({ kind: 'files', content: { ...toWire(rest), files } });
        parentPort!.close();
      },
      (error: Error) => post({ kind: 'failed', message: error.stack ?? String(error) }),
    );
  });
} catch (error) {
  post({ kind: 'failed', message: (error as Error).stack ?? String(error) });
}
