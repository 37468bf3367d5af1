import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cspViolationsOf,
  launchChromium,
  recordCspViolations,
  screenshot,
  watchPage,
} from '../support/browser.js';
import { contentFolder } from '../support/files.js';
import { startSiteServer, type SiteServer } from '../support/servers.js';
import { FILES_WITH_JAPANESE } from '../nlweb/multilingual-site.js';

/**
 * The site's own words in the reader's language, in Chromium, on the site in English, German,
 * French and Japanese: the search page and the 404 page follow the browser's Accept-Language (its
 * locale), the live search's words come from the page (#frontdoor-words), and a language without
 * a catalogue reads English.
 */
let site: SiteServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  site = await startSiteServer({ CONTENT_DIR: contentFolder(FILES_WITH_JAPANESE) });
  browser = await launchChromium();
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await site?.close();
});

/** A page in a browser whose language is `locale` (it sends Accept-Language for it). */
async function openPage(locale: string): Promise<{ page: Page; problems: ReturnType<typeof watchPage> }> {
  const context = await browser.newContext({ locale, viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  await recordCspViolations(context);
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  return { page, problems: watchPage(page) };
}

const text = (page: Page, selector: string): Promise<string> =>
  page
    .locator(selector)
    .first()
    .evaluate((element) => element.textContent ?? '');

/** Types a query into the header's live search box and waits for its answer. */
async function liveSearch(page: Page, query: string): Promise<void> {
  await page.locator('#header-search-input').fill(query);
  await expect.poll(() => page.locator('[data-live-results] .results-list li').count()).toBeGreaterThan(0);
}

describe('the site’s own words in Chromium', () => {
  it('speaks German: the search page, its live results, the 404 page and the header box', async () => {
    const { page, problems } = await openPage('de-DE');
    const response = await page.goto(`${site.url}/search?q=archiv`);
    expect(response?.status()).toBe(200);
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    expect(await text(page, '#search-title')).toBe('Suchen');
    expect(await text(page, '[data-search-status]')).toMatch(/^\d+ Ergebnis(?:se)? für „archiv“$/);

    // The page's own search, live: its status line and title in German from the page's words.
    await page.locator('#search-page-input').fill('Ordner entpacken');
    await expect
      .poll(() => text(page, '[data-search-status]'))
      .toMatch(/Ergebnis(?:se)? für „Ordner entpacken“$/);
    expect(await page.title()).toBe('Suche: Ordner entpacken | Example');
    await screenshot(page, 'languages-search-de');

    const missing = await page.goto(`${site.url}/nirgendwo-archiv`);
    expect(missing?.status()).toBe(404);
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    expect(await text(page, '#not-found-title')).toBe('Seite nicht gefunden');
    await screenshot(page, 'languages-404-de');

    await page.goto(`${site.url}/de/`);
    await liveSearch(page, 'Archiv');
    expect(await text(page, '[data-live-results] .live-status')).toMatch(/Ergebnis(?:se)? für „Archiv“$/);
    expect(await text(page, '[data-live-results] .live-all')).toBe('Alle Ergebnisse anzeigen');
    expect(await page.getAttribute('[data-live-results] .results-list', 'aria-label')).toBe('Suchergebnisse');
    await screenshot(page, 'languages-live-de');

    // A weak match is said as one in German, not as a count (the answer's line is German).
    await page.locator('#header-search-input').fill('entpacken zzqxv?');
    await expect
      .poll(() => text(page, '[data-live-results] .live-status'))
      .toBe('Keine Seite passt gut zu „entpacken zzqxv?“; die nächstliegenden Seiten:');

    expect(await cspViolationsOf(page)).toEqual([]);
    expect(problems.pageErrors).toEqual([]);
  }, 60_000);

  it('speaks Japanese, whatever the folder of the page it is on', async () => {
    const { page, problems } = await openPage('ja-JP');
    await page.goto(`${site.url}/search?q=${encodeURIComponent('アーカイブ')}`);
    expect(await page.getAttribute('html', 'lang')).toBe('ja');
    expect(await text(page, '#search-title')).toBe('検索');
    expect(await text(page, '[data-search-status]')).toMatch(/^「アーカイブ」の検索結果 \d+ 件$/);

    const missing = await page.goto(`${site.url}/ja/ない`);
    expect(missing?.status()).toBe(404);
    expect(await text(page, '#not-found-title')).toBe('ページが見つかりません');
    await screenshot(page, 'languages-404-ja');

    await page.goto(`${site.url}/ja/`);
    await liveSearch(page, '展開');
    expect(await text(page, '[data-live-results] .live-status')).toMatch(/^「展開」の検索結果 \d+ 件$/);
    expect(await text(page, '[data-live-results] .live-all')).toBe('すべての結果を見る');
    await screenshot(page, 'languages-live-ja');

    expect(await cspViolationsOf(page)).toEqual([]);
    expect(problems.pageErrors).toEqual([]);
  }, 60_000);

  it('falls back to English for a reader whose language has no catalogue', async () => {
    const { page, problems } = await openPage('ko-KR');
    await page.goto(`${site.url}/search?q=archive`);
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    expect(await text(page, '#search-title')).toBe('Search');
    expect(await text(page, '[data-search-status]')).toMatch(/^\d+ results? for “archive”$/);

    const missing = await page.goto(`${site.url}/nowhere`);
    expect(missing?.status()).toBe(404);
    expect(await text(page, '#not-found-title')).toBe('Page not found');

    await page.goto(`${site.url}/`);
    await liveSearch(page, 'backup');
    expect(await text(page, '[data-live-results] .live-status')).toMatch(/^1 result for “backup”$/);
    expect(await text(page, '[data-live-results] .live-all')).toBe('See all results');

    expect(await cspViolationsOf(page)).toEqual([]);
    expect(problems.pageErrors).toEqual([]);
  }, 60_000);
});

describe('the demo request form on a German page, in Chromium', () => {
  let german: SiteServer;

  beforeAll(async () => {
    german = await startSiteServer({
      CONTENT_DIR: contentFolder({
        '_site.yaml': 'name: Example\nlanguage: en\n',
        'contact.md': '---\nform: demo\n---\n# Contact\n\nTalk to us.\n',
        'de/kontakt.md': '---\nform: demo\n---\n# Kontakt\n\nSprechen Sie mit uns.\n',
      }),
    });
  });

  afterAll(async () => {
    await german?.close();
  });

  it('labels, choices, the script’s errors and the confirmation are German', async () => {
    const { page, problems } = await openPage('de-DE');
    await page.goto(`${german.url}/de/kontakt`);
    const form = 'form[data-enhance-form="demo"]';
    expect(await text(page, 'label[for="demo-email"]')).toBe('Geschäftliche E-Mail-Adresse');
    expect(await text(page, `${form} button[type="submit"]`)).toBe('Demo anfragen');

    // The persona choices follow the organization type, named in German.
    await page.selectOption('#demo-companyType', 'cro');
    const personas = await page
      .locator('#demo-persona option:not([hidden]):not([value=""])')
      .evaluateAll((options) => options.map((option) => option.textContent));
    expect(personas).toContain('Study Start-up');
    expect(personas).not.toContain('Principal investigator');

    // The script's own check names the field by its German label.
    await page.fill('#demo-firstName', 'Ada');
    await page.fill('#demo-lastName', 'Lovelace');
    await page.locator(`${form} button[type="submit"]`).click();
    await expect
      .poll(() => text(page, '[data-error-for="email"]'))
      .toBe('Geschäftliche E-Mail-Adresse: bitte ausfüllen.');
    expect(await text(page, '[data-form-errors] h3')).toBe('Bitte prüfen Sie das Formular');

    await page.fill('#demo-email', 'ada@example.org');
    await page.locator(`${form} button[type="submit"]`).click();
    await page.locator('[data-form-success] h2').waitFor();
    expect(await text(page, '[data-form-success] h2')).toBe(
      'Vielen Dank: Ihre Demo-Anfrage ist bei uns eingegangen',
    );
    await screenshot(page, 'languages-demo-form-de');
    expect(await cspViolationsOf(page)).toEqual([]);
    expect(problems.console).toEqual([]);
  });
});
