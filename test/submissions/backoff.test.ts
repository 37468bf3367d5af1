import { describe, expect, it } from 'vitest';
import { parseRetryAfter, retryDelayMs } from '../../src/submissions/backoff.js';

const policy = { retryBaseMs: 100, retryMaxMs: 1_000 };

describe('retryDelayMs', () => {
  it('doubles the ceiling per failed attempt up to the maximum (full jitter at the top)', () => {
    const top = () => 0.999_999_9;
    expect([1, 2, 3, 4, 5, 6].map((n) => retryDelayMs(policy, n, null, top))).toEqual([
      100, 200, 400, 800, 1_000, 1_000,
    ]);
  });

  it('can be anything from zero up to the ceiling', () => {
    expect(retryDelayMs(policy, 3, null, () => 0)).toBe(0);
    expect(retryDelayMs(policy, 3, null, () => 0.5)).toBe(200);
    const seen = new Set<number>();
    for (let i = 0; i < 200; i += 1) {
      const delay = retryDelayMs(policy, 4, null);
      expect(delay).toBeGreaterThanOrEqual(0);
      expect(delay).toBeLessThanOrEqual(800);
      seen.add(delay);
    }
    expect(seen.size).toBeGreaterThan(50);
  });

  it('honours Retry-After as the earliest time, capped at the maximum', () => {
    expect(retryDelayMs(policy, 1, 700, () => 0)).toBe(700);
    expect(retryDelayMs(policy, 5, 10, () => 0.999)).toBe(999);
    expect(retryDelayMs(policy, 1, 86_400_000, () => 0)).toBe(1_000);
  });

  it('stays finite for very large attempt numbers', () => {
    expect(retryDelayMs(policy, 10_000, null, () => 0.999_999_9)).toBe(1_000);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.UTC(2026, 0, 1, 12, 0, 0);
  it('reads delta seconds', () => {
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter(' 120 ', now)).toBe(120_000);
  });
  it('reads an HTTP date', () => {
    expect(parseRetryAfter('Thu, 01 Jan 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 11:00:00 GMT', now)).toBe(0);
  });
  it('ignores what it cannot read', () => {
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter('-5', now)).toBeNull();
  });
});
