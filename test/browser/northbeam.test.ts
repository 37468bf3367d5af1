import { join } from 'node:path';
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
  type AxeViolation,
  type PageProblems,
} from '../support/browser.js';
import { REPO_ROOT } from '../support/files.js';
import { startSiteServer, type SiteServer } from '../support/servers.js';

/** The second company (test/fixtures/northbeam): its own brand and menus, the same build. */
const NORTHBEAM = join(REPO_ROOT, 'test', 'fixtures', 'northbeam');
const PAGES = ['/', '/services', '/pricing', '/about', '/contact', '/privacy'];
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 812 };

let site: SiteServer;
let sample: SiteServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [site, sample, browser] = await Promise.all([
    // No minimum fill time: a scripted visitor fills the form faster than a person, and the form
    // posted without JavaScript would be quarantined as too fast (the spam traps have their own test).
    startSiteServer({ CONTENT_DIR: NORTHBEAM, FORM_MIN_FILL_MS: '0' }),
    startSiteServer(),
    launchChromium(),
  ]);
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await Promise.all([site?.close(), sample?.close()]);
});

async function openPage(
  viewport: { width: number; height: number },
  colorScheme: 'light' | 'dark' = 'light',
  javaScriptEnabled = true,
): Promise<{ page: Page; problems: PageProblems }> {
  const context = await browser.newContext({
    viewport,
    colorScheme,
    javaScriptEnabled,
    ...(viewport === PHONE ? { isMobile: true } : {}),
  });
  contexts.push(context);
  await recordCspViolations(context);
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  return { page, problems: watchPage(page) };
}

/**
 * axe needs script in the page: a page seen with JavaScript disabled is served again, as it was, to
 * a JavaScript-enabled page at a same-origin address (so its stylesheet and contrast are real).
 */
async function axeOfHtml(html: string, viewport: { width: number; height: number }): Promise<AxeViolation[]> {
  const { page } = await openPage(viewport);
  const address = `${site.url}/__axe-snapshot`;
  await page.route(address, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: html }));
  await page.goto(address);
  return runAxe(page);
}

/** The quote requests the server stored, newest first, as the submissions store holds them. */
async function storedQuotes(): Promise<{ form: string | null; fields: Record<string, string> }[]> {
  const records = await site.server.context.submissions.store.list({ limit: 50 });
  return records.map((record) => ({ form: record.form, fields: record.fields as Record<string, string> }));
}

/** The choices the study phase select offers now (the placeholder left out). */
async function phaseChoices(page: Page): Promise<string[]> {
  return page
    .locator(`${QUOTE_FORM} select[name="studyPhase"] option`)
    .evaluateAll((options) =>
      options.map((option) => (option as unknown as { value: string }).value).filter((v) => v !== ''),
    );
}

const QUOTE_FORM = 'form[data-enhance-form="quote"]';

/** The tops of the header's menu entries, rounded: one value when they share a row. */
async function menuRows(page: Page): Promise<number[]> {
  return (await page.evaluate(
    `[...new Set([...document.querySelectorAll('.main-nav li')].map((li) => Math.round(li.getBoundingClientRect().top)))]`,
  )) as number[];
}

