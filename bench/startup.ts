/**
 * Start-up of the docs corpus, each in a fresh process so earlier parts of the run do not pollute
 * the numbers:
 *
 * - the pipeline (`loadSite` = read + render + passages, then `createAskService` = index), timed
 *   in a child Node process that runs this file with `--child`, with its peak RSS and heap;
 * - the whole server (`frontdoor serve` with CONTENT_DIR at the corpus, PORT=0, LOG_LEVEL=info),
 *   reading the `startupMs` it logs in its "frontdoor listening" line.
 */

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import { repoRoot } from './paths.js';
import { serverEntry, spawnServer, stopServer } from './server.js';

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

export interface ServerStartup {
  runner: 'dist' | 'tsx';
  runnerReason: string;
  pages: number;
  /** What the server logs: from the start of startServer() to listening. */
  startupMs: number;
  /** From spawning the process to reading that line (adds Node start-up and module loading). */
  spawnToListeningMs: number;
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

/**
 * Starts `frontdoor serve` on the corpus and reads its "frontdoor listening" log line. The
 * database goes to a temporary folder, removed afterwards.
 */
export async function measureServerStartup(contentDir: string, timeoutMs = 60_000): Promise<ServerStartup> {
  const entry = serverEntry();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fd-bench-startup-'));
  const spawned = performance.now();
  const child = spawnServer(
    entry,
    { CONTENT_DIR: contentDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', DATA_DIR: dataDir },
    { stdout: 'pipe' },
  );
  try {
    const line = await new Promise<{ startupMs: number; pages: number; at: number }>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no "frontdoor listening" line in ${timeoutMs} ms`)),
        timeoutMs,
      );
      child.once('exit', (code) => reject(new Error(`server exited with ${code} before listening`)));
      createInterface({ input: child.stdout! }).on('line', (text) => {
        let record: { msg?: unknown; startupMs?: unknown; pages?: unknown };
        try {
          record = JSON.parse(text) as typeof record;
        } catch {
          return; // not a log record
        }
        if (typeof record.msg === 'string' && record.msg.startsWith('frontdoor listening')) {
          clearTimeout(timer);
          resolve({
            startupMs: Number(record.startupMs),
            pages: Number(record.pages),
            at: performance.now(),
          });
        }
      });
    });
    return {
      runner: entry.runner,
      runnerReason: entry.reason,
      pages: line.pages,
      startupMs: line.startupMs,
      spawnToListeningMs: line.at - spawned,
    };
  } finally {
    await stopServer(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
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
