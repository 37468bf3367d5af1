import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { createRateLimits } from '../../../src/limits/index.js';
import { createMetrics } from '../../../src/metrics/index.js';
import type { PublishedContract } from '../../support/openapi.js';
import { expectContract, post, uniqueEmail, type Answer } from '../../support/client.js';
import { waitFor } from '../../support/net.js';
import { startTestServer, type TestServer } from '../../support/servers.js';

const LEADS = '/api/leads';
const SUGGESTIONS = '/api/document-suggestions';
const lead = () => ({ name: 'Dana Reyes', email: uniqueEmail() });
const suggestion = () => ({
  companyType: 'cro',
  persona: 'study-start-up',
  suggestion: `A site activation checklist ${uniqueEmail()}`,
});
/** One client behind the trusted proxy. */
const from = (address: string) => ({ 'x-forwarded-for': address });

function expect429(answer: Answer, limit: string, quota: number, windowSeconds: number) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(429);
  const retryAfter = Number(answer.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= windowSeconds).toBe(true);
  expect(answer.headers.get('ratelimit-policy')).toBe(`"${limit}";q=${quota};w=${windowSeconds}`);
  expect(answer.headers.get('ratelimit')).toBe(`"${limit}";r=0;t=${retryAfter}`);
}

describe('per-client limits on the write operations', () => {
  let server: TestServer;
  let contract: PublishedContract;
  beforeAll(async () => {
    server = await startTestServer({
      env: { RATE_LIMIT_LEADS: '2/600', RATE_LIMIT_SUGGESTIONS: '1/300', TRUST_PROXY_HOPS: '1' },
    });
    contract = await server.contract();
  });
  afterAll(() => server.close());

  it('answers 429 RATE_LIMITED with Retry-After and the RateLimit fields once the quota is used', async () => {
    const client = from('198.51.100.10');
    const first = await post(server.url, LEADS, 'json', lead(), client);
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-policy')).toBe('"leads";q=2;w=600');
    expect(first.headers.get('ratelimit')).toBe('"leads";r=1;t=600');
    expect(first.headers.get('retry-after')).toBeNull();
    expect((await post(server.url, LEADS, 'form', lead(), client)).status).toBe(200);

    const stored = (await server.submissions.store.list({ limit: 1000 })).length;
    const refused = await post(server.url, LEADS, 'json', lead(), client);
    expect429(refused, 'leads', 2, 600);
    expectContract(contract, LEADS, refused);
    expect(refused.body).toMatchObject({ ok: false, code: 'RATE_LIMITED', error: 'Too many requests' });
    expect(String(refused.body.message)).toContain('at most 2 every 600 seconds');
    // Nothing was stored for the refused submission.
    expect((await server.submissions.store.list({ limit: 1000 })).length).toBe(stored);
  });

  it('does not count invalid submissions', async () => {
    const client = from('198.51.100.11');
    for (let i = 0; i < 3; i++)
      expect((await post(server.url, LEADS, 'json', { name: 'Dana' }, client)).status).toBe(400);
    expect((await post(server.url, LEADS, 'json', lead(), client)).status).toBe(200);
  });

  it('counts suggestions apart from demo requests', async () => {
    const client = from('198.51.100.12');
    expect((await post(server.url, SUGGESTIONS, 'json', suggestion(), client)).status).toBe(201);
    expect429(await post(server.url, SUGGESTIONS, 'json', suggestion(), client), 'suggestions', 1, 300);
    expect((await post(server.url, LEADS, 'json', lead(), client)).status).toBe(200);
  });

  it('applies the same limit to the HTML form, which is no way around it', async () => {
    const client = from('198.51.100.13');
    const form = (body: Record<string, string>) => {
      const payload = new URLSearchParams(body).toString();
      return fetch(`${server.url}/forms/demo-request`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...client },
        body: payload,
      });
    };
    expect((await post(server.url, LEADS, 'json', lead(), client)).status).toBe(200);
    expect((await form(lead())).status).toBe(303);
    const refused = await form(lead());
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await refused.text()).toContain('Too many forms sent from your address');
  });

  it('documents 429 with its headers on every limited operation in /openapi.json', () => {
    for (const [method, path] of [
      ['post', LEADS],
      ['post', SUGGESTIONS],
      ['get', '/ask'],
      ['post', '/ask'],
    ] as const) {
      const response = contract.doc.paths[path]![method]!.responses['429'] as unknown as {
        headers: Record<string, unknown>;
      };
      expect(response, `${method} ${path}`).toBeDefined();
      expect(Object.keys(response.headers)).toEqual(
        expect.arrayContaining(['Retry-After', 'RateLimit', 'RateLimit-Policy']),
      );
    }
  });
});