describe('Northbeam Biostat in Chromium', () => {
  for (const [label, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`shows its own logo, colours and menus at ${viewport.width}px without CSP, console or axe violations`, async () => {
      const { page, problems } = await openPage(viewport);
      for (const path of PAGES) {
        const response = await page.goto(site.url + path, { waitUntil: 'load' });
        expect(response?.status(), path).toBe(200);
        expect(await cspViolationsOf(page), path).toEqual([]);
        expect(problems.console, path).toEqual([]);
        expect(problems.pageErrors, path).toEqual([]);
        const violations = await runAxe(page);
        expect(violations, `${path}\n${describeViolations(violations)}`).toEqual([]);
        // The logo loaded, and the brand stylesheet's colour is the one in use.
        expect(
          await page.evaluate(`document.querySelector('.brand-logo').naturalWidth`),
          path,
        ).toBeGreaterThan(0);
        expect(
          await page.evaluate(`getComputedStyle(document.querySelector('.header-cta')).backgroundColor`),
          path,
        ).toBe('rgb(122, 46, 140)');
        expect(await page.evaluate(`getComputedStyle(document.body).fontFamily`), path).toContain('Georgia');
        const [scrollWidth, clientWidth] = (await page.evaluate(
          '[document.documentElement.scrollWidth, document.documentElement.clientWidth]',
        )) as [number, number];
        expect(scrollWidth, `${path} scrolls sideways`).toBeLessThanOrEqual(clientWidth);
        expect(await menuRows(page), `${path}: the menu wraps`).toHaveLength(1);
        await screenshot(page, `northbeam${path === '/' ? '-home' : path.replace(/\//g, '-')}-${label}`);
      }
    }, 120_000);
  }

  it('passes axe in the dark colour scheme, with colours derived from its brand', async () => {
    const { page } = await openPage(DESKTOP, 'dark');
    for (const path of ['/', '/pricing']) {
      await page.goto(site.url + path);
      const violations = await runAxe(page);
      expect(violations, `${path}\n${describeViolations(violations)}`).toEqual([]);
    }
    await screenshot(page, 'northbeam-pricing-dark');
  });
});

