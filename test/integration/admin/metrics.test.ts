import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { startServer, type RunningServer } from '../../../src/runtime/server.js';

const CRM_SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

/** The value of one sample line (`name{labels} value`); undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('metrics after known traffic through the real server', () => {
  let server: RunningServer;
  let dataDir: string;
  let text: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'frontdoor-metrics-'));
    const config = loadConfig({
      PORT: '0',
      METRICS_PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      LEAD_DELIVERY: 'log',
      // Suggestions go to a CRM that is not there: the attempt fails and the row stays pending.
      SUGGESTION_DELIVERY: 'crm',
      CRM_WEBHOOK_URL: 'http://127.0.0.1:9/hooks',
      CRM_WEBHOOK_SECRET: CRM_SECRET,
      DELIVERY_RETRY_BASE_MS: '3600000',
      DELIVERY_INLINE_BUDGET_MS: '5000',
      RATE_LIMIT_LEADS: '2/600',
    });
    server = await startServer(config, pino({ level: 'silent' }));
    const get = (path: string, headers: Record<string, string> = {}) =>
      fetch(`${server.url}${path}`, { headers }).then(async (r) => ({
        status: r.status,
        body: await r.text(),
      }));
    const postJson = (path: string, body: unknown) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, body: await r.text() }));

    // Three plain GET /ask (the fast path): one new answer, then two from the cache.
    for (let i = 0; i < 3; i++) expect((await get('/ask?query=clinical%20trial')).status).toBe(200);
    // One POST /ask (through Fastify) that matches nothing.
    expect((await postJson('/ask', { query: { text: 'zzqxv wqpfk' } })).status).toBe(200);
    // One page that does not exist.
    expect((await get('/no-such-page-here')).status).toBe(404);
    // Two demo requests delivered to the log, one suggestion whose delivery fails.
    for (const email of ['a@example.com', 'b@example.com'])
      expect((await postJson('/api/leads', { name: 'Dana Reyes', email })).status).toBe(200);
    // A third demo request from the same address is over the limit.
    expect((await postJson('/api/leads', { name: 'Dana Reyes', email: 'c@example.com' })).status).toBe(429);
    const suggestion = await postJson('/api/document-suggestions', {
      companyType: 'cro',
      persona: 'study-start-up',
      suggestion: 'A site activation checklist',
    });
    expect(suggestion.status).toBe(201);
    expect(JSON.parse(suggestion.body)).toMatchObject({ delivered: false });

    text = await (await fetch(`${server.adminUrl}/metrics`)).text();
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('counts requests by method, route pattern and status, fast path included', () => {
    const count = (labels: string) =>
      sample(text, `frontdoor_http_request_duration_seconds_count{${labels}}`);
    expect(count('method="GET",route="/ask",status="200"')).toBe(3);
    expect(count('method="POST",route="/ask",status="200"')).toBe(1);
    expect(count('method="POST",route="/api/leads",status="200"')).toBe(2);
    expect(count('method="POST",route="/api/document-suggestions",status="201"')).toBe(1);
    expect(text).toMatch(
      /frontdoor_http_request_duration_seconds_count\{method="GET",route="[^"]*",status="404"\} 1/,
    );
    // Latency buckets exist for every series; the raw URL is never a label.
    expect(text).toContain(
      'frontdoor_http_request_duration_seconds_bucket{le="0.0005",method="GET",route="/ask",status="200"}',
    );
    expect(text).not.toContain('no-such-page-here');
    expect(text).not.toContain('clinical');
  });

  it('counts rate-limit refusals by limit', () => {
    expect(sample(text, 'frontdoor_rate_limit_refusals_total{limit="leads"}')).toBe(1);
    expect(
      sample(
        text,
        'frontdoor_http_request_duration_seconds_count{method="POST",route="/api/leads",status="429"}',
      ),
    ).toBe(1);
    expect(sample(text, 'frontdoor_rate_limit_store_failures_total')).toBe(0);
  });

  it('counts /ask answers, zero-result answers and cache hits', () => {
    expect(sample(text, 'frontdoor_ask_answers_total')).toBe(4);
    expect(sample(text, 'frontdoor_ask_zero_results_total')).toBe(1);
    expect(sample(text, 'frontdoor_ask_cache_hits_total')).toBe(2);
  });

  it('counts deliveries by provider and outcome, and reads the outbox from the store', () => {
    expect(sample(text, 'frontdoor_deliveries_total{provider="log",outcome="delivered"}')).toBe(2);
    expect(sample(text, 'frontdoor_deliveries_total{provider="crm",outcome="retry"}')).toBe(1);
    expect(
      sample(text, 'frontdoor_delivery_attempt_duration_seconds_count{provider="log",outcome="delivered"}'),
    ).toBe(2);
    expect(sample(text, 'frontdoor_outbox_pending')).toBe(1);
    expect(sample(text, 'frontdoor_outbox_oldest_pending_age_seconds')).toBeGreaterThan(0);
    expect(sample(text, 'frontdoor_outbox_dead')).toBe(0);
  });

  it('shows dead letters once a delivery is given up', async () => {
    const [pending] = await server.context.submissions.store.list({ state: 'pending', limit: 1 });
    const claims = await server.context.submissions.store.claimDue({
      nowMs: Date.now() + 7_200_000,
      limit: 1,
      leaseUntilMs: Date.now() + 7_260_000,
      leaseToken: 'test',
    });
    expect(claims.map((c) => c.submission.id)).toEqual([pending!.id]);
    await server.context.submissions.store.complete(pending!.id, 'test', {
      outcome: 'dead',
      errorClass: 'test',
      atMs: Date.now(),
    });
    const after = await (await fetch(`${server.adminUrl}/metrics`)).text();
    expect(sample(after, 'frontdoor_outbox_pending')).toBe(0);
    expect(sample(after, 'frontdoor_outbox_oldest_pending_age_seconds')).toBe(0);
    expect(sample(after, 'frontdoor_outbox_dead')).toBe(1);
  });
});