describe('client addresses behind trusted proxies', () => {
  const send = (server: TestServer, forwardedFor: string) =>
    post(server.url, LEADS, 'json', lead(), { 'x-forwarded-for': forwardedFor });

  it('takes the address the trusted proxy saw, not one a client wrote in front of it', async () => {
    const server = await startTestServer({ env: { RATE_LIMIT_LEADS: '1/600', TRUST_PROXY_HOPS: '1' } });
    try {
      expect((await send(server, '203.0.113.50')).status).toBe(200);
      // The same client, prefixing a made-up address: the proxy appended the real one last.
      expect((await send(server, '192.0.2.99, 203.0.113.50')).status).toBe(429);
      expect((await send(server, '203.0.113.51')).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('groups IPv6 clients by /64', async () => {
    const server = await startTestServer({ env: { RATE_LIMIT_LEADS: '1/600', TRUST_PROXY_HOPS: '1' } });
    try {
      expect((await send(server, '2001:db8:aa:1::1')).status).toBe(200);
      expect((await send(server, '2001:db8:aa:1:ffff:0:0:9')).status).toBe(429);
      expect((await send(server, '2001:db8:aa:2::1')).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('ignores X-Forwarded-For without trusted proxies (a rotating header does not bypass the limit)', async () => {
    const server = await startTestServer({ env: { RATE_LIMIT_LEADS: '1/600' } });
    try {
      expect((await send(server, '203.0.113.1')).status).toBe(200);
      expect((await send(server, '203.0.113.2')).status).toBe(429);
    } finally {
      await server.close();
    }
  });

  it('walks two trusted hops', async () => {
    const server = await startTestServer({ env: { RATE_LIMIT_LEADS: '1/600', TRUST_PROXY_HOPS: '2' } });
    try {
      // client, then the first proxy's address, appended by the second proxy; the socket is the second.
      expect((await send(server, '203.0.113.70, 10.0.0.1')).status).toBe(200);
      expect((await send(server, '203.0.113.70, 10.0.0.2')).status).toBe(429);
      expect((await send(server, '203.0.113.71, 10.0.0.1')).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('the /ask limit', () => {
  let server: TestServer;
  let contract: PublishedContract;
  beforeAll(async () => {
    // METRICS_PORT: the refusals are counted in the metrics, which exist only with an admin listener.
    server = await startTestServer({
      env: { RATE_LIMIT_ASK: '3/60', TRUST_PROXY_HOPS: '1', METRICS_PORT: '0' },
    });
    contract = await server.contract();
  });
  afterAll(() => server.close());

  const ask = (client: string, init: RequestInit = {}, path = '/ask?query=clinical%20trial') =>
    fetch(`${server.url}${path}`, { ...init, headers: { 'x-forwarded-for': client, ...init.headers } });

  it('counts GET (fast path and route) and POST together, and answers 429 in the NLWeb shape', async () => {
    const client = '198.51.100.40';
    expect((await ask(client)).status).toBe(200); // fast path
    expect((await ask(client, { headers: { accept: 'text/event-stream' } })).status).toBe(200); // route, streamed
    const viaPost = await ask(
      client,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":{"text":"trial"}}' },
      '/ask',
    );
    expect(viaPost.status).toBe(200);
    await viaPost.text();

    for (const init of [
      {},
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":{"text":"trial"}}' },
    ] as RequestInit[]) {
      const refused = await ask(client, init, init.method === 'POST' ? '/ask' : undefined);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('access-control-allow-origin')).toBe('*');
      expect(refused.headers.get('ratelimit-policy')).toBe('"ask";q=3;w=60');
      const retryAfter = refused.headers.get('retry-after');
      expect(refused.headers.get('ratelimit')).toBe(`"ask";r=0;t=${retryAfter}`);
      const body = (await refused.json()) as {
        _meta: { response_type: string };
        content: { text: string }[];
      };
      contract.expectResponse(init.method ?? 'GET', '/ask', 429, refused.headers.get('content-type')!, body);
      expect(body._meta.response_type).toBe('Elicitation');
      expect(body.content[0]!.text).toContain(`Wait ${retryAfter} seconds`);
    }
    // Another client is still answered by the fast path.
    expect((await ask('198.51.100.41')).status).toBe(200);
  });

  it('counts each refusal once, whichever path found it', async () => {
    const text = await server.context.metrics.render();
    expect(text).toContain('frontdoor_rate_limit_refusals_total{limit="ask"} 2');
  });

  it('counts the /search page with /ask: the same engine behind the same limit (issue 37, finding 6)', async () => {
    const client = '198.51.100.42';
    const page = (query: string) => ask(client, {}, `/search?q=${query}`);
    expect((await page('')).status).toBe(200); // an empty search runs nothing and counts nothing
    const answered = await page('clinical');
    expect(answered.status).toBe(200);
    expect(await answered.text()).toContain('<li class="result">');
    expect((await ask(client)).status).toBe(200);
    expect((await page('trial')).status).toBe(200);
    const refusedAsk = await ask(client);
    expect(refusedAsk.status).toBe(429);
    await refusedAsk.text();
    const refused = await page('clinical+trial');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/^text\/html/);
    expect(refused.headers.get('ratelimit-policy')).toBe('"ask";q=3;w=60');
    const retryAfter = refused.headers.get('retry-after');
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    const html = await refused.text();
    expect(html).toContain(
      `Too many searches from your address: at most 3 every 60 seconds are answered. Wait ${retryAfter} seconds and search again.`,
    );
    expect(html).not.toContain('<li class="result">');
    // In the asker's language, as the rest of the page.
    const german = await page('clinical&lang=de');
    expect(german.status).toBe(429);
    expect(await german.text()).toMatch(
      /Zu viele Suchen von Ihrer Adresse: höchstens 3 alle 60 Sekunden werden beantwortet\. Warten Sie \d+ Sekunden/,
    );
    // Another client still gets its results.
    expect((await ask('198.51.100.43', {}, '/search?q=clinical')).status).toBe(200);
  });
});

describe('the global delivery cap', () => {
  it('defers deliveries over the cap to the worker and delivers them later, dropping none', async () => {
    const server = await startTestServer({
      env: { RATE_LIMIT_DELIVERIES: '2/2', DELIVERY_POLL_INTERVAL_MS: '50', METRICS_PORT: '0' },
    });
    try {
      const answers: Answer[] = [];
      for (let i = 0; i < 4; i++) answers.push(await post(server.url, LEADS, 'json', lead()));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
      expect(answers.map((a) => a.body.delivered)).toEqual([true, true, false, false]);
      const waiting = await server.submissions.store.list({ state: 'pending', limit: 10 });
      expect(waiting.map((r) => r.delivery?.lastError)).toEqual([
        'delivery_cap_reached',
        'delivery_cap_reached',
      ]);

      // The window is 2 s: the worker delivers both once it opens again.
      await waitFor(
        'both deferred deliveries made',
        async () => (await server.submissions.store.list({ state: 'delivered', limit: 10 })).length >= 4,
        20_000,
      );
      expect(await server.submissions.store.list({ state: 'dead', limit: 10 })).toEqual([]);
      const text = await server.context.metrics.render();
      expect(text).toContain('frontdoor_deliveries_deferred_total{where="request"} 2');
      expect(text).toContain('frontdoor_deliveries_total{provider="log",outcome="delivered"} 4');
    } finally {
      await server.close();
    }
  });
});

describe('when Redis cannot be reached', () => {
  it('lets requests and deliveries through (fails open), logs a warning and counts each failure', async () => {
    const lines: { level: number; msg: string }[] = [];
    const logger = pino(
      { level: 'info' },
      { write: (line: string) => lines.push(JSON.parse(line) as { level: number; msg: string }) },
    );
    const metrics = await createMetrics();
    // Port 1 on loopback: connection refused at once.
    const config = loadConfig({
      REDIS_URL: 'redis://127.0.0.1:1',
      RATE_LIMIT_LEADS: '1/600',
      RATE_LIMIT_ASK: '1/600',
      RATE_LIMIT_DELIVERIES: '1/600',
    });
    const limits = createRateLimits(config.rateLimits, logger, { events: metrics });
    try {
      expect(limits.shared).toBe(true);
      for (let i = 0; i < 3; i++) expect(await limits.check('leads', '203.0.113.9')).toBeNull();
      expect(await limits.deliveries!.reserve(5)).toEqual({ granted: 5, retryAfterMs: 0 });
      const text = await metrics.render();
      expect(text).toContain('frontdoor_rate_limit_store_failures_total 4');
      const warnings = lines.filter((l) => l.level === 40 && /Redis/.test(l.msg));
      expect(warnings.length).toBeGreaterThanOrEqual(1);
      // At most one line per 30 s, however many checks failed.
      expect(warnings.length).toBeLessThanOrEqual(2);
      expect(warnings.map((w) => w.msg).join('\n')).toMatch(/failing open|retrying/);
    } finally {
      await limits.close();
    }
  });

  it('the server keeps answering writes with REDIS_URL pointing nowhere', async () => {
    const server = await startTestServer({
      env: { REDIS_URL: 'redis://127.0.0.1:1', RATE_LIMIT_LEADS: '1/600' },
    });
    try {
      for (let i = 0; i < 3; i++) expect((await post(server.url, LEADS, 'json', lead())).status).toBe(200);
      expect(server.logs.some((l) => l.level === 40 && /failing open/.test(l.msg))).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe('limit configuration', () => {
  it('has defaults that protect a real site, and every limit can be set or switched off', () => {
    const defaults = loadConfig({}).rateLimits;
    expect(defaults).toEqual({
      redisUrl: null,
      leads: { quota: 5, windowSeconds: 600 },
      suggestions: { quota: 10, windowSeconds: 600 },
      ask: { quota: 600, windowSeconds: 60 },
      deliveries: { quota: 120, windowSeconds: 60 },
    });
    const set = loadConfig({
      RATE_LIMIT_LEADS: '20 / 3600',
      RATE_LIMIT_ASK: 'off',
      REDIS_URL: 'redis://cache.internal:6379/2',
    }).rateLimits;
    expect(set.leads).toEqual({ quota: 20, windowSeconds: 3600 });
    expect(set.ask).toBeNull();
    expect(set.redisUrl).toBe('redis://cache.internal:6379/2');
  });

  it('names the variable and the fix for a bad value', () => {
    expect(() => loadConfig({ RATE_LIMIT_LEADS: 'ten' })).toThrow(
      /RATE_LIMIT_LEADS="ten" is not valid: write COUNT\/SECONDS/,
    );
    expect(() => loadConfig({ RATE_LIMIT_ASK: '0/60' })).toThrow(/RATE_LIMIT_ASK="0\/60"/);
    expect(() => loadConfig({ REDIS_URL: 'localhost:6379' })).toThrow(/REDIS_URL is not a redis:\/\/ URL/);
  });
});
