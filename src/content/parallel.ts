/**
 * Builds pages from read files, in worker threads for a large folder: Markdown parsing is most of
 * a cold start, and it is independent per file. The main thread builds a share too, so with n
 * workers the work is split n + 1 ways. Results are put back in file order, so the Site is the same
 * whatever the number of workers.
 */

import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { LineProblem } from './front-matter.js';
import { buildPage, type PageOptions, type SourceFile } from './page.js';
import type { ContentProblem, Page } from './types.js';

/** Below this many files a worker's start-up (~50 ms: a thread, an isolate, markdown-it) is not repaid. */
export const MIN_FILES_FOR_WORKERS = 400;

export interface BuiltPages {
  /** In file order; files whose page had an error are missing. */
  pages: Page[];
  problems: ContentProblem[];
  /** One per file, in file order. */
  files: FileBuild[];
  /** With a PageStep: what it gave for each share's pages, in share (file) order. */
  stepResults?: unknown[];
}

/**
 * Work on freshly built pages, done in the thread that built them so that it runs in parallel too
 * (the ask service analyses their passages for its index). `module` is a module path below the
 * source root, as for startModuleWorker, whose `runPageStep(pages)` gives a value a message can
 * carry; what it does is its own business.
 */
export interface PageStep {
  module: string;
}

/**
 * What building one file gave, kept beside the site so that a reload rebuilds only the files that
 * changed: the page is reused when the digest is the same and every link target is still present
 * (or still missing) as before.
 */
export interface FileBuild {
  sourcePath: string;
  digest: string;
  /** The file's stamp when it was read (SourceFile.stamp): the next reload skips reading it while it matches. */
  stamp?: string;
  /** The page's URL, or null when an error left the file without a page. */
  pageUrl: string | null;
  /** The problems building the file reported (not those of reading it); absent when none. */
  problems?: ContentProblem[];
  /** The source paths its links point to; absent when none (most pages). */
  linkTargets?: string[];
}

/** What a parse worker is sent, and answers. */
export interface ParseJob {
  files: SourceFile[];
  sourcePaths: string[];
  options: PageOptions;
  step?: PageStep;
}

export function defaultWorkerCount(fileCount: number): number {
  return fileCount < MIN_FILES_FOR_WORKERS ? 0 : Math.max(0, availableParallelism() - 1);
}

/** Builds the pages of `job` on this thread. */
export function buildPagesHere(job: ParseJob): BuiltPages {
  const sourceSet = new Set(job.sourcePaths);
  const pages: Page[] = [];
  const problems: ContentProblem[] = [];
  const files: FileBuild[] = [];
  for (const file of job.files) {
    const fileProblems: ContentProblem[] = [];
    const report = (problem: LineProblem) => fileProblems.push({ file: file.sourcePath, ...problem });
    const linkTargets: string[] = [];
    const page = buildPage(file, sourceSet, job.options, report, linkTargets);
    if (page) pages.push(page);
    problems.push(...fileProblems);
    // Kept for every file of the site (and in the snapshot): empty lists are left out (0.7 MB of
    // the 2.5 MB these records took for 7,544 files).
    files.push({
      sourcePath: file.sourcePath,
      digest: file.digest,
      ...(file.stamp !== undefined ? { stamp: file.stamp } : {}),
      pageUrl: page?.url ?? null,
      ...(fileProblems.length > 0 ? { problems: fileProblems } : {}),
      ...(linkTargets.length > 0 ? { linkTargets: [...new Set(linkTargets)] } : {}),
    });
  }
  return { pages, problems, files };
}

/** Builds the pages of `job` on this thread, then runs its page step on them. */
export async function buildShare(job: ParseJob): Promise<BuiltPages> {
  const built = buildPagesHere(job);
  if (!job.step) return built;
  const step = (await import(moduleUrl(job.step.module).href)) as { runPageStep(pages: Page[]): unknown };
  return { ...built, stepResults: [step.runPageStep(built.pages)] };
}

