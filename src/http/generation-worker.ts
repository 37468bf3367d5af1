/**
 * Builds a content generation off the main thread (see buildGenerationInWorker): the pages (with
 * parse workers of its own), then the search index, then posts them back and writes the snapshot.
 * For a reload that reused most pages, it is given the site and builds only the index.
 * The main thread keeps answering meanwhile, and the garbage of parsing and indexing lives and
 * dies in this thread's heap instead of growing the server's.
 */

import { parentPort, workerData } from 'node:worker_threads';
import { buildSite } from '../content/index.js';
import { buildPassageIndex, createAskService, findCopies } from '../nlweb/index.js';
import { writeSnapshot } from '../snapshot/index.js';
import type { ContentSnapshot, GenerationJob, GenerationMessage } from './live-content.js';

const job = workerData as GenerationJob;
const post = (message: GenerationMessage) => parentPort!.postMessage(message);

try {
  if (job.kind === 'site') {
    const built = await buildSite(job.content);
    const ask = createAskService(built.site, job.publicBaseUrl);
    const snapshot: ContentSnapshot = {
      info: built.site.info,
      pages: built.site.pages,
      problems: built.problems,
      files: built.files,
      index: ask.index,
      copies: ask.copies,
    };
    post({ kind: 'built', snapshot });
    await save(snapshot);
  } else {
    // A reload's rebuilt site: the caller has the pages; only the index and the copies go back,
    // made as createAskService makes them, without the rest of an ask service.
    const { pages } = job.site;
    const index = buildPassageIndex(pages);
    const copies = findCopies(pages);
    post({ kind: 'indexed', index, copies });
    await save({ ...job.site, index, copies });
  }
} catch (error) {
  post({ kind: 'failed', message: (error as Error).stack ?? String(error) });
}

async function save(snapshot: ContentSnapshot): Promise<void> {
  if (job.snapshotFile === null) return;
  try {
    post({ kind: 'saved', bytes: await writeSnapshot(job.snapshotFile, job.snapshotKey, snapshot) });
  } catch (error) {
    post({ kind: 'not-saved', message: (error as Error).message });
  }
}
