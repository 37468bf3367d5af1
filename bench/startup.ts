/**
 * Start-up of the docs corpus, each in a fresh process so earlier parts of the run do not pollute
 * the numbers:
 *
 * - the pipeline (`loadSite` = read + render + passages, then `createAskService` = index), timed
 *   in a child Node process that runs this file with `--child`, with its peak RSS and heap;
 * - the whole server (`frontdoor serve` with CONTENT_DIR at a copy of the corpus, settled as a
 *   deployed site's files are, PORT=0, LOG_LEVEL=info), cold then warm (from the snapshot in DATA_DIR), with its memory after start-up,
 *   after a minute of distinct questions and after a reload (see measureServerStartup).
 */

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import { STAMP_SETTLE_MS } from '../src/content/index.js';
import { repoRoot } from './paths.js';
import { seededRandom } from './seeded-random.js';
import { serverEntry, spawnServer, stopServer, type ServerEntry } from './server.js';

/**
 * Issue 35's targets for a site of ~40 MB of Markdown (FRONTDOOR_BENCH_STARTUP_DIR at
 * javascript-info), printed beside each start's figures.
 */
export const BIG_SITE_TARGETS = {
  coldStartS: 8,
  warmStartS: 1.5,
  coldPeakMB: 500,
  afterQuestionsMB: 250,
  snapshotRatio: 1.5,
} as const;

export interface PipelineStartup {
  pages: number;
  passages: number;
  /** Importing the content, NLWeb and search modules (through tsx here, so includes transpiling). */
  importMs: number;
  /** loadSite: list, read, parse front matter, render Markdown, split passages. */
  loadMs: number;
  /** createAskService: search documents and the index. */
  indexMs: number;
  /** load + index: the start-up the 10 s target is about. */
  totalMs: number;
  /** Peak resident set size of the process (getrusage ru_maxrss). */
  peakRssMB: number;
  /** JS heap used + ArrayBuffers right after indexing, before any forced GC. */
  heapAfterIndexMB: number;
  /** V8 heap committed (heapTotal) right after indexing. */
  heapCommittedMB: number;
  /** JS heap used + ArrayBuffers after a full GC, with the site and the ask service still alive. */
  retainedMB: number;
}

const MB = 1024 * 1024;

/** Runs the pipeline in a fresh `node --expose-gc --import tsx` process and returns its numbers. */
export function measurePipelineStartup(contentDir: string): Promise<PipelineStartup> {
  const args = ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), '--child', contentDir];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`start-up child exited with ${code}`));
      try {
        resolve(JSON.parse(out) as PipelineStartup);
      } catch {
        reject(new Error(`start-up child printed no result:\n${out}`));
      }
    });
  });
}

async function childMain(contentDir: string): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  const t0 = performance.now();
  const { loadSite } = await import('../src/content/index.js');
  const { createAskService } = await import('../src/nlweb/service.js');
  const t1 = performance.now();
  const { site } = await loadSite(contentDir);
  const t2 = performance.now();
  const ask = createAskService(site, 'http://127.0.0.1:3000');
  const t3 = performance.now();
  const after = process.memoryUsage();
  gc();
  gc();
  const retained = process.memoryUsage();
  const result: PipelineStartup = {
    pages: ask.pageCount,
    passages: ask.passageCount,
    importMs: t1 - t0,
    loadMs: t2 - t1,
    indexMs: t3 - t2,
    totalMs: t3 - t1,
    // ru_maxrss is in kilobytes on Linux.
    peakRssMB: (process.resourceUsage().maxRSS * 1024) / MB,
    heapAfterIndexMB: (after.heapUsed + after.arrayBuffers) / MB,
    heapCommittedMB: after.heapTotal / MB,
    retainedMB: (retained.heapUsed + retained.arrayBuffers) / MB,
  };
  process.stdout.write(JSON.stringify(result));
}

/** One start of `frontdoor serve`, as logged and as seen from outside. */
export interface ServerRun {
  /** 'built' (no usable snapshot: parse and index) or 'snapshot'. */
  source: string;
  /** What the server logs: from the start of startServer() to listening. */
  startupMs: number;
  /** Its breakdown, as logged: read, build (parse + index, or snapshot), index, context, app. */
  timings: Record<string, number>;
  /** From spawning the process (Node start-up and module loading included) to the first 200 answer of /ask. */
  spawnToFirstAnswerMs: number;
  /** Resident set size (VmRSS) 3 s after the first answer, the snapshot written. */
  rssAfterStartMB: number;
  /** The process's peak resident set size (VmHWM) at that moment: the build's peak, on a cold start. */
  peakRssMB: number;
  /** After `queryMs` of distinct never-asked questions, `queries` of them. */
  rssAfterQueriesMB: number;
  queries: number;
  queryMs: number;
}

