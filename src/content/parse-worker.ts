/**
 * A page-building worker thread (see parallel.ts): builds the pages of its share, runs the job's
 * page step on them, and posts both back.
 */

import { parentPort, workerData } from 'node:worker_threads';
import { buildShare, type ParseJob } from './parallel.js';

parentPort!.postMessage(await buildShare(workerData as ParseJob));
