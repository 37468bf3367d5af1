import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, screenshot } from '../support/browser.js';
import { startSiteServer, type SiteServer } from '../support/servers.js';

let site: SiteServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  site = await startSiteServer();
  browser = await launchChromium();
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await site?.close();
});

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 812 };

async function openPage(viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ viewport, ...(viewport === PHONE ? { isMobile: true } : {}) });
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  return page;
}

/** The width the selected option's text needs, and the width the select gives it. */
async function selectFit(page: Page, selector: string): Promise<{ needed: number; available: number }> {
  // A string, evaluated in the page (this project's types have no DOM).
  return (await page.evaluate(`(() => {
    const select = document.querySelector(${JSON.stringify(selector)});
    const style = getComputedStyle(select);
    const canvas = document.createElement('canvas').getContext('2d');
    canvas.font = style.fontWeight + ' ' + style.fontSize + ' ' + style.fontFamily;
    const text = select.options[select.selectedIndex] ? select.options[select.selectedIndex].text : '';
    const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
    return { needed: canvas.measureText(text).width, available: select.clientWidth - padding };
  })()`)) as { needed: number; available: number };
}

describe('the document suggestion form on a phone', () => {
  it('is linked from the top of the page, and its company-type select shows every choice whole', async () => {
    const page = await openPage(PHONE);
    await page.goto(`${site.url}/solutions/research-sites`);
    const jump = page.locator('.jump-to-form a[href="#suggestion-form"]');
    await expect.poll(() => jump.isVisible()).toBe(true);
    // The link is within the first screen; the form is where it leads.
    expect((await jump.boundingBox())!.y).toBeLessThan(PHONE.height);
    await jump.click();
    await expect
      .poll(() =>
        page.locator('#suggestion-form').evaluate((el) => Math.round(el.getBoundingClientRect().top)),
      )
      .toBeLessThan(PHONE.height / 2);
    // The form comes before the list of sub-pages, not after it.
    const order = await page.evaluate(`(() => {
      const form = document.querySelector('#suggestion-form');
      const list = document.querySelector('.section-children');
      return form && list ? form.compareDocumentPosition(list) & Node.DOCUMENT_POSITION_FOLLOWING : -1;
    })()`);
    expect(order).not.toBe(0);

    const select = '#suggestion-companyType';
    for (const value of ['cro', 'research-site']) {
      await page.selectOption(select, value);
      const { needed, available } = await selectFit(page, select);
      expect(needed, `${value}: the text needs ${needed} px of ${available} px`).toBeLessThanOrEqual(
        available,
      );
    }
    await page.selectOption(select, 'cro');
    await screenshot(page, 'suggestion-form-phone');
  });

  it('names the field in a sentence of its own when a value is too short', async () => {
    const page = await openPage(PHONE);
    await page.goto(`${site.url}/solutions/cros#suggestion-form`);
    await page.locator('form[data-enhance-form="suggestion"][novalidate]').waitFor();
    await page.selectOption('#suggestion-companyType', 'cro');
    await page.selectOption('#suggestion-persona', 'study-start-up');
    await page.fill('#suggestion-suggestion', 'x');
    await page.click('form[data-enhance-form="suggestion"] button[type="submit"]');
    await expect
      .poll(() => page.locator('[data-error-for="suggestion"]').textContent())
      .toBe('Document type: must be at least 2 characters.');
    await screenshot(page, 'suggestion-form-error-phone');
  });
});

describe('the header search box on a desktop', () => {
  it('holds a typed question while it is used', async () => {
    const page = await openPage(DESKTOP);
    await page.goto(`${site.url}/product/collaboration`);
    const input = page.locator('#header-search-input');
    await input.click();
    await input.fill('how do I export a protocol to Word');
    const fits = (await page.evaluate(
      `(() => { const el = document.activeElement; return { scroll: el.scrollWidth, client: el.clientWidth }; })()`,
    )) as { scroll: number; client: number };
    expect(fits.scroll, JSON.stringify(fits)).toBeLessThanOrEqual(fits.client);
    // The page does not scroll sideways because of it.
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(DESKTOP.width);
  });
});

describe('the 404 page', () => {
  it('fills its search box from the path and offers the closest pages', async () => {
    const page = await openPage(PHONE);
    const response = await page.goto(`${site.url}/pricng`);
    expect(response?.status()).toBe(404);
    expect(await page.locator('#not-found-search').inputValue()).toBe('pricng');
    const closest = page.locator('.closest-pages a');
    expect(await closest.first().getAttribute('href')).toBe('/pricing');
    await screenshot(page, 'not-found-phone');
    // A path with no word leaves the box empty and offers nothing.
    await page.goto(`${site.url}/--/`);
    expect(await page.locator('#not-found-search').inputValue()).toBe('');
    expect(await page.locator('.closest-pages').count()).toBe(0);
  });
});
