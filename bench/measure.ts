/** Timing and memory helpers for the benchmark. */

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gcFn = runInNewContext('gc') as (() => void) | undefined;

/** Full garbage collection (twice, so finalizers run). */
export function gc(): void {
  if (gcFn) {
    gcFn();
    gcFn();
  }
}

/** Heap plus ArrayBuffer memory (typed arrays live outside the JS heap). */
export function usedBytes(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] as number;
}

export interface BuildMeasure<T> {
  value: T;
  buildMs: number;
  /** Memory retained by the built index (after GC), bytes. */
  retainedBytes: number;
}

/** Build once (after a GC) and measure time and retained memory. */
export function measureBuild<T>(build: () => T): BuildMeasure<T> {
  gc();
  const before = usedBytes();
  const t0 = performance.now();
  const value = build();
  const buildMs = performance.now() - t0;
  gc();
  const retainedBytes = usedBytes() - before;
  return { value, buildMs, retainedBytes };
}

export interface LatencyMeasure {
  queries: number;
  runs: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  /**
   * CPU time of this process over wall time during the timed passes: near 1 on an idle machine,
   * lower when other processes compete for the cores (wall-clock latencies are then inflated).
   */
  cpuShare: number;
  /**
   * Per-query CPU time (process.cpuUsage around each call, its own cost subtracted), from one
   * more pass (or an even sample of it): what the query costs, whatever else the machine does.
   */
  cpuP50Ms: number;
  cpuP99Ms: number;
}

function cpuMicros(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

/** Median cost of one cpuMicros() pair, in µs. */
function cpuProbeCost(): number {
  const xs: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const a = cpuMicros();
    xs.push(cpuMicros() - a);
  }
  xs.sort((a, b) => a - b);
  return xs[xs.length >> 1] as number;
}

/**
 * Per-query latency: one warm-up pass, then `rounds` passes over all queries; every call timed on
 * its own (wall clock). Rounds stop early once `budgetMs` is spent (at least one timed round runs).
 */
export function measureLatency(
  queries: readonly string[],
  run: (q: string) => unknown,
  rounds: number,
  budgetMs = Infinity,
): LatencyMeasure {
  for (const q of queries) run(q);
  const times: number[] = [];
  const start = performance.now();
  const cpu0 = process.cpuUsage();
  let r = 0;
  while (r < rounds) {
    for (const q of queries) {
      const t0 = performance.now();
      run(q);
      times.push(performance.now() - t0);
    }
    r++;
    if (performance.now() - start > budgetMs) break;
  }
  const cpu = process.cpuUsage(cpu0);
  const wall = performance.now() - start;
  times.sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;

  // One more pass for CPU time; when a full pass would overrun half the budget, every k-th query
  // (an even, deterministic sample of the same set).
  const probe = cpuProbeCost();
  const cpuTimes: number[] = [];
  const stride = Math.max(1, Math.ceil(wall / r / (budgetMs / 2)));
  for (let i = 0; i < queries.length; i += stride) {
    const q = queries[i] as string;
    const a = cpuMicros();
    run(q);
    cpuTimes.push(Math.max(0, cpuMicros() - a - probe) / 1000);
  }
  cpuTimes.sort((a, b) => a - b);
  return {
    queries: queries.length,
    runs: r,
    p50Ms: percentile(times, 50),
    p99Ms: percentile(times, 99),
    meanMs: mean,
    cpuShare: (cpu.user + cpu.system) / 1000 / wall,
    cpuP50Ms: percentile(cpuTimes, 50),
    cpuP99Ms: percentile(cpuTimes, 99),
  };
}

export const mb = (bytes: number): string => (bytes / (1024 * 1024)).toFixed(1);
export const ms = (v: number, digits = 3): string => v.toFixed(digits);
