import { createServer, type Server } from 'node:http';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { freePort } from '../support/net.js';
import { startSiteServer, type SiteServer } from '../support/servers.js';

/*
 * The embed (frontdoor.js, frontdoor.css) on pages of a site served by another server, from
 * another origin than Frontdoor's: the host is http://localhost:<port> (another site to the
 * browser than Frontdoor at http://127.0.0.1:<port>), listed in CORS_ORIGINS and PUBLIC_BASE_URL,
 * with PAGES=off, as docs/beside-your-site.md sets it up. The host pages carry a strict CSP: no
 * inline script or style, scripts, styles and connections from Frontdoor's origin only.
 */

let frontdoor: SiteServer;
let host: Server;
let hostOrigin: string;
/** The same host pages at an origin that is not in CORS_ORIGINS. */
let unlistedOrigin: string;
let browser: Browser;
const contexts: BrowserContext[] = [];

const THEME_ACCENT = 'rgb(122, 31, 162)';

function hostPage(frontdoorUrl: string, body: string, lang = 'en'): string {
  return [
    `<!doctype html><html lang="${lang}"><head><meta charset="utf-8">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<title>Example Docs</title>',
    `<link rel="stylesheet" href="${frontdoorUrl}/embed/frontdoor.css">`,
    '<link rel="stylesheet" href="/theme.css">',
    `<script type="module" src="${frontdoorUrl}/embed/frontdoor.js"></script>`,
    `</head><body><main><h1>Example Docs</h1>${body}</main></body></html>`,
  ].join('');
}

/** The host site: its own pages and stylesheet, under its own strict CSP. */
function startHost(port: number, frontdoorUrl: string): Promise<Server> {
  const csp = [
    "default-src 'none'",
    `script-src ${frontdoorUrl}`,
    `style-src 'self' ${frontdoorUrl}`,
    `connect-src ${frontdoorUrl}`,
    "img-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  const pages: Record<string, string> = {
    '/guide/getting-started': hostPage(
      frontdoorUrl,
      '<frontdoor-search placeholder="Search the docs"></frontdoor-search><h2>Talk to us</h2><frontdoor-form kind="demo"></frontdoor-form>',
    ),
    '/solutions/cros': hostPage(frontdoorUrl, '<frontdoor-form kind="suggestion"></frontdoor-form>'),
    // A page in German: the embed says its own words in German (/embed/words.json?lang=de).
    '/de/anleitung': hostPage(
      frontdoorUrl,
      '<frontdoor-search results-page="/search?q="></frontdoor-search><frontdoor-form kind="demo"></frontdoor-form>',
      'de',
    ),
  };
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://host').pathname;
    if (path === '/favicon.ico') {
      response.writeHead(204).end();
      return;
    }
    if (path === '/theme.css') {
      response.writeHead(200, { 'content-type': 'text/css' });
      response.end(`frontdoor-search, frontdoor-form { --frontdoor-accent: ${THEME_ACCENT}; }`);
      return;
    }
    const html = pages[path];
    response.writeHead(html ? 200 : 404, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': csp,
    });
    response.end(html ?? 'not found');
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  const hostPort = await freePort();
  hostOrigin = `http://localhost:${hostPort}`;
  unlistedOrigin = `http://127.0.0.1:${hostPort}`;
  frontdoor = await startSiteServer({
    PAGES: 'off',
    PUBLIC_BASE_URL: hostOrigin,
    CORS_ORIGINS: hostOrigin,
    FORM_MIN_FILL_MS: '0',
  });
  host = await startHost(hostPort, frontdoor.url);
  browser = await launchChromium();
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await new Promise((resolve) => host?.close(resolve));
  await frontdoor?.close();
});

async function openPage(): Promise<{ page: Page; problems: PageProblems }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  await recordCspViolations(context);
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  return { page, problems: watchPage(page) };
}

async function expectClean(page: Page, problems: PageProblems, label: string): Promise<void> {
  expect(await cspViolationsOf(page), label).toEqual([]);
  expect(problems.console, label).toEqual([]);
  expect(problems.pageErrors, label).toEqual([]);
  const violations = await runAxe(page);
  expect(violations, `${label}\n${describeViolations(violations)}`).toEqual([]);
  // axe-core itself adds a <style> element the page's CSP refuses (a violation event and a console
  // line): not the embed's doing, so they are cleared for the next check.
  await page.evaluate('window.__cspViolations = []');
  problems.console.length = 0;
}

interface AskItem {
  type: string;
  resource?: { data: { url: string; name: string; sections?: { url: string }[] } };
}