export async function buildPages(
  files: SourceFile[],
  sourcePaths: string[],
  options: PageOptions & { workers?: number; step?: PageStep; offThread?: boolean },
): Promise<BuiltPages> {
  const pageOptions: PageOptions = {
    reservedAnchors: options.reservedAnchors,
    htmlBodySelector: options.htmlBodySelector,
  };
  const step = options.step;
  // Off this thread: every share goes to a worker, this thread builds none (a server's reload).
  const offThread = options.offThread === true && files.length > 0;
  const workers = offThread
    ? Math.max(1, Math.min(options.workers ?? 1, files.length))
    : Math.min(options.workers ?? defaultWorkerCount(files.length), Math.max(0, files.length - 1));
  if (workers === 0) {
    endSpareParseWorkers();
    return buildShare({ files, sourcePaths, options: pageOptions, step });
  }

  // Contiguous shares by text length (a few long pages must not land in one share); see
  // LOCAL_SHARE_WEIGHT.
  const remoteWeights = Array<number>(workers).fill(1);
  const shares = splitByLength(files, offThread ? remoteWeights : [LOCAL_SHARE_WEIGHT, ...remoteWeights]);
  const remote = (offThread ? shares : shares.slice(1)).map((share) =>
    runWorker({ files: share, sourcePaths, options: pageOptions, step }),
  );
  endSpareParseWorkers();
  const local = offThread
    ? []
    : [await buildShare({ files: shares[0]!, sourcePaths, options: pageOptions, step })];
  const results = [...local, ...(await Promise.all(remote))];
  return {
    pages: results.flatMap((result) => result.pages),
    problems: results.flatMap((result) => result.problems),
    files: results.flatMap((result) => result.files),
    ...(step ? { stepResults: results.flatMap((result) => result.stepResults ?? []) } : {}),
  };
}

/**
 * This thread's share of the pages, against 1 for each worker. A worker starts parsing later and
 * its pages are then copied to this thread, but the share also runs the page step after parsing
 * (work in proportion to the share): traced on the docs corpus, a worker started ~0.13 s after
 * this thread and its pages arrived ~0.1 s after it finished, within 0.2 s of this thread's share,
 * while a larger share here (1.5, right before the step existed) finished ~0.9 s after the worker's.
 */
export const LOCAL_SHARE_WEIGHT = 1;

/** Contiguous shares of `files` whose text lengths are about proportional to `weights`. */
export function splitByLength(files: readonly SourceFile[], weights: readonly number[]): SourceFile[][] {
  let total = 0;
  for (const file of files) total += file.text.length + 200;
  const weightTotal = weights.reduce((sum, weight) => sum + weight, 0);
  const shares: SourceFile[][] = [[]];
  let filled = 0;
  let boundary = weights[0]!;
  for (const file of files) {
    const share = shares[shares.length - 1]!;
    share.push(file);
    filled += file.text.length + 200;
    if (shares.length < weights.length && filled >= (total * boundary) / weightTotal) {
      boundary += weights[shares.length]!;
      shares.push([]);
    }
  }
  while (shares.length < weights.length) shares.push([]);
  return shares;
}

/**
 * Starts the worker module at `modulePath` below the source root (`content/parse-worker`): the
 * built `.js`, or the `.ts` source through tsx when running from source (tests, benches). The path
 * is taken from this module's folder as `../<modulePath>`, which is right in src/, in dist/ and in
 * the bundle (dist/cli/main.js), whose modules all sit one folder down.
 */
export function startModuleWorker(modulePath: string, workerData: unknown): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  const url = moduleUrl(modulePath);
  // Node 20 does not pass `--import tsx` hooks on to a worker: the source worker registers them itself.
  return fromSource
    ? new Worker(
        `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); })`,
        { eval: true, workerData },
      )
    : new Worker(url, { workerData });
}

/** The module at `modulePath` below the source root: `.ts` when running from source, else `.js`. */
function moduleUrl(modulePath: string): URL {
  return new URL(`../${modulePath}${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);
}

/** Parse workers started ahead (startParseWorkers), waiting for a job. */
const spareParseWorkers: Worker[] = [];

/**
 * Starts `count` parse workers now, for the next buildPages to use: a thread, its isolate and
 * markdown-it take ~0.1 s to start, which a caller that knows a build is coming (the first load
 * of a folder without a snapshot) can spend while the folder is read. The next buildPages ends
 * those it does not use.
 */
export function startParseWorkers(count: number): void {
  for (let i = 0; i < count; i++) spareParseWorkers.push(startModuleWorker('content/parse-worker', null));
}

/** Ends the workers started ahead that this build did not take. */
function endSpareParseWorkers(): void {
  for (const unused of spareParseWorkers.splice(0)) void unused.terminate();
}

/** How many parse workers started ahead are waiting for a job. */
export function spareParseWorkerCount(): number {
  return spareParseWorkers.length;
}

function runWorker(job: ParseJob): Promise<BuiltPages> {
  return new Promise((resolve, reject) => {
    const worker = spareParseWorkers.shift() ?? startModuleWorker('content/parse-worker', null);
    worker.postMessage(job);
    let answered = false;
    worker.once('message', (result: BuiltPages) => {
      answered = true;
      resolve(result);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`the page-building worker exited with code ${code} before answering`));
    });
  });
}