export interface ServerStartup {
  runner: 'dist' | 'tsx';
  runnerReason: string;
  /** The folder served (FRONTDOOR_BENCH_STARTUP_DIR, or the docs corpus). */
  corpus: string;
  pages: number;
  /** The Markdown files' bytes, and the snapshot's the cold start wrote (content-snapshot.bin). */
  markdownBytes: number;
  snapshotBytes: number;
  cold: ServerRun;
  warm: ServerRun;
  /**
   * A third start from the snapshot after the kernel's page cache was dropped (a reboot, a new
   * container on a kept volume): only with FRONTDOOR_BENCH_DROP_CACHES=1, as root.
   */
  uncached: Pick<ServerRun, 'source' | 'startupMs' | 'timings' | 'spawnToFirstAnswerMs'> | null;
  /** In the warm server: one page changed, then SIGHUP. */
  reload: {
    ms: number;
    rssAfterMB: number;
    rssAfterQueriesMB: number;
    /** From the server's "content reloaded" line: its phases (ms) and the files it read and parsed. */
    timings: { readMs: number; buildMs: number; indexMs: number; totalMs: number };
    filesRead: number;
    filesParsed: number;
    /** Passages the worker analysed (the rest of the analysis was kept from the build before). */
    passagesAnalysed: number;
  };
  /** In the warm server after the reload: every page of the sitemap fetched once, as a crawler does. */
  crawl: { pages: number; ms: number; megabytes: number; rssAfterMB: number };
}

const peakRssMB = (pid: number): number =>
  Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** The bytes of every `.md` file under `dir`. */
function markdownBytesOf(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile() && entry.name.endsWith('.md'))
      total += statSync(path.join(entry.parentPath ?? entry.path, entry.name)).size;
  return total;
}

const rssMB = (pid: number): number => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
};

/** Distinct questions from the corpus's file names (tldr commands, cheat sheet topics), shuffled. */
function distinctQuestions(contentDir: string): string[] {
  const names = new Set<string>();
  for (const file of readdirSync(contentDir, { recursive: true }) as string[])
    if (file.endsWith('.md')) names.add(path.basename(file, '.md').replace(/[_-]+/g, ' ').toLowerCase());
  const words = [...names].sort();
  const random = seededRandom(13);
  const out: string[] = [];
  for (let i = 0; i < 200_000; i++) {
    const a = words[Math.floor(random() * words.length)]!;
    const b = words[Math.floor(random() * words.length)]!;
    out.push(`how to ${a} with ${b} ${i}`);
  }
  return out;
}

interface Spawned {
  child: ChildProcess;
  lines: string[];
  waitFor: (
    test: (record: Record<string, unknown>) => boolean,
    what: string,
    since?: number,
  ) => Promise<Record<string, unknown>>;
  /** How many log records so far. */
  recordCount: () => number;
}

function start(entry: ServerEntry, env: Record<string, string>, timeoutMs: number): Spawned {
  const child = spawnServer(
    entry,
    { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    { stdout: 'pipe' },
  );
  const lines: string[] = [];
  const records: Record<string, unknown>[] = [];
  const waiters: {
    test: (record: Record<string, unknown>) => boolean;
    done: (r: Record<string, unknown>) => void;
  }[] = [];
  createInterface({ input: child.stdout! }).on('line', (text) => {
    lines.push(text);
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return; // not a log record
    }
    records.push(record);
    for (const waiter of [...waiters])
      if (waiter.test(record)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.done(record);
      }
  });
  // A record already logged counts (from `since`, an index into the records so far).
  const waitFor = (test: (record: Record<string, unknown>) => boolean, what: string, since = 0) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const logged = records.slice(since).find(test);
      if (logged) return resolve(logged);
      const timer = setTimeout(() => reject(new Error(`no ${what} in ${timeoutMs} ms`)), timeoutMs);
      child.once('exit', (code) => reject(new Error(`server exited with ${code} before ${what}`)));
      waiters.push({
        test,
        done: (record) => {
          clearTimeout(timer);
          resolve(record);
        },
      });
    });
  return { child, lines, waitFor, recordCount: () => records.length };
}

const isListening = (r: Record<string, unknown>) =>
  typeof r.msg === 'string' && r.msg.startsWith('frontdoor listening');

