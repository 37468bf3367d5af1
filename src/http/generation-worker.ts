/**
 * Builds a content generation off the main thread (see GenerationWorker in live-content.ts): given
 * the content, the whole site (with parse workers of its own), then the search index; given a
 * reload's site (most pages reused), only the index and the groups of copies. Either way it then
 * writes the snapshot. The main thread keeps answering meanwhile, and the garbage of parsing and
 * indexing lives and dies in this thread's heap instead of growing the server's.
 *
 * It waits for its job (a reload starts it while the folder is still being read, and gives it the
 * words to warm up on meanwhile) and, after an 'index' job, for the rest of the site to write the
 * snapshot, sent once the new site is serving.
 */

import { parentPort, workerData } from 'node:worker_threads';
import { buildSite, fromWire, startParseWorkers, type Page } from '../content/index.js';
import { buildPassageIndex, findCopies, PASSAGE_ANALYSIS_STEP, type CopyGroups } from '../nlweb/index.js';
import { stemWord, type AnalysedDocuments, type SearchIndex } from '../search/index.js';
import { writeSnapshot, type SnapshotKey } from '../snapshot/index.js';
import {
  siteSnapshotOf,
  type ContentSnapshot,
  type GenerationJob,
  type GenerationMessage,
  type GenerationWorkerData,
} from './live-content.js';

const port = parentPort!;
const post = (message: GenerationMessage) => port.postMessage(message);
/** The last 'index' job's pages and what was built from them, until its 'save' job. */
let indexed: { pages: Page[]; index: SearchIndex; copies: CopyGroups } | null = null;

port.on('message', (job: GenerationJob) => void run(job));

const ahead = workerData as GenerationWorkerData;
// A first load without a snapshot starts this worker while it reads the folder: the parse workers
// start now too, so every thread is ready when the files are.
if (ahead.parseWorkers > 0) startParseWorkers(ahead.parseWorkers);
// The surface words of the index serving now, stemmed while the reload reads the folder: indexing
// then finds nearly every word in the analyzer's cache instead of stemming it (a fifth of its time).
for (const word of ahead.warmUpWords) stemWord(word);

async function run(job: GenerationJob): Promise<void> {
  try {
    if (job.kind === 'site') {
      // The parse workers (and this thread, for its share) analyse the passages of the pages they
      // build, so the index is built from their analyses.
      const content = { ...fromWire(job.content), files: job.content.files };
      const built = await buildSite(content, { pageStep: PASSAGE_ANALYSIS_STEP });
      // The site first: the main thread copies it in (a quarter of a second on a large site)
      // while this thread indexes, instead of after.
      const site = siteSnapshotOf(built);
      post({ kind: 'parsed', site });
      const index = buildPassageIndex(built.site.pages, (built.pageStepResults ?? []) as AnalysedDocuments[]);
      // What the snapshot keeps of an ask service, made as the 'index' job makes it.
      const copies = findCopies(built.site.pages);
      post({ kind: 'indexed', index, copies });
      await save(job.snapshotFile, job.snapshotKey, { ...site, index, copies });
    } else if (job.kind === 'index') {
      // Made as createAskService makes them, without the rest of an ask service.
      const { pages } = job;
      const index = buildPassageIndex(pages);
      const copies = findCopies(pages);
      post({ kind: 'indexed', index, copies });
      indexed = { pages, index, copies };
    } else {
      if (indexed === null) throw new Error('a save job came before its index job');
      const { pages, index, copies } = indexed;
      indexed = null;
      // The fields held back from the index job, put back in place (the key order stays the page's).
      pages.forEach((page, i) => Object.assign(page, job.heldBack[i]));
      await save(job.snapshotFile, job.snapshotKey, { ...job.site, pages, index, copies });
    }
  } catch (error) {
    post({ kind: 'failed', message: (error as Error).stack ?? String(error) });
  }
}

async function save(file: string | null, key: SnapshotKey, snapshot: ContentSnapshot): Promise<void> {
  if (file === null) return post({ kind: 'not-saved', message: 'no snapshot file' });
  try {
    post({ kind: 'saved', bytes: await writeSnapshot(file, key, snapshot) });
  } catch (error) {
    post({ kind: 'not-saved', message: (error as Error).message });
  }
}
