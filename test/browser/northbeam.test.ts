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
    startSiteServer({ CONTENT_DIR: NORTHBEAM }),
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
): Promise<{ page: Page; problems: PageProblems }> {
  const context = await browser.newContext({
    viewport,
    colorScheme,
    ...(viewport === PHONE ? { isMobile: true } : {}),
  });
  contexts.push(context);
  await recordCspViolations(context);
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  return { page, problems: watchPage(page) };
}

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