describe('<frontdoor-search> on another origin’s page', () => {
  it('shows the answer of /ask as you type, linking to the host’s pages, under a strict CSP', async () => {
    const { page, problems } = await openPage();
    await page.goto(`${hostOrigin}/guide/getting-started`);
    const query = 'eligibility criteria';
    const input = page.getByRole('searchbox', { name: 'Search this site' });
    await input.click();
    await input.pressSequentially(query, { delay: 15 });
    const results = page.locator('frontdoor-search .result-link');
    await results.first().waitFor();
    await expect
      .poll(() => page.locator('frontdoor-search .live-status').textContent())
      .toMatch(/^\d+ results? for “eligibility criteria”$/);

    // The same pages, in the same order, as the API's own answer; each link a path on the host.
    const answer = (await (
      await fetch(`${frontdoor.url}/ask?query=${encodeURIComponent(query)}`)
    ).json()) as { content: AskItem[] };
    const expected = answer.content
      .filter((item) => item.type === 'resource')
      .map((item) => item.resource!.data);
    expect(await page.locator('frontdoor-search .result-title').allTextContents()).toEqual(
      expected.map((data) => data.name),
    );
    const hrefs = await results.evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    for (const href of hrefs) expect(href).toMatch(/^\/[^/]/);
    expect(hrefs[0]).toBe(
      new URL(expected[0]!.sections?.[0]?.url ?? expected[0]!.url).href.slice(hostOrigin.length),
    );
    // Section links: every section after a page's best one.
    const sectionCount = expected.reduce(
      (sum, data) => sum + Math.max(0, (data.sections?.length ?? 0) - 1),
      0,
    );
    expect(await page.locator('frontdoor-search .result-section').count()).toBe(sectionCount);
    expect(sectionCount).toBeGreaterThan(0);

    await expectClean(page, problems, 'search with results open');
    // Themed by the host's custom property.
    expect(
      await page.evaluate(
        "getComputedStyle(document.querySelector('frontdoor-search button')).backgroundColor",
      ),
    ).toBe(THEME_ACCENT);
    await screenshot(page, 'embed-search');

    // Keyboard: down into the results and on, up again, back to the box, Escape closes.
    await input.press('ArrowDown');
    expect(await page.evaluate('document.activeElement.getAttribute("href")')).toBe(hrefs[0]);
    const links = page.locator('frontdoor-search .results-list a');
    const secondHref = await links.nth(1).getAttribute('href');
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate('document.activeElement.getAttribute("href")')).toBe(secondHref);
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    expect(await page.evaluate('document.activeElement.name')).toBe('q');
    await page.keyboard.press('Escape');
    expect(await page.locator('frontdoor-search .frontdoor-results').isVisible()).toBe(false);
    // Enter searches again at once, on this page.
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('frontdoor-search .frontdoor-results').isVisible()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/guide/getting-started');
  }, 60_000);
});

describe('the embed on a page in another language', () => {
  it('says its own words in the host page’s language', async () => {
    const { page, problems } = await openPage();
    await page.goto(`${hostOrigin}/de/anleitung`);
    const box = page.locator('frontdoor-search form');
    await box.waitFor();
    expect(await box.getAttribute('aria-label')).toBe('Diese Website durchsuchen');
    expect(await page.locator('frontdoor-search input').getAttribute('placeholder')).toBe('Suchen');
    expect(await page.locator('frontdoor-search button').textContent()).toBe('Suchen');
    await page.locator('frontdoor-search input').fill('eligibility');
    await expect
      .poll(() => page.locator('frontdoor-search .live-all').textContent())
      .toBe('Alle Ergebnisse anzeigen');
    await expect
      .poll(() => page.locator('frontdoor-search .live-status').textContent())
      .toMatch(/Ergebnis(?:se)? für „eligibility“$/);

    const form = page.locator('frontdoor-form form');
    await form.waitFor();
    // The form itself is German too: its button, and its labels in the error sentences.
    await page.getByRole('button', { name: 'Demo anfragen' }).click();
    await expect
      .poll(() => page.locator('frontdoor-form [data-form-errors] h3').textContent())
      .toBe('Bitte prüfen Sie das Formular');
    expect(await page.locator('[data-error-for="lastName"]').textContent()).toBe(
      'Nachname: bitte ausfüllen.',
    );
    await expectClean(page, problems, 'embed in German');
    await screenshot(page, 'embed-german');
  }, 60_000);
});

