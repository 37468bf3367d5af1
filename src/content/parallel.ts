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
}

/**
 * What building one file gave, kept beside the site so that a reload rebuilds only the files that
 * changed: the page is reused when the digest is the same and every link target is still present
 * (or still missing) as before.
 */
export interface FileBuild {
  sourcePath: string;
  digest: string;
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
      pageUrl: page?.url ?? null,
      ...(fileProblems.length > 0 ? { problems: fileProblems } : {}),
      ...(linkTargets.length > 0 ? { linkTargets: [...new Set(linkTargets)] } : {}),
    });
  }
  return { pages, problems, files };
}

export async function buildPages(
  files: SourceFile[],
  sourcePaths: string[],
  options: PageOptions & { workers?: number },
): Promise<BuiltPages> {
  const pageOptions: PageOptions = { reservedAnchors: options.reservedAnchors };
  const workers = Math.min(options.workers ?? defaultWorkerCount(files.length), Math.max(0, files.length - 1));
  if (workers === 0) return buildPagesHere({ files, sourcePaths, options: pageOptions });

  // Contiguous shares by text length (a few long pages must not land in one share), this thread's
  // larger: see LOCAL_SHARE_WEIGHT.
  const shares = splitByLength(files, [LOCAL_SHARE_WEIGHT, ...Array<number>(workers).fill(1)]);
  const remote = shares.slice(1).map((share) => runWorker({ files: share, sourcePaths, options: pageOptions }));
  const local = buildPagesHere({ files: shares[0]!, sourcePaths, options: pageOptions });
  const results = [local, ...(await Promise.all(remote))];
  return {
    pages: results.flatMap((result) => result.pages),
    problems: results.flatMap((result) => result.problems),
    files: results.flatMap((result) => result.files),
  };
}

/**
 * This thread's share of the pages, against 1 for each worker. A worker starts parsing later (its
 * thread, isolate and markdown-it take ~0.2–0.3 s to start) and its pages must then be copied to
 * this thread: with equal shares, the main share of the docs corpus was done 0.5–0.6 s before the
 * worker's arrived, and building the index waited for it.
 */
export const LOCAL_SHARE_WEIGHT = 1.5;

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
  const url = new URL(`../${modulePath}${fromSource ? '.ts' : '.js'}`, import.meta.url);
  // Node 20 does not pass `--import tsx` hooks on to a worker: the source worker registers them itself.
  return fromSource
    ? new Worker(
        `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); })`,
        { eval: true, workerData },
      )
    : new Worker(url, { workerData });
}

function runWorker(job: ParseJob): Promise<BuiltPages> {
  return new Promise((resolve, reject) => {
    const worker = startModuleWorker('content/parse-worker', job);
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
