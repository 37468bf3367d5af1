import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InsightReport } from '../../../src/insight/index.js';
import { BROWSER_HEADERS, send, USER_AGENTS } from '../../insight/traffic.js';
import { startInsightServer, type InsightServer } from '../../support/servers.js';

describe('insight report on the admin listener', () => {
  let site: InsightServer;
  let adminUrl: string;

  beforeAll(async () => {
    site = await startInsightServer({ METRICS_PORT: '0' });
    adminUrl = site.server.adminUrl!;
    const get = (path: string, headers: Record<string, string>) => send(site.url, 'GET', path, headers);
    for (const ip of ['10.2.0.1', '10.2.0.2', '10.2.0.3']) {
      const person = { 'user-agent': USER_AGENTS.firefox, ...BROWSER_HEADERS, 'x-forwarded-for': ip };
      await get('/ask?query=electronic+signatures', person);
      await get(`/ask?query=${encodeURIComponent('<b>zorblax</b> & "quux"')}`, person);
    }
    await get('/llms.txt', { 'user-agent': USER_AGENTS.claudeBot, 'x-forwarded-for': '10.2.1.1' });
    await site.server.context.insight!.flush();
  }, 60_000);

  afterAll(async () => {
    await site?.close();
  });

  it('serves a self-contained HTML page under a strict Content-Security-Policy', async () => {
    const response = await send(adminUrl, 'GET', '/insight', {});
    expect(response.status).toBe(200);
    expect(response.contentType).toBe('text/html; charset=utf-8');
    const head = await fetch(`${adminUrl}/insight`);
    const csp = head.headers.get('content-security-policy')!;
    expect(csp).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*'; form-action 'self'/);
    const html = response.body;
    // Nothing that would need a request or a script: no src, no stylesheet link, no script element.
    expect(html).not.toMatch(/<script|<link|<img|\ssrc=|url\(|@import/i);
    expect(html).toContain('<svg class="chart"');
    // The one style block is the one the policy's hash allows.
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    const { createHash } = await import('node:crypto');
    expect(csp).toContain(`'sha256-${createHash('sha256').update(style).digest('base64')}'`);
  });

  it('escapes query text and links a zero-result search to the pre-filled suggestion form', async () => {
    const html = (await send(adminUrl, 'GET', '/insight', {})).body;
    expect(html).toContain('&lt;b&gt;zorblax&lt;/b&gt; &amp; &quot;quux&quot;');
    expect(html).not.toContain('<b>zorblax</b>');
    const link = /<a href="([^"]+)">Suggest a document/.exec(html)![1]!.replaceAll('&amp;', '&');
    const url = new URL(link);
    expect(`${url.origin}${url.pathname}`).toBe('https://www.trialwright.test/forms/document-suggestion');
    expect(url.searchParams.get('suggestion')).toBe('<b>zorblax</b> & "quux"');

    // The public site opens its suggestion form with that text in the box.
    const form = await send(site.url, 'GET', `${url.pathname}${url.search}`, {});
    expect(form.status).toBe(200);
    expect(form.body).toMatch(
      /<textarea[^>]*name="suggestion"[^>]*>&lt;b&gt;zorblax&lt;\/b&gt; &amp; &quot;quux&quot;<\/textarea>/,
    );
    expect(form.body).toContain('action="/forms/document-suggestion#suggestion-form"');
  });

  it('serves the same report as JSON, for a chosen period', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const response = await send(adminUrl, 'GET', `/insight.json?from=${today}&to=${today}`, {});
    const report = JSON.parse(response.body) as InsightReport;
    expect(report.period).toEqual({ from: today, to: today });
    expect(report.topQueries.map((q) => q.query)).toEqual([
      '<b>zorblax</b> & "quux"',
      'electronic signatures',
    ]);
    expect(report.zeroResultQueries.map((q) => q.query)).toEqual(['<b>zorblax</b> & "quux"']);
    expect(report.readership.map((d) => [d.document, d.requests])).toEqual([
      ['llms.txt', 1],
      ['ask', 6],
    ]);
  });

  it('answers a bad period with 400 naming the parameter', async () => {
    const response = await send(adminUrl, 'GET', '/insight?from=2026-13-01', {});
    expect(response.status).toBe(400);
    expect(response.body).toContain('from must be a day written YYYY-MM-DD');
    const json = await send(adminUrl, 'GET', '/insight.json?days=0', {});
    expect(json.status).toBe(400);
    expect(JSON.parse(json.body)).toMatchObject({
      ok: false,
      code: 'VALIDATION_ERROR',
      message: 'Invalid report period: days must be a whole number from 1 to 3660.',
    });
  });

  it('caps the period as --days is capped and answers a longer one with the envelope (issue 37, finding 4)', async () => {
    for (const path of ['/insight', '/insight.json']) {
      const response = await send(adminUrl, 'GET', `${path}?from=0001-01-01&to=9999-12-31`, {});
      expect(response.status).toBe(400);
      expect(JSON.parse(response.body)).toEqual({
        ok: false,
        error: 'Validation failed',
        code: 'VALIDATION_ERROR',
        message:
          'Invalid report period: the period 0001-01-01 to 9999-12-31 is 3652059 days long; a report covers at most 3660 days: move from or to closer.',
        resolution: 'Send days=N (1 to 3660), or from and to as YYYY-MM-DD at most 3660 days apart.',
      });
    }
    expect((await send(adminUrl, 'GET', '/insight.json?days=99999999999999999999', {})).status).toBe(400);
    // The longest period allowed is answered, one entry a day.
    const longest = await send(adminUrl, 'GET', '/insight.json?from=2016-01-01&to=2026-01-07', {});
    expect(longest.status).toBe(200);
    expect((JSON.parse(longest.body) as InsightReport).daily).toHaveLength(3660);
    expect((await send(adminUrl, 'GET', '/insight.json?from=2016-01-01&to=2026-01-08', {})).status).toBe(400);
    expect((await send(site.url, 'GET', '/healthz', {})).status).toBe(200);
  });

  it('answers only requests that name its own host: DNS rebinding is refused (issue 37, finding 4)', async () => {
    const port = new URL(adminUrl).port;
    for (const host of ['evil.example', `evil.example:${port}`, 'localhost.evil.example', '10.9.8.7'])
      for (const path of ['/insight.json', '/metrics']) {
        const refused = await send(adminUrl, 'GET', path, { host });
        expect(refused.status, `${host} ${path}`).toBe(421);
        expect(JSON.parse(refused.body)).toMatchObject({ ok: false, code: 'VALIDATION_ERROR' });
        expect(refused.body).not.toContain('zorblax');
      }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, 'LOCALHOST', '[::1]'])
      expect((await send(adminUrl, 'GET', '/insight.json', { host })).status, host).toBe(200);
  });

  it('is not on the public port', async () => {
    expect((await send(site.url, 'GET', '/insight', {})).status).toBe(404);
    expect((await send(site.url, 'GET', '/insight.json', {})).status).toBe(404);
  });

  it('without a suggestion text the form address still leads to the page with the form', async () => {
    const response = await send(site.url, 'GET', '/forms/document-suggestion?suggestion=%20', {});
    expect(response.status).toBe(303);
  });
});
