import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { createRateLimits, type RateLimits } from '../../src/limits/index.js';
import { createMetrics, type Metrics } from '../../src/metrics/index.js';
import { freePort } from '../support/net.js';
import { REDIS_URL, requireRedis } from './redis.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it returns true (bounded: fails the test after `ms`). */
async function eventually(probe: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await sleep(100);
  }
}

describe('the delivery cap shared by two instances through Redis', () => {
  beforeAll(requireRedis);

  it('grants the quota once across both instances and takes back unused slots', async () => {
    const config = loadConfig({ REDIS_URL, RATE_LIMIT_DELIVERIES: '5/600' }).rateLimits;
    const prefix = `frontdoor-test:${randomBytes(6).toString('hex')}:`;
    const logger = pino({ level: 'silent' });
    const events = [await createMetrics(), await createMetrics()];
    const [a, b] = events.map((metrics) =>
      createRateLimits(config, logger, { events: metrics, redisKeyPrefix: prefix }),
    ) as [RateLimits, RateLimits];
    try {
      expect((await a.deliveries!.reserve(3)).granted).toBe(3);
      const second = await b.deliveries!.reserve(3);
      expect(second.granted).toBe(2);
      expect(second.retryAfterMs).toBeGreaterThan(590_000);
      expect((await a.deliveries!.reserve(1)).granted).toBe(0);
      await b.deliveries!.release(2);
      expect((await a.deliveries!.reserve(4)).granted).toBe(2);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('when the shared Redis goes away and comes back', () => {
  let port: number;
  let redis: ChildProcess | null = null;
  let limits: RateLimits;
  let metrics: Metrics;
  const lines: { level: number; msg: string }[] = [];

  const startRedis = async () => {
    redis = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: 'ignore',
      },
    );
    redis.on('error', () => undefined);
  };
  const stopRedis = async () => {
    const child = redis;
    redis = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  };

  beforeAll(async () => {
    await requireRedis(); // the same binary runs a private server here
    port = await freePort();
    await startRedis();
    metrics = await createMetrics();
    const config = loadConfig({
      REDIS_URL: `redis://127.0.0.1:${port}`,
      RATE_LIMIT_LEADS: '2/600',
    }).rateLimits;
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    limits = createRateLimits(config, logger, { events: metrics });
  });
  afterAll(async () => {
    await limits?.close();
    await stopRedis();
  });

  it('enforces while Redis answers, fails open while it is down, and enforces again once it is back', async () => {
    const client = '203.0.113.77';
    // Wait for the connection with another address: a check that timed out while connecting
    // (answered null) may still be counted once the queued command reaches Redis, which on a busy
    // machine used up the client's quota before the first assertion (CI, Node 24).
    await eventually(async () => (await limits.check('leads', '198.51.100.9')) !== null);
    expect((await limits.check('leads', client))?.allowed).toBe(true);
    expect((await limits.check('leads', client))?.allowed).toBe(true);
    expect((await limits.check('leads', client))?.allowed).toBe(false);

    await stopRedis();
    // Down: every check lets the request through, and says so.
    for (let i = 0; i < 3; i++) expect(await limits.check('leads', client)).toBeNull();
    expect(await metrics.render()).toMatch(/frontdoor_rate_limit_store_failures_total [3-9]/);
    expect(lines.some((l) => l.level === 40 && /failing open/.test(l.msg))).toBe(true);

    // Back (empty: this Redis keeps nothing): the client reconnects by itself and limits apply again.
    await startRedis();
    await eventually(async () => (await limits.check('leads', client)) !== null);
    expect((await limits.check('leads', client))?.allowed).toBe(false);
  });
});
