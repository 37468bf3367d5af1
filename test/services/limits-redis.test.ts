import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, uniqueEmail } from '../support/client.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { REDIS_URL, requireRedis } from './redis.js';

// Every run uses fresh client networks, so counts left in Redis by an earlier run never matter.
const randomClient = () =>
  `2001:db8:${randomInt(0x10000).toString(16)}:${randomInt(0x10000).toString(16)}::${randomInt(1, 0xffff).toString(16)}`;

describe('limits shared by two instances through Redis', () => {
  let first: TestServer;
  let second: TestServer;

  beforeAll(async () => {
    await requireRedis();
    const env = {
      REDIS_URL,
      TRUST_PROXY_HOPS: '1',
      RATE_LIMIT_LEADS: '3/600',
      RATE_LIMIT_ASK: '4/600',
    };
    // Two instances with their own databases: only Redis is shared.
    first = await startTestServer({ env });
    second = await startTestServer({ env });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  it('counts one client across both instances for demo requests', async () => {
    expect(first.context.limits.shared).toBe(true);
    const client = { 'x-forwarded-for': randomClient() };
    const lead = () => ({ name: 'Dana Reyes', email: uniqueEmail() });
    const statuses: number[] = [];
    statuses.push((await post(first.url, '/api/leads', 'json', lead(), client)).status);
    statuses.push((await post(second.url, '/api/leads', 'json', lead(), client)).status);
    statuses.push((await post(first.url, '/api/leads', 'json', lead(), client)).status);
    const refused = await post(second.url, '/api/leads', 'json', lead(), client);
    statuses.push(refused.status);
    statuses.push((await post(first.url, '/api/leads', 'json', lead(), client)).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(refused.headers.get('ratelimit')).toMatch(/^"leads";r=0;t=\d+$/);
    // Another client is not affected.
    const other = { 'x-forwarded-for': randomClient() };
    expect((await post(second.url, '/api/leads', 'json', lead(), other)).status).toBe(200);
  });

  it('shares the /ask counts between instances (each charged at once)', async () => {
    const client = { 'x-forwarded-for': randomClient() };
    const ask = (server: TestServer) =>
      fetch(`${server.url}/ask?query=clinical%20trial`, { headers: client }).then((r) => r.status);
    const settle = () => new Promise((resolve) => setTimeout(resolve, 400));
    expect([await ask(first), await ask(first)]).toEqual([200, 200]);
    await settle();
    expect([await ask(second), await ask(second)]).toEqual([200, 200]);
    await settle();
    // Four used in all. Each instance learns that when it next charges a request: at most one
    // more request gets through on each, then both instances refuse this client.
    expect([200, 429]).toContain(await ask(first));
    expect([200, 429]).toContain(await ask(second));
    await settle();
    expect(await ask(first)).toBe(429);
    expect(await ask(second)).toBe(429);
  });
});

describe('a burst to two instances through Redis (issue 37, finding 7)', () => {
  const QUOTA = 30;
  let first: TestServer;
  let second: TestServer;

  beforeAll(async () => {
    await requireRedis();
    const env = { REDIS_URL, TRUST_PROXY_HOPS: '1', RATE_LIMIT_ASK: `${QUOTA}/60` };
    first = await startTestServer({ env });
    second = await startTestServer({ env });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  it.each([1, 2, 3])(
    'holds the shared quota within one request per instance when 100 requests reach each at once (trial %i)',
    async () => {
      const client = { 'x-forwarded-for': randomClient() };
      const burst = (server: TestServer) =>
        Array.from({ length: 100 }, () =>
          fetch(`${server.url}/ask?query=clinical%20trial`, { headers: client }).then(async (response) => {
            await response.arrayBuffer();
            return response.status;
          }),
        );
      const statuses = await Promise.all([...burst(first), ...burst(second)]);
      const allowed = statuses.filter((status) => status === 200).length;
      expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
      // The quota, plus at most one per instance (granted while its charge found the quota used up);
      // the requests that waited for a charge were answered, not refused, while there was room.
      expect(allowed).toBeLessThanOrEqual(QUOTA + 2);
      expect(allowed).toBeGreaterThanOrEqual(QUOTA);
      // Once the burst is over, both refuse this client for the rest of the window.
      const after = await Promise.all(
        [first, second].map((server) =>
          fetch(`${server.url}/ask?query=clinical%20trial`, { headers: client }).then(
            (response) => response.status,
          ),
        ),
      );
      expect(after).toEqual([429, 429]);
    },
  );
});
