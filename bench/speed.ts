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

/** Frontdoor against a peer, measured in alternating passes (see headToHead). */
export interface HeadToHead {
  ours: string;
  peer: string;
  rounds: number;
  /** Per round: the peer's p50 ÷ ours, each from that round's pass over every query. */
  ratios: number[];
  /** Median of the rounds' ratios. */
  ratio: number;
}

function medianOf(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * "How many times faster" with both engines measured in alternating passes (ours over every query,
 * then the peer's, then ours again …), each ratio taken within one round: on a shared machine
 * whose speed drifts over seconds, engines measured one after the other minutes apart can differ
 * by the drift alone. Both indexes are built first and live side by side.
 */
export function headToHead(
  ours: Engine,
  peer: Engine,
  docs: readonly SearchDocument[],
  queries: readonly string[],
  rounds: number,
): HeadToHead {
  const engines = [ours, peer];
  const indexes = engines.map((e) => e.build(docs));
  /** `passes` passes of engine i over every query; the median time of one query. */
  const timed = (i: number, passes: number): number => {
    const engine = engines[i] as Engine;
    const index = indexes[i];
    const times: number[] = [];
    for (let pass = 0; pass < passes; pass++) {
      for (const q of queries) {
        const t0 = performance.now();
        engine.query(index, q, 10);
        times.push(performance.now() - t0);
      }
    }
    return medianOf(times);
  };
  const duration = (i: number): number => {
    const t0 = performance.now();
    timed(i, 1);
    return performance.now() - t0;
  };
  // Warm-up, and the faster engine repeats its pass so that both sides of a round last about as
  // long (a short pass would sample the machine's speed in one instant only).
  duration(0);
  duration(1);
  const repeats = Math.min(20, Math.max(1, Math.round(duration(1) / duration(0))));
  const ratios: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const oursP50 = timed(0, repeats);
    ratios.push(timed(1, 1) / oursP50);
  }
  return { ours: ours.name, peer: peer.name, rounds, ratios, ratio: medianOf(ratios) };
}
