/** Parts 2 and 3: build time, retained memory and per-query latency of each engine. */

import type { SearchDocument } from '../src/search/index.js';
import { analyze } from '../src/search/index.js';
import type { Engine } from './engines.js';
import type { LatencyMeasure } from './measure.js';
import { gc, measureBuild, measureLatency } from './measure.js';

export interface SpeedRow extends LatencyMeasure {
  name: string;
  documents: number;
  buildMs: number;
  retainedMB: number;
}

export interface SpeedOptions {
  /** Timed passes over the query set (fewer if the time budget runs out). */
  rounds: number;
  /** Time budget for the timed passes of one engine, ms. */
  budgetMs: number;
  /** Builds to time (the median is reported; memory is from the last). */
  builds: number;
}

/**
 * Runs every document through the analyzer once, so that its word → stem cache is already full
 * and is not counted in the memory of whichever engine is built first.
 */
export function warmAnalyzer(docs: readonly SearchDocument[]): void {
  for (const d of docs) {
    analyze(d.fields.title);
    analyze(d.fields.headings);
    analyze(d.fields.body);
  }
}

export function measureEngine(
  engine: Engine,
  docs: readonly SearchDocument[],
  queries: readonly string[],
  opts: SpeedOptions,
): SpeedRow {
  const times: number[] = [];
  let retained = 0;
  let index: unknown;
  for (let i = 0; i < opts.builds; i++) {
    index = undefined;
    const b = measureBuild(() => engine.build(docs));
    times.push(b.buildMs);
    retained = b.retainedBytes;
    index = b.value;
  }
  times.sort((a, b) => a - b);
  const built = index;
  const latency = measureLatency(queries, (q) => engine.query(built, q, 10), opts.rounds, opts.budgetMs);
  index = undefined;
  gc();
  return {
    name: engine.name,
    documents: docs.length,
    buildMs: times[Math.floor(times.length / 2)] as number,
    retainedMB: retained / (1024 * 1024),
    ...latency,
  };
}