/** Asks `questions` from `connections` keep-alive clients for `ms`; returns how many were answered. */
async function askFor(
  url: string,
  questions: string[],
  from: number,
  ms: number,
  connections = 4,
): Promise<number> {
  let next = from;
  const until = performance.now() + ms;
  let answered = 0;
  const client = async () => {
    while (performance.now() < until) {
      const text = questions[next++ % questions.length]!;
      const response = await fetch(`${url}/ask?query=${encodeURIComponent(text)}`);
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`/ask answered ${response.status}`);
      answered++;
    }
  };
  await Promise.all(Array.from({ length: connections }, client));
  return answered;
}

/**
 * Fetches every page the sitemap lists once, from `connections` keep-alive clients, as a crawler
 * walking the site does: each page is rendered on that request.
 */
async function crawlSitemap(url: string, connections = 4): Promise<ServerStartup['crawl']> {
  const sitemap = await (await fetch(`${url}/sitemap.xml`)).text();
  const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!).pathname);
  if (paths.length === 0) throw new Error('the sitemap lists no page');
  const started = performance.now();
  let next = 0;
  let bytes = 0;
  const client = async () => {
    while (next < paths.length) {
      const response = await fetch(`${url}${paths[next++]!}`);
      bytes += (await response.arrayBuffer()).byteLength;
      if (response.status !== 200) throw new Error(`a page answered ${response.status}`);
    }
  };
  await Promise.all(Array.from({ length: connections }, client));
  return { pages: paths.length, ms: performance.now() - started, megabytes: bytes / 1e6, rssAfterMB: 0 };
}

/**
 * Starts `frontdoor serve` on a copy of the corpus twice with one DATA_DIR: cold (no snapshot: parse
 * and index) and warm (from the snapshot the first run wrote). Each time: spawn to first answer,
 * the logged start-up breakdown, RSS after start-up and after `queryMs` of distinct questions. In
 * the warm server, a page is then changed and SIGHUP sent: reload time and RSS after it; then every
 * page of the sitemap is fetched once, and RSS read again.
 */
