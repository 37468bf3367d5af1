import { describe, expect, it } from 'vitest';
import { cpuSecondsOf } from '../../bench/http.js';

describe('cpuSecondsOf (the benchmark’s CPU per request)', () => {
  it('reads a process’s CPU time from /proc, growing as it works', () => {
    const before = cpuSecondsOf(process.pid);
    expect(before).not.toBeNull();
    expect(before).toBeGreaterThan(0);
    // Busy for 300 ms of wall clock: the process's CPU time grows by about as much.
    const until = Date.now() + 300;
    let spin = 0;
    while (Date.now() < until) spin += Math.sqrt(spin + 1);
    expect(spin).toBeGreaterThan(0);
    const after = cpuSecondsOf(process.pid) as number;
    expect(after - (before as number)).toBeGreaterThan(0.05);
  });

  it('gives null for no process or one that is not there', () => {
    expect(cpuSecondsOf(undefined)).toBeNull();
    expect(cpuSecondsOf(2 ** 22 + 12_345)).toBeNull();
  });
});
