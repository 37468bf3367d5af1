/**
 * A page-building worker thread (see parallel.ts): waits for its share, builds its pages, runs the
 * job's page step on them, and posts both back; then hands its memory back and says so
 * ('released'), for its owner to end it.
 */

import { parentPort } from 'node:worker_threads';
import { releaseHeapBeforeExit } from './garbage.js';
import { buildShare, type ParseJob } from './parallel.js';

async function buildAndPost(job: ParseJob): Promise<void> {
  parentPort!.postMessage(await buildShare(job));
}

// The job comes as a message, so that the worker can be started before it is known.
parentPort!.once('message', (job: ParseJob) => {
  void buildAndPost(job).then(() => {
    releaseHeapBeforeExit();
    parentPort!.postMessage('released');
  });
});
