/**
 * Part 2b: the latency of 1000-character queries (the longest /ask accepts), over the Cranfield
 * index. The target was once a unit test's wall-clock limit (test/search/ranking.test.ts, "answers
 * a 1000-character query quickly"); it is a speed target, so it lives here: under 200 ms each.
 */

import type { SearchDocument } from '../src/search/index.js';
import { buildIndex, search, type SearchIndex } from '../src/search/index.js';
import { measureLatency, type LatencyMeasure } from './measure.js';
import { seededRandom } from './seeded-random.js';

export const LONG_QUERY_TARGET_MS = 200;
const LONG_QUERY_CHARS = 1000;

export interface LongQueryRow extends LatencyMeasure {
  targetMs: number;
  /** The slowest single run, against the target. */
  maxMs: number;
}

/** Queries of document words with question words and stop words between them, cut at 1000 characters. */
export function longQueries(docs: readonly SearchDocument[], count: number, seed = 99): string[] {
  const words = [...new Set(docs.slice(0, 200).flatMap((d) => d.fields.body.split(/\s+/)))].filter((w) =>
    /^[a-z]{3,}$/.test(w),
  );
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => {
    let q = '';
    while (q.length < LONG_QUERY_CHARS) q += `${words[Math.floor(random() * words.length)]} what how the `;
    return q.slice(0, LONG_QUERY_CHARS);
  });
}

export function measureLongQueries(docs: readonly SearchDocument[], rounds = 5): LongQueryRow {
  const index: SearchIndex = buildIndex(docs);
  const queries = longQueries(docs, 20);
  let maxMs = 0;
  const latency = measureLatency(
    queries,
    (q) => {
      const t0 = performance.now();
      const results = search(index, q, { limit: 10 });
      maxMs = Math.max(maxMs, performance.now() - t0);
      return results;
    },
    rounds,
    10_000,
  );
  return { ...latency, targetMs: LONG_QUERY_TARGET_MS, maxMs };
}

export function longQueryLine(row: LongQueryRow): string {
  const verdict = row.maxMs < row.targetMs ? 'within' : 'OVER';
  return (
    `1000-character queries: p50 ${row.p50Ms.toFixed(2)} ms, p99 ${row.p99Ms.toFixed(2)} ms, ` +
    `max ${row.maxMs.toFixed(2)} ms (${verdict} the ${row.targetMs} ms target)`
  );
}
