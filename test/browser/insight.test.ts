import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_HEADERS, send, USER_AGENTS } from '../insight/traffic.js';
import {
  cspViolationsOf,
  describeViolations,
  launchChromium,
  recordCspViolations,
  runAxe,
  screenshot,
  watchPage,
  type PageProblems,
} from '../support/browser.js';
import { startSiteServer, type SiteServer } from '../support/servers.js';

let site: SiteServer;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  site = await startSiteServer({
    METRICS_PORT: '0',
    TRUST_PROXY_HOPS: '1',
    INSIGHT_FLUSH_INTERVAL_MS: '600000',
  });
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await recordCspViolations(context);

  const get = (path: string, headers: Record<string, string>) => send(site.url, 'GET', path, headers);
  const person = (ip: string) => ({
    'user-agent': USER_AGENTS.chrome,
    ...BROWSER_HEADERS,
    'x-forwarded-for': ip,
  });
  const agent = (ip: string) => ({ 'user-agent': USER_AGENTS.chatgptUser, 'x-forwarded-for': ip });
  for (const [i, ip] of ['10.3.0.1', '10.3.0.2', '10.3.0.3', '10.3.0.4'].entries()) {
    await get('/ask?query=protocol+amendments', person(ip));
    await get('/search?q=schedule+of+activities', person(ip));
    await get('/ask?query=pharmacy+manual+zorblax', agent(ip));
    await get('/ask?query=quantum+teleportation', i % 2 === 0 ? person(ip) : agent(ip));
    await get('/llms.txt', { 'user-agent': USER_AGENTS.gptBot, 'x-forwarded-for': ip });
    await get('/openapi.json', agent(ip));
    await get('/pricing.md', { 'user-agent': USER_AGENTS.claudeUser, 'x-forwarded-for': ip });
  }
  await get('/sitemap.xml', { 'user-agent': USER_AGENTS.googlebot, 'x-forwarded-for': '10.3.1.1' });
  await site.server.context.insight!.flush();
}, 60_000);

afterAll(async () => {
  await context?.close().catch(() => undefined);
  await browser?.close();
  await site?.close();
});

async function openReport(): Promise<{ page: Page; problems: PageProblems }> {
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const problems = watchPage(page);
  const response = await page.goto(`${site.server.adminUrl}/insight`);
  expect(response?.status()).toBe(200);
  return { page, problems };
}

describe('insight report in the browser', () => {
  it('renders the charts and tables with no CSP violation, no error and no axe violation', async () => {
    const { page, problems } = await openReport();
    await expect(page.locator('h1').textContent()).resolves.toContain('Search and agent insight');
    // Both charts are drawn: bars for the day, bars per document.
    expect(await page.locator('svg.chart').count()).toBe(2);
    expect(await page.locator('svg.chart').first().locator('rect').count()).toBeGreaterThan(0);
    const box = await page.locator('svg.chart').first().boundingBox();
    expect(box!.width).toBeGreaterThan(300);
    expect(await page.locator('#top-queries + .table-wrap tbody tr').count()).toBe(4);
    await screenshot(page, 'insight-report');
    expect(await cspViolationsOf(page)).toEqual([]);
    expect(problems.console).toEqual([]);
    expect(problems.pageErrors).toEqual([]);
    const violations = await runAxe(page);
    expect(violations, describeViolations(violations)).toEqual([]);
    await page.close();
  });

  it('applies the inline style (allowed by its hash) and has no script', async () => {
    const { page } = await openReport();
    const fontWeight = await page.evaluate(
      "getComputedStyle(document.querySelector('dl.totals dd')).fontWeight",
    );
    expect(fontWeight).toBe('600');
    expect(await page.locator('script').count()).toBe(0);
    await page.close();
  });

  it('a zero-result search opens the public suggestion form with the search filled in', async () => {
    const { page } = await openReport();
    const link = page.locator('#zero-results ~ .table-wrap a', { hasText: 'Suggest a document' }).first();
    await link.click();
    await page.waitForURL(/\/forms\/document-suggestion\?suggestion=/);
    await expect(page.locator('textarea[name="suggestion"]').inputValue()).resolves.toBe(
      'quantum teleportation',
    );
    await screenshot(page, 'insight-suggestion-prefilled');
    await page.close();
  });

  it('the period form shows another period', async () => {
    const { page } = await openReport();
    await page.fill('#from', '2020-01-01');
    await page.fill('#to', '2020-01-31');
    await page.click('button[type="submit"]');
    await page.waitForURL(/from=2020-01-01/);
    await expect(page.locator('#top-queries ~ p.empty').textContent()).resolves.toBe('None in this period.');
    expect(await cspViolationsOf(page)).toEqual([]);
    await page.close();
  });
});
