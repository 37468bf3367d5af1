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
import {
  analysePassages,
  buildPassageIndex,
  findCopies,
  PASSAGE_ANALYSIS_STEP,
  type CopyGroups,
} from '../nlweb/index.js';
import {
  combineAnalysed,
  isAnalysedDocuments,
  stemWord,
  type AnalysedDocuments,
  type SearchIndex,
} from '../search/index.js';
import { readSnapshot, writeSnapshot, type SnapshotKey } from '../snapshot/index.js';
import { releaseHeapBeforeExit } from './collect-garbage.js';
import { siteSnapshotOf, type ContentSnapshot } from './content-snapshot.js';
import type {
  GenerationJob,
  GenerationMessage,
  GenerationWorkerData,
  KeptAnalysis,
} from './generation-worker.js';

const port = parentPort!;
const post = (message: GenerationMessage) => port.postMessage(message);
/** The last 'index' job's pages and what was built from them, until its 'save' job. */
let indexed: { pages: Page[]; index: SearchIndex; copies: CopyGroups; analysed: AnalysedDocuments[] } | null =
  null;

port.on('message', (job: GenerationJob) => {
  if (job.kind === 'release') {
    // The jobs' memory is garbage once they have returned (see releaseHeapBeforeExit).
    releaseHeapBeforeExit();
    post({ kind: 'released' });
  } else void run(job).then((last) => last && post(last));
});

const ahead = workerData as GenerationWorkerData;
// A first load without a snapshot starts this worker while it reads the folder: the parse workers
// start now too, so every thread is ready when the files are.
if (ahead.parseWorkers > 0) startParseWorkers(ahead.parseWorkers);
// The serving build's analysis, read while the reload reads the folder: an 'index' job then
// analyses only the changed pages' passages.
let previousAnalysis: Promise<AnalysedDocuments | null> | null = (
  ahead.previousAnalysis ? readAnalysis(ahead.previousAnalysis) : Promise.resolve(null)
).then((analysis) => {
  // Without it, the surface words of the index serving now are stemmed meanwhile instead:
  // indexing then finds nearly every word in the analyzer's cache (a fifth of its time).
  if (analysis === null) for (const word of ahead.warmUpWords) stemWord(word);
  return analysis;
});

/** Runs a job; resolves with its last answer still to post (whether the snapshot was written), or null. */
async function run(job: Exclude<GenerationJob, { kind: 'release' }>): Promise<GenerationMessage | null> {
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
      const batches = (built.pageStepResults ?? []) as AnalysedDocuments[];
      const index = buildPassageIndex(built.site.pages, batches);
      // What the snapshot keeps of an ask service, made as the 'index' job makes it.
      const copies = findCopies(built.site.pages);
      const passagesAnalysed = built.site.pages.reduce((sum, page) => sum + page.passages.length, 0);
      post({ kind: 'indexed', index, copies, passagesAnalysed });
      return await save(job.snapshotFile, job.snapshotKey, { ...site, index, copies }, job.analysis, () =>
        combineAnalysed(batches),
      );
    } else if (job.kind === 'index') {
      // Made as createAskService makes them, without the rest of an ask service.
      const { pages, reused } = job;
      const previous = await previousAnalysis;
      previousAnalysis = null;
      const { analysed, passagesAnalysed } = analysePassages(pages, previous, reused);
      const index = buildPassageIndex(pages, analysed);
      const copies = findCopies(pages);
      post({ kind: 'indexed', index, copies, passagesAnalysed });
      indexed = { pages, index, copies, analysed };
      return null;
    } else {
      if (indexed === null) throw new Error('a save job came before its index job');
      const { pages, index, copies, analysed } = indexed;
      indexed = null;
      // The fields held back from the index job, put back in place (the key order stays the page's).
      pages.forEach((page, i) => Object.assign(page, job.heldBack[i]));
      return await save(
        job.snapshotFile,
        job.snapshotKey,
        { ...job.site, pages, index, copies },
        job.analysis,
        () => combineAnalysed(analysed),
      );
    }
  } catch (error) {
    post({ kind: 'failed', message: (error as Error).stack ?? String(error) });
    return null;
  }
}

/**
 * Writes the snapshot, then the passages' analysis (before answering: the worker is retired once it
 * has, and a write cut short would leave its temporary file behind). Gives the answer to post.
 */
async function save(
  file: string | null,
  key: SnapshotKey,
  snapshot: ContentSnapshot,
  analysis: KeptAnalysis | null,
  analysed: () => AnalysedDocuments,
): Promise<GenerationMessage> {
  if (file === null) return { kind: 'not-saved', message: 'no snapshot file' };
  let bytes: number;
  try {
    bytes = await writeSnapshot(file, key, snapshot);
  } catch (error) {
    return { kind: 'not-saved', message: (error as Error).message };
  }
  // Without it, the next reload analyses every passage: nothing to report beyond that.
  if (analysis) await writeSnapshot(analysis.file, analysis.key, analysed()).catch(() => undefined);
  return { kind: 'saved', bytes };
}

/** The analysis kept with the serving build, or null when there is none for it (or it is damaged). */
async function readAnalysis(kept: KeptAnalysis): Promise<AnalysedDocuments | null> {
  const read = await readSnapshot<unknown>(kept.file, kept.key);
  return read.ok && isAnalysedDocuments(read.value) ? read.value : null;
}
