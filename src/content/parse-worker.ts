/** A page-building worker thread (see parallel.ts): builds the pages of its share and posts them back. */

import { parentPort, workerData } from 'node:worker_threads';
import { buildPagesHere, type ParseJob } from './parallel.js';

parentPort!.postMessage(buildPagesHere(workerData as ParseJob));