export async function measureServerStartup(
  corpusDir: string,
  queryMs = Number(process.env.FRONTDOOR_BENCH_MEMORY_SECONDS ?? 60) * 1000,
  timeoutMs = 120_000,
): Promise<ServerStartup> {
  const entry = serverEntry();
  const work = mkdtempSync(path.join(tmpdir(), 'fd-bench-startup-'));
  const contentDir = path.join(work, 'content');
  cpSync(corpusDir, contentDir, { recursive: true });
  const copied = Date.now();
  const questions = distinctQuestions(contentDir);
  // A deployed site's files are older than the stamps' settle time when its server starts: just
  // copied, they would be read again at every start until they settle (see STAMP_SETTLE_MS).
  await new Promise((resolve) =>
    setTimeout(resolve, Math.max(0, copied + STAMP_SETTLE_MS + 100 - Date.now())),
  );
  const env = { CONTENT_DIR: contentDir, DATA_DIR: path.join(work, 'data'), CONTENT_WATCH: 'off' };
  let asked = 0;
  let pages = 0;
  /** Spawns the server and asks its first question. */
  const firstAnswer = async () => {
    const spawned = performance.now();
    const server = start(entry, env, timeoutMs);
    const listening = await server.waitFor(isListening, '"frontdoor listening" line');
    const url = /on (http:\/\/\S+) /.exec(String(listening.msg))![1]!;
    const first = await fetch(`${url}/ask?query=${encodeURIComponent(questions[asked++]!)}`);
    await first.arrayBuffer();
    if (first.status !== 200) throw new Error(`first /ask answered ${first.status}`);
    const spawnToFirstAnswerMs = performance.now() - spawned;
    const content = listening.content as Record<string, unknown>;
    const timings: Record<string, number> = {};
    for (const [name, value] of Object.entries({
      ...content,
      contextMs: listening.contextMs,
      appMs: listening.appMs,
    }))
      if (typeof value === 'number') timings[name] = value;
    return { server, url, listening, content, timings, spawnToFirstAnswerMs };
  };
  const run = async (): Promise<{ run: ServerRun; server: Spawned; url: string }> => {
    const { server, url, listening, content, timings, spawnToFirstAnswerMs } = await firstAnswer();
    if (content.source === 'built')
      await server.waitFor((r) => r.msg === 'content snapshot saved', 'snapshot saved');
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const rssAfterStartMB = rssMB(server.child.pid!);
    const peakMB = peakRssMB(server.child.pid!);
    const queryStarted = performance.now();
    const queries = await askFor(url, questions, asked, queryMs);
    asked += queries;
    const measuredQueryMs = performance.now() - queryStarted;
    pages = Number(listening.pages);
    // Printed at once: a later step (the reload, the crawl) failing keeps these numbers.
    console.log(
      `  ${String(content.source)} start: first answer ${(spawnToFirstAnswerMs / 1000).toFixed(2)} s after spawn, ` +
        `peak RSS ${peakMB.toFixed(0)} MB, RSS ${rssAfterStartMB.toFixed(0)} MB 3 s later, ` +
        `${rssMB(server.child.pid!).toFixed(0)} MB after ${queries} distinct questions in ${(measuredQueryMs / 1000).toFixed(0)} s ` +
        `(issue 35's targets on a ~40 MB site: first answer ≤ ${content.source === 'built' ? BIG_SITE_TARGETS.coldStartS : BIG_SITE_TARGETS.warmStartS} s, ` +
        `${content.source === 'built' ? `peak ≤ ${BIG_SITE_TARGETS.coldPeakMB} MB, ` : ''}after the questions ≤ ${BIG_SITE_TARGETS.afterQuestionsMB} MB)`,
    );
    return {
      server,
      url,
      run: {
        source: String(content.source),
        startupMs: Number(listening.startupMs),
        timings,
        spawnToFirstAnswerMs,
        rssAfterStartMB,
        peakRssMB: peakMB,
        rssAfterQueriesMB: rssMB(server.child.pid!),
        queries,
        queryMs: measuredQueryMs,
      },
    };
  };
  try {
    const cold = await run();
    await stopServer(cold.server.child);
    const snapshotBytes = statSync(path.join(env.DATA_DIR, 'content-snapshot.bin')).size;
    console.log(
      `  snapshot ${(snapshotBytes / 1e6).toFixed(1)} MB for ${(markdownBytesOf(corpusDir) / 1e6).toFixed(1)} MB of Markdown: ` +
        `${(snapshotBytes / markdownBytesOf(corpusDir)).toFixed(2)}× (target ≤ ${BIG_SITE_TARGETS.snapshotRatio}×)`,
    );
    const warm = await run();
    try {
      // A page of the docs corpus, or the first Markdown file of another folder.
      const docsPage = path.join(contentDir, 'tldr-pages', 'common', 'tar.md');
      const tar = existsSync(docsPage) ? docsPage : firstMarkdownFile(contentDir);
      writeFileSync(
        tar,
        `${readFileSync(tar, 'utf8')}\n- Changed for the reload benchmark:\n\n\`tar --version\`\n`,
      );
      const before = warm.server.recordCount();
      warm.server.child.kill('SIGHUP');
      const record = await warm.server.waitFor(
        (r) => r.msg === 'content reloaded',
        '"content reloaded" line',
        before,
      );
      await warm.server.waitFor(
        (r) => r.msg === 'content snapshot saved',
        'snapshot saved after the reload',
        before,
      );
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const rssAfterMB = rssMB(warm.server.child.pid!);
      asked += await askFor(warm.url, questions, asked, Math.min(queryMs, 20_000));
      const reload = {
        ms: Number(record.ms),
        rssAfterMB,
        rssAfterQueriesMB: rssMB(warm.server.child.pid!),
        timings: record.timings as ServerStartup['reload']['timings'],
        filesRead: Number(record.filesRead),
        filesParsed: Number(record.filesParsed),
        passagesAnalysed: Number(record.passagesAnalysed),
      };
      const crawled = await crawlSitemap(warm.url);
      const crawl = { ...crawled, rssAfterMB: rssMB(warm.server.child.pid!) };
      await stopServer(warm.server.child);
      let uncached: ServerStartup['uncached'] = null;
      if (process.env.FRONTDOOR_BENCH_DROP_CACHES === '1') {
        execFileSync('sync');
        writeFileSync('/proc/sys/vm/drop_caches', '3');
        const { server, listening, content, timings, spawnToFirstAnswerMs } = await firstAnswer();
        await stopServer(server.child);
        const startupMs = Number(listening.startupMs);
        uncached = { source: String(content.source), startupMs, timings, spawnToFirstAnswerMs };
      }
      return {
        runner: entry.runner,
        runnerReason: entry.reason,
        corpus: corpusDir,
        pages,
        markdownBytes: markdownBytesOf(corpusDir),
        snapshotBytes,
        cold: cold.run,
        warm: warm.run,
        uncached,
        reload,
        crawl,
      };
    } finally {
      await stopServer(warm.server.child);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function firstMarkdownFile(dir: string): string {
  const entry = readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.md'))
    .map((e) => path.join(e.parentPath ?? e.path, e.name))
    .sort()[0];
  if (entry === undefined) throw new Error(`no Markdown file in ${dir}`);
  return entry;
}

if (
  process.argv[2] === '--child' &&
  process.argv[1] &&
  path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)
) {
  childMain(process.argv[3] as string).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
