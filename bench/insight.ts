/**
 * Insight's cost per request, in-process: what `InsightRecorder.search` and `.response` add to a
 * request, measured over many calls against a real SQLite store (flushes included at the end).
 * The HTTP bench (http.ts) compares /ask throughput with insight on and off; on a busy shared
 * machine that ratio is noisy, and this number says what the difference can be at most.
 * `npx tsx bench/insight.ts` runs it alone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { createInsightRecorder, openInsightStore } from '../src/insight/index.js';
import type { AnswerSummary } from '../src/nlweb/index.js';
import { POPULAR_QUERIES } from './http.js';

export interface InsightBenchResult {
  /** A popular text from one client: below k all day, so every call hashes the client (worst case). */
  searchBelowKNs: number;
  /** A popular text already released (k clients asked it): a few map updates. */
  searchReleasedNs: number;
  /** A text never asked before: normalised, tracked, hashed. */
  searchNewTextNs: number;
  /** Any other public response (not a discovery document): the path check. */
  responseNs: number;
  /** Writing what the calls above counted (one transaction). */
  flushMs: number;
}

const FOUND: AnswerSummary = { resultCount: 10, queryTermCount: 3, weak: false, topScore: 12 };
const BROWSER = {
  'user-agent':
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'accept-language': 'en-GB',
};

/** Median of `rounds` timings of `calls` calls, in ns per call. */
function perCall(rounds: number, calls: number, call: (i: number) => void): number {
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) call(r * calls + i);
    times.push(Number(process.hrtime.bigint() - started) / calls);
  }
  times.sort((a, b) => a - b);
  return Math.round(times[times.length >> 1]!);
}

export async function runInsightBench(calls = 200_000, rounds = 7): Promise<InsightBenchResult> {
  const dir = mkdtempSync(path.join(tmpdir(), 'fd-bench-insight-'));
  const store = await openInsightStore({ kind: 'sqlite', file: path.join(dir, 'frontdoor.sqlite') });
  const recorder = createInsightRecorder({
    store,
    logger: pino({ level: 'silent' }),
    minClients: 3,
    retentionMonths: 13,
    flushIntervalMs: 600_000,
  });
  try {
    const popular = POPULAR_QUERIES;
    const belowK = perCall(rounds, calls, (i) =>
      recorder.search('get', popular[i % popular.length]!, FOUND, BROWSER, '192.0.2.1'),
    );
    // Three clients release every popular text.
    for (const address of ['192.0.2.2', '192.0.2.3'])
      for (const text of popular) recorder.search('get', text, FOUND, BROWSER, address);
    const released = perCall(rounds, calls, (i) =>
      recorder.search('get', popular[i % popular.length]!, FOUND, BROWSER, '192.0.2.4'),
    );
    const texts = Array.from({ length: calls }, (_, i) => `where is the document number ${i}`);
    const newText = perCall(rounds, calls / 10, (i) =>
      recorder.search('get', texts[i % calls]!, FOUND, BROWSER, '192.0.2.1'),
    );
    const response = perCall(rounds, calls, () => recorder.response('/pricing', 200, 'text/html', BROWSER));
    const started = performance.now();
    await recorder.flush();
    const flushMs = Math.round((performance.now() - started) * 10) / 10;
    return {
      searchBelowKNs: belowK,
      searchReleasedNs: released,
      searchNewTextNs: newText,
      responseNs: response,
      flushMs,
    };
  } finally {
    await recorder.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runInsightBench().then(
    (result) => console.log(JSON.stringify(result, null, 2)),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
