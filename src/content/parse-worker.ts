/**
 * A page-building worker thread (see parallel.ts): waits for its share, builds its pages, runs the
 * job's page step on them, and posts both back.
 */

import { parentPort } from 'node:worker_threads';
import { buildShare, type ParseJob } from './parallel.js';

// The job comes as a message, so that the worker can be started before it is known.
parentPort!.once('message', (job: ParseJob) => {
  void buildShare(job).then((built) => parentPort!.postMessage(built));
});
