/**
 * Builds a content generation off the main thread (see buildGenerationInWorker): the pages (with
 * parse workers of its own), then the search index, then posts them back and writes the snapshot.
 * The main thread keeps answering meanwhile, and the garbage of parsing and indexing lives and
 * dies in this thread's heap instead of growing the server's.
 */

import { parentPort, workerData } from 'node:worker_threads';
import { buildSite } from '../content/index.js';
import { createAskService } from '../nlweb/index.js';
import { writeSnapshot } from '../snapshot/index.js';
import type { GenerationJob, GenerationMessage } from './live-content.js';

const job = workerData as GenerationJob;
const post = (message: GenerationMessage) => parentPort!.postMessage(message);

try {
  const built = await buildSite(job.content);
  const ask = createAskService(built.site, job.publicBaseUrl);
  const snapshot = {
    info: built.site.info,
    pages: built.site.pages,
    problems: built.problems,
    index: ask.index,
  };
  post({ kind: 'built', snapshot });
  if (job.snapshotFile !== null) {
    try {
      post({ kind: 'saved', bytes: await writeSnapshot(job.snapshotFile, job.snapshotKey, snapshot) });
    } catch (error) {
      post({ kind: 'not-saved', message: (error as Error).message });
    }
  }
} catch (error) {
  post({ kind: 'failed', message: (error as Error).stack ?? String(error) });
}