describe('<frontdoor-form> on another origin’s page', () => {
  async function storedLeads() {
    return frontdoor.server.context.submissions.store.list({ kind: 'lead', limit: 50 });
  }

  it('checks fields as the site does, then stores the request with the host page as sourcePage', async () => {
    const { page, problems } = await openPage();
    await page.goto(`${hostOrigin}/guide/getting-started`);
    const form = page.locator('frontdoor-form form');
    await form.waitFor();
    await expectClean(page, problems, 'demo form shown');

    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Work email').fill('ada@');
    await page.getByRole('button', { name: 'Request a demo' }).click();
    await expect
      .poll(() => page.locator('[data-error-for="lastName"]').textContent())
      .toBe('Last name: please fill this in.');
    expect(await page.locator('[data-error-for="email"]').textContent()).toBe(
      'Work email: enter an e-mail address such as name@company.com.',
    );
    expect(await page.evaluate('document.activeElement.name')).toBe('lastName');
    await expectClean(page, problems, 'demo form with errors');
    await screenshot(page, 'embed-form-errors');

    const email = `ada.${Date.now()}@sponsor.example`;
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByLabel('Work email').fill(email);
    await page.getByLabel('Organization type').selectOption('cro');
    await page.getByLabel('Your area').selectOption('study-start-up');
    const [post] = await Promise.all([
      page.waitForResponse((response) => response.url() === `${frontdoor.url}/api/leads`),
      page.getByRole('button', { name: 'Request a demo' }).click(),
    ]);
    expect(post.status()).toBe(200);
    expect(post.headers()['access-control-allow-origin']).toBe(hostOrigin);
    expect((await post.request().allHeaders())['sec-fetch-site']).toBe('cross-site');
    await expect
      .poll(() => page.locator('frontdoor-form .form-success h2').textContent())
      .toBe('Thank you: your demo request has been received');
    expect(await page.evaluate('document.activeElement.className')).toBe('form-success');
    const stored = (await storedLeads()).find((record) => record.fields.email === email);
    expect(stored?.fields).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      companyType: 'cro',
      persona: 'study-start-up',
      sourcePage: '/guide/getting-started',
    });
    await expectClean(page, problems, 'demo form sent');
    await screenshot(page, 'embed-form-sent');
  }, 60_000);

  it('the suggestion form preselects the audience of a solution page and records it', async () => {
    const { page, problems } = await openPage();
    await page.goto(`${hostOrigin}/solutions/cros`);
    await page.locator('frontdoor-form form').waitFor();
    expect(await page.getByLabel('Organization type').inputValue()).toBe('cro');
    await page.getByLabel('Your area').selectOption('study-start-up');
    const text = `A site feasibility pack ${Date.now()}`;
    await page.getByLabel('Which document would you like generated from the protocol?').fill(text);
    await page.getByRole('button', { name: 'Send suggestion' }).click();
    await page.locator('frontdoor-form .form-success h2').waitFor();
    const records = await frontdoor.server.context.submissions.store.list({ kind: 'suggestion', limit: 50 });
    expect(records.find((record) => record.fields.suggestion === text)?.fields.sourcePage).toBe(
      '/solutions/cros',
    );
    await expectClean(page, problems, 'suggestion form sent');
  }, 60_000);

  it('cannot be sent from an origin that is not in CORS_ORIGINS: the browser stops it, nothing is stored', async () => {
    const { page, problems } = await openPage();
    await page.goto(`${unlistedOrigin}/guide/getting-started`);
    await page.locator('frontdoor-form form').waitFor();
    const before = (await storedLeads()).length;
    await page.getByLabel('First name').fill('Eve');
    await page.getByLabel('Last name').fill('Mallory');
    await page.getByLabel('Work email').fill('eve@elsewhere.example');
    await page.getByRole('button', { name: 'Request a demo' }).click();
    await expect
      .poll(() => page.locator('frontdoor-form [data-form-errors] li').allTextContents())
      .toEqual(['The form could not be sent: check your connection and try again.']);
    expect((await storedLeads()).length).toBe(before);
    // The browser reports the refused preflight; nothing else went wrong.
    expect(
      problems.console.every((line) => /CORS|Failed to load resource/.test(line)),
      problems.console.join('\n'),
    ).toBe(true);
    expect(problems.pageErrors).toEqual([]);
  }, 60_000);
});

describe('the site’s own pages, whose search and forms share these modules (PAGES=on)', () => {
  it('the header box still searches as you type and the demo form still posts to the API', async () => {
    const site = await startSiteServer({ FORM_MIN_FILL_MS: '0' });
    try {
      const { page, problems } = await openPage();
      await page.goto(`${site.url}/demo`);
      const input = page.locator('#header-search-input');
      await input.click();
      await input.pressSequentially('eligibility', { delay: 15 });
      await page.locator('.live-results .result-link').first().waitFor();
      expect(await page.locator('.live-results .live-all').getAttribute('href')).toBe(
        '/search?q=eligibility',
      );
      await page.keyboard.press('Escape');

      const email = `grace.${Date.now()}@sponsor.example`;
      await page.getByLabel('First name').fill('Grace');
      await page.getByLabel('Last name').fill('Hopper');
      await page.getByLabel('Work email').fill(email);
      const [post] = await Promise.all([
        page.waitForResponse((response) => new URL(response.url()).pathname === '/api/leads'),
        page.getByRole('button', { name: 'Request a demo' }).click(),
      ]);
      expect(post.status()).toBe(200);
      await page.locator('.form-success h2').waitFor();
      const records = await site.server.context.submissions.store.list({ kind: 'lead', limit: 10 });
      expect(records.find((record) => record.fields.email === email)?.fields.sourcePage).toBe('/demo');
      await expectClean(page, problems, 'site demo page');
    } finally {
      await site.close();
    }
  }, 60_000);
});