describe('its own quote form (forms: in its _site.yaml)', () => {
  it('with JavaScript: the header button leads to it, the phases follow the service, errors at the field, then success', async () => {
    const { page, problems } = await openPage(DESKTOP);
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') posts.push(new URL(request.url()).pathname);
    });
    await page.goto(`${site.url}/`);
    await Promise.all([page.waitForURL(`${site.url}/contact`), page.locator('.header-cta').click()]);
    expect(await page.locator('.header-cta').getAttribute('aria-current')).toBe('page');

    await page.selectOption(`${QUOTE_FORM} select[name="service"]`, 'analysis-plan');
    expect(await phaseChoices(page)).toEqual(['phase-2', 'phase-3', 'device-pivotal']);
    await page.selectOption(`${QUOTE_FORM} select[name="service"]`, 'interim-analysis');
    expect(await phaseChoices(page)).toEqual(['phase-3']);
    await page.selectOption(`${QUOTE_FORM} select[name="studyPhase"]`, 'phase-3');
    await page.fill('#quote-fullName', 'Morag Lindsay');
    await page.fill('#quote-email', 'morag@kelpie-bio.example');
    await page.fill('#quote-organisation', 'Kelpie Bio');
    await page.fill('#quote-projectDetails', 'Too short');
    await page.check('#quote-consent');
    await page.locator(`${QUOTE_FORM} button[type="submit"]`).click();
    await expect
      .poll(() => page.locator('[data-error-for="projectDetails"]').textContent())
      .toBe('About the project: must be at least 20 characters.');
    expect(await storedQuotes()).toEqual([]);

    await page.fill(
      '#quote-projectDetails',
      'A two-arm phase III trial needing an interim analysis for its DMC.',
    );
    await page.locator(`${QUOTE_FORM} button[type="submit"]`).click();
    await page.locator('[data-form-success] h2').waitFor();
    expect(await page.locator('[data-form-success]').textContent()).toContain(
      'Thank you: your quote request has been received',
    );
    expect(posts).toEqual(['/api/quote-requests']);
    const violations = await runAxe(page);
    expect(violations, describeViolations(violations)).toEqual([]);
    await screenshot(page, 'northbeam-quote-success-desktop');

    expect(await storedQuotes()).toContainEqual({
      form: 'requestQuote',
      fields: {
        fullName: 'Morag Lindsay',
        email: 'morag@kelpie-bio.example',
        organisation: 'Kelpie Bio',
        service: 'interim-analysis',
        studyPhase: 'phase-3',
        projectDetails: 'A two-arm phase III trial needing an interim analysis for its DMC.',
        consent: 'yes',
        sourcePage: '/contact',
      },
    });
    expect(await cspViolationsOf(page)).toEqual([]);
    expect(problems.console).toEqual([]);
    expect(problems.pageErrors).toEqual([]);
  }, 60_000);

  it('without JavaScript on a phone: a phase of another service is refused at the field, then the request is confirmed', async () => {
    const { page } = await openPage(PHONE, 'light', false);
    await page.goto(`${site.url}/contact`);
    // Without the script every service's phases are listed, grouped by service.
    expect(await page.locator(`${QUOTE_FORM} select[name="studyPhase"] optgroup`).count()).toBe(3);
    await page.fill('#quote-fullName', 'Ewan Baird');
    await page.fill('#quote-email', 'ewan@firth-devices.example');
    await page.fill('#quote-phone', '+44 131 496 0000');
    await page.selectOption(`${QUOTE_FORM} select[name="service"]`, 'interim-analysis');
    await page.selectOption(`${QUOTE_FORM} select[name="studyPhase"]`, { label: 'Pilot or feasibility' });
    await page.fill('#quote-projectDetails', 'Pivotal study of a wound dressing, 240 patients.');
    // The consent box sits before its sentence, on the sentence's first line, not on a row of its own.
    const box = (await page.locator('#quote-consent').boundingBox())!;
    const sentence = (await page.locator('label[for="quote-consent"]').boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(sentence.x);
    expect(box.y).toBeLessThan(sentence.y + 24);
    expect(box.width).toBeLessThan(32);
    await page.check('#quote-consent');
    const [refused] = await Promise.all([
      page.waitForResponse((response) => response.url().endsWith('/forms/quote')),
      page.locator(`${QUOTE_FORM} button[type="submit"]`).click(),
    ]);
    expect(refused.status()).toBe(400);
    await page.waitForLoadState('load');
    expect(new URL(page.url()).hash).toBe('#quote-form');
    // In the words of the form, not the contract's slugs.
    expect(await page.locator('[data-error-for="studyPhase"]').textContent()).toBe(
      'Study phase: choose one listed under “Interim analysis and DMC support”, or change “Service”.',
    );
    expect(await page.locator('#quote-studyPhase').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#quote-projectDetails').inputValue()).toBe(
      'Pivotal study of a wound dressing, 240 patients.',
    );
    const violations = await axeOfHtml(await page.content(), PHONE);
    expect(violations, describeViolations(violations)).toEqual([]);
    await screenshot(page, 'northbeam-quote-error-nojs-phone');

    await page.selectOption(`${QUOTE_FORM} select[name="service"]`, 'analysis-plan');
    await page.selectOption(`${QUOTE_FORM} select[name="studyPhase"]`, { label: 'Pivotal device study' });
    await Promise.all([
      page.waitForURL(/\/forms\/quote\/sent/),
      page.locator(`${QUOTE_FORM} button[type="submit"]`).click(),
    ]);
    expect(await page.locator('main').textContent()).toContain(
      'A statistician will reply within two working days.',
    );
    const confirmation = await axeOfHtml(await page.content(), PHONE);
    expect(confirmation, describeViolations(confirmation)).toEqual([]);
    await screenshot(page, 'northbeam-quote-sent-nojs-phone');
    const stored = (await storedQuotes()).find((record) => record.fields.fullName === 'Ewan Baird');
    expect(stored).toEqual({
      form: 'requestQuote',
      fields: {
        fullName: 'Ewan Baird',
        email: 'ewan@firth-devices.example',
        phone: '+44 131 496 0000',
        service: 'analysis-plan',
        studyPhase: 'device-pivotal',
        projectDetails: 'Pivotal study of a wound dressing, 240 patients.',
        consent: 'yes',
        sourcePage: '/contact',
      },
    });
  }, 60_000);
});

describe('the sample site header on a phone', () => {
  it('keeps its six sections on one row that scrolls sideways, not a header growing row by row', async () => {
    const { page } = await openPage(PHONE);
    await page.goto(`${sample.url}/pricing`);
    expect(await menuRows(page)).toHaveLength(1);
    const [scrollWidth, clientWidth] = (await page.evaluate(
      '[document.documentElement.scrollWidth, document.documentElement.clientWidth]',
    )) as [number, number];
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
    // The last section is reachable by scrolling the menu.
    await page.locator('.main-nav a[href="/resources/"]').scrollIntoViewIfNeeded();
    expect(await page.locator('.main-nav a[href="/resources/"]').isVisible()).toBe(true);
    await screenshot(page, 'sample-header-phone');
  });
});
