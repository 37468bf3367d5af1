import type { Browser, BrowserContext, BrowserContextOptions, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERSONAS_BY_COMPANY_TYPE } from '../../src/contract/index.js';
import type { SubmissionKind } from '../../src/submissions/index.js';
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

async function openPage(
  options: BrowserContextOptions = {},
): Promise<{ page: Page; problems: PageProblems }> {
  const context = await browser.newContext({ viewport: DESKTOP, ...options });
  contexts.push(context);
  await recordCspViolations(context);
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  return { page, problems: watchPage(page) };
}

/**
 * axe needs script in the page: for a page seen with JavaScript disabled, the same HTML is served
 * to a JavaScript-enabled page at a same-origin address (so the stylesheet and contrast are real).
 */
async function axeOfHtml(html: string): Promise<ReturnType<typeof runAxe>> {
  const { page } = await openPage();
  const address = `${site.url}/__axe-snapshot`;
  await page.route(address, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: html }));
  await page.goto(address);
  return runAxe(page);
}

async function storedFields(kind: SubmissionKind): Promise<Record<string, string>[]> {
  const records = await site.server.context.submissions.store.list({ kind, limit: 50 });
  return records.map((record) => record.fields as Record<string, string>);
}

/** The templates of the site, each with one representative URL. */
const TEMPLATES: [name: string, path: string][] = [
  ['home', '/'],
  ['section-index', '/solutions/'],
  ['solution-with-suggestion-form', '/solutions/cros'],
  ['product-page', '/product/structured-authoring'],
  ['documentation', '/docs/how-to/author-a-schedule-of-activities'],
  ['demo', '/demo'],
  ['search-results', '/search?q=eligibility+criteria'],
  ['search-empty', '/search'],
  ['not-found', '/no/such/page'],
  ['demo-confirmation', '/forms/demo-request/sent?via=mailto&from=%2Fdemo'],
  // Rendered by the discovery routes with the same layout.
  ['api-docs', '/docs'],
  ['developers', '/developers'],
];

describe('every page template in Chromium', () => {
  for (const [label, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`renders each template at ${viewport.width}px without CSP violations, console errors or axe violations`, async () => {
      const { page, problems } = await openPage({ viewport });
      for (const [name, path] of TEMPLATES) {
        problems.console.length = 0;
        const response = await page.goto(site.url + path, { waitUntil: 'load' });
        expect(response?.status(), path).toBe(name === 'not-found' ? 404 : 200);
        await page.evaluate('document.fonts.ready');
        expect(await cspViolationsOf(page), path).toEqual([]);
        // The 404 page itself is the only failed resource the browser reports.
        const expectedConsole = name === 'not-found' ? [expect.stringContaining('404')] : [];
        expect(problems.console, path).toEqual(expectedConsole);
        expect(problems.pageErrors, path).toEqual([]);
        const violations = await runAxe(page);
        expect(violations, `${path}\n${describeViolations(violations)}`).toEqual([]);
        const widths = (await page.evaluate(
          '[document.documentElement.scrollWidth, document.documentElement.clientWidth]',
        )) as [number, number];
        expect(widths[0], `${path} scrolls sideways`).toBeLessThanOrEqual(widths[1]);
        await screenshot(page, `${name}-${label}`);
      }
    }, 180_000);
  }

  it('shows every content page at phone width without sideways scrolling, CSP violations or axe violations', async () => {
    const { page, problems } = await openPage({ viewport: PHONE });
    const failures: string[] = [];
    for (const contentPage of site.server.context.site.pages) {
      const path = encodeURI(contentPage.url);
      problems.console.length = 0;
      const response = await page.goto(site.url + path);
      if (response?.status() !== 200) failures.push(`${path}: status ${response?.status()}`);
      const csp = await cspViolationsOf(page);
      if (csp.length > 0) failures.push(`${path}: ${csp.join('; ')}`);
      if (problems.console.length > 0) failures.push(`${path}: ${problems.console.join('; ')}`);
      const [scrollWidth, clientWidth] = (await page.evaluate(
        '[document.documentElement.scrollWidth, document.documentElement.clientWidth]',
      )) as [number, number];
      if (scrollWidth > clientWidth) failures.push(`${path}: ${scrollWidth}px wide at ${clientWidth}px`);
      const violations = await runAxe(page);
      if (violations.length > 0) failures.push(`${path}: ${describeViolations(violations)}`);
    }
    expect(failures).toEqual([]);
    expect(problems.pageErrors).toEqual([]);
  }, 300_000);

  it('passes axe in the dark color scheme too', async () => {
    const { page, problems } = await openPage({ colorScheme: 'dark' });
    for (const [name, path] of [TEMPLATES[0]!, TEMPLATES[2]!, TEMPLATES[5]!, TEMPLATES[6]!]) {
      await page.goto(site.url + path);
      const violations = await runAxe(page);
      expect(violations, `${path}\n${describeViolations(violations)}`).toEqual([]);
      expect(await cspViolationsOf(page)).toEqual([]);
      await screenshot(page, `${name}-desktop-dark`);
    }
    expect(problems.console).toEqual([]);
  }, 120_000);

  it('uses the dark palette when the system prefers it', async () => {
    const light = await openPage({ colorScheme: 'light' });
    const dark = await openPage({ colorScheme: 'dark' });
    await light.page.goto(site.url + '/');
    await dark.page.goto(site.url + '/');
    const background = (page: Page) => page.evaluate('getComputedStyle(document.body).backgroundColor');
    expect(await background(light.page)).toBe('rgb(255, 255, 255)');
    expect(await background(dark.page)).not.toBe('rgb(255, 255, 255)');
  });

  it('hides the navigation, search and forms when printed', async () => {
    const { page } = await openPage();
    await page.goto(site.url + '/demo');
    await page.emulateMedia({ media: 'print' });
    const hidden = await page.evaluate(
      `['.site-header', '.site-footer', '.form-section'].map((s) => getComputedStyle(document.querySelector(s)).display)`,
    );
    expect(hidden).toEqual(['none', 'none', 'none']);
  });
});

describe('search as a visitor', () => {
  it('streams results into the header box, highlights the matched words, and follows one with the keyboard', async () => {
    const { page, problems } = await openPage();
    const askRequests: Request[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/ask') askRequests.push(request);
    });
    const streamed: string[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === '/ask')
        streamed.push(response.headers()['content-type'] ?? '');
    });

    await page.goto(site.url + '/product/');
    const input = page.locator('#header-search-input');
    await input.click();
    await input.pressSequentially('eligibility criteria', { delay: 15 });
    const results = page.locator('.live-results .result-link');
    await results.first().waitFor();
    await expect
      .poll(() => page.locator('.live-status').textContent())
      .toMatch(/^\d+ results? for “eligibility criteria”$/);
    expect(await page.locator('.live-results').isVisible()).toBe(true);
    expect(askRequests.length).toBeGreaterThan(0);
    const lastAsk = askRequests.at(-1)!;
    expect(lastAsk.headers().accept).toBe('text/event-stream');
    expect(new URL(lastAsk.url()).searchParams.get('query')).toBe('eligibility criteria');
    expect(streamed.at(-1)).toMatch(/^text\/event-stream/);

    const marks = await page.locator('.live-results mark').allTextContents();
    expect(marks.length).toBeGreaterThan(0);
    for (const mark of marks) expect(mark.toLowerCase()).toMatch(/^(eligib|criteri)/);

    // Keyboard: ArrowDown from the box to the first result, on to the next link (a section of it
    // or the next page), back up.
    await input.press('ArrowDown');
    expect(await page.evaluate('document.activeElement.className')).toBe('result-link');
    const links = page.locator('.live-results .results-list a');
    const firstHref = await links.nth(0).getAttribute('href');
    await page.keyboard.press('ArrowDown');
    const secondHref = await links.nth(1).getAttribute('href');
    expect(await page.evaluate('document.activeElement.getAttribute("href")')).toBe(secondHref);
    // The focused result is visibly marked.
    expect(await page.evaluate('getComputedStyle(document.activeElement).outlineStyle')).not.toBe('none');
    await page.keyboard.press('ArrowUp');
    expect(await page.evaluate('document.activeElement.getAttribute("href")')).toBe(firstHref);
    expect(firstHref).toMatch(/^\/[^/]/);

    await Promise.all([
      page.waitForURL((url) => url.pathname === firstHref!.split('#')[0]),
      page.keyboard.press('Enter'),
    ]);
    expect(await page.locator('h1').first().textContent()).toBeTruthy();

    // Escape closes the panel and returns to the box.
    await page.locator('#header-search-input').fill('amendments');
    await page.locator('.live-results .result-link').first().waitFor();
    await page.locator('#header-search-input').press('Escape');
    expect(await page.locator('.live-results').isVisible()).toBe(false);

    expect(await cspViolationsOf(page)).toEqual([]);
    expect(problems.console).toEqual([]);
    expect(problems.pageErrors).toEqual([]);
  }, 60_000);

  it('answers from the second letter, shows the correction line, and lists a page once with its sections', async () => {
    const { page, problems } = await openPage();
    await page.goto(site.url + '/product/');
    const input = page.locator('#header-search-input');
    await input.click();
    await input.pressSequentially('pr', { delay: 15 });
    await page.locator('.live-results .result-link').first().waitFor();
    await expect.poll(() => page.locator('.live-status').textContent()).toMatch(/^\d+ results? for “pr”$/);
    expect(await page.locator('.live-correction').isVisible()).toBe(false);

    await input.fill('');
    await input.pressSequentially('informed consnt', { delay: 15 });
    await expect
      .poll(() => page.locator('.live-status').textContent())
      // The count names the corrected query, never the misspelling beside the correction.
      .toMatch(/^\d+ results? for “informed consent”$/);
    expect(await page.locator('.live-correction').textContent()).toBe(
      'Showing results for “informed consent”',
    );
    expect(await page.locator('.live-correction').isVisible()).toBe(true);
    const pages = (await page
      .locator('.live-results .result-link')
      .evaluateAll((links) =>
        links.map((link) => new URL((link as unknown as { href: string }).href).pathname),
      )) as string[];
    expect(new Set(pages).size).toBe(pages.length);
    // Sections of a page sit inside its entry and link to their anchors on that page.
    const sections = page.locator('.live-results .result .result-sections .result-section');
    expect(await sections.count()).toBeGreaterThan(0);
    const sectionHref = await sections.first().getAttribute('href');
    expect(sectionHref).toMatch(/^\/[^#]+#.+/);
    const owner = await sections
      .first()
      .evaluate(
        (link) =>
          (link.closest('.result')!.querySelector('.result-link') as unknown as { pathname: string })
            .pathname,
      );
    expect(sectionHref!.split('#')[0]).toBe(owner);

    // Keyboard reaches the section links too.
    await input.press('ArrowDown');
    const all = page.locator('.live-results .results-list a');
    const count = await all.count();
    for (let i = 1; i < count; i++) await page.keyboard.press('ArrowDown');
    expect(await page.evaluate('document.activeElement.getAttribute("href")')).toBe(
      await all.nth(count - 1).getAttribute('href'),
    );

    expect(await cspViolationsOf(page)).toEqual([]);
    expect(problems.console).toEqual([]);
    expect(problems.pageErrors).toEqual([]);
  }, 60_000);

  it('searches live on the search page and keeps the query in the address', async () => {
    const { page, problems } = await openPage();
    await page.goto(site.url + '/search');
    const asks: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/ask') asks.push(request.url());
    });
    await page.locator('#search-page-input').fill('informed consent');
    await page.locator('#search-page-input').press('Enter');
    await page.locator('[data-search-list] .result-link').first().waitFor();
    await expect
      .poll(() => page.locator('[data-search-status]').textContent())
      .toMatch(/results? for “informed consent”/);
    // Enter searched at once; the search the typing had scheduled must not run again after it.
    await page.waitForTimeout(500);
    expect(asks).toHaveLength(1);
    expect(new URL(page.url()).search).toBe('?q=informed%20consent');
    expect(await page.title()).toMatch(/^Search: informed consent \| /);
    expect(await page.locator('[data-search-list] mark').count()).toBeGreaterThan(0);
    expect(problems.console).toEqual([]);
  });

  it('works without JavaScript: the header box submits to the server-rendered results page', async () => {
    const { page, problems } = await openPage({ javaScriptEnabled: false });
    await page.goto(site.url + '/security');
    await page.locator('#header-search-input').fill('schedule of activities');
    await Promise.all([page.waitForURL(/\/search\?q=/), page.locator('#header-search-input').press('Enter')]);
    expect(new URL(page.url()).searchParams.get('q')).toBe('schedule of activities');
    const titles = await page.locator('[data-search-list] .result-title').allTextContents();
    expect(titles.length).toBeGreaterThan(0);
    expect(await page.locator('[data-search-list] mark').count()).toBeGreaterThan(0);
    await Promise.all([
      page.waitForURL((url) => url.pathname !== '/search'),
      page.locator('[data-search-list] .result-link').first().click(),
    ]);
    expect(await cspViolationsOf(page)).toEqual([]);
    expect(problems.console).toEqual([]);
  });
});

async function personaValues(page: Page, formSelector: string): Promise<string[]> {
  return page
    .locator(`${formSelector} select[name="persona"] option`)
    .evaluateAll((options) =>
      options.map((option) => (option as unknown as { value: string }).value).filter((v) => v !== ''),
    );
}

describe('the demo request form', () => {
  it('with JavaScript: persona choices follow the company type, errors appear at the field, then success', async () => {
    const { page, problems } = await openPage();
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') posts.push(new URL(request.url()).pathname);
    });
    await page.goto(site.url + '/demo');
    const form = 'form[data-enhance-form="demo"]';

    await page.selectOption(`${form} select[name="companyType"]`, 'research-site');
    expect(await personaValues(page, form)).toEqual([...PERSONAS_BY_COMPANY_TYPE['research-site']]);
    await page.selectOption(`${form} select[name="companyType"]`, 'cro');
    expect(await personaValues(page, form)).toEqual([...PERSONAS_BY_COMPANY_TYPE.cro]);
    await page.selectOption(`${form} select[name="persona"]`, 'regulatory-affairs');
    // A persona that also belongs to the new type stays chosen.
    await page.selectOption(`${form} select[name="companyType"]`, 'sponsor');
    expect(await page.locator(`${form} select[name="persona"]`).inputValue()).toBe('regulatory-affairs');

    // Empty required fields: caught in the browser, nothing is sent.
    await page.locator(`${form} button[type="submit"]`).click();
    expect(await page.locator('[data-error-for="firstName"]').textContent()).toBe(
      'First name: please fill this in.',
    );
    expect(await page.locator('[data-error-for="email"]').textContent()).toBe(
      'Work email: please fill this in.',
    );
    expect(await page.evaluate('document.activeElement.name')).toBe('firstName');
    expect(await page.locator('#demo-email').getAttribute('aria-invalid')).toBe('true');
    expect(posts).toEqual([]);
    const violationsWithErrors = await runAxe(page);
    expect(violationsWithErrors, describeViolations(violationsWithErrors)).toEqual([]);

    // An address the browser accepts but the contract does not: the server's answer is shown at the field.
    await page.fill('#demo-firstName', 'Ada');
    await page.fill('#demo-lastName', 'Lovelace');
    await page.fill('#demo-email', 'ada@example');
    await page.fill('#demo-company', 'Analytical Engines');
    await page.fill('#demo-message', 'Show us the schedule of activities builder.');
    await page.locator(`${form} button[type="submit"]`).click();
    await expect
      .poll(() => page.locator('[data-error-for="email"]').textContent())
      .toBe('Work email: enter an e-mail address such as name@company.com.');
    expect(posts).toEqual(['/api/leads']);
    expect(await page.evaluate('document.activeElement.name')).toBe('email');
    expect(await page.locator('[data-error-for="firstName"]').textContent()).toBe('');
    expect(await page.locator('[data-form-errors]').textContent()).toContain(
      'Work email: enter an e-mail address such as name@company.com.',
    );
    expect(await storedFields('lead')).toEqual([]);

    await page.fill('#demo-email', 'ada@analytical-engines.example.com');
    await page.locator(`${form} button[type="submit"]`).click();
    await page.locator('[data-form-success] h2').waitFor();
    expect(await page.locator('[data-form-success]').textContent()).toContain(
      'Thank you: your demo request has been received',
    );
    expect(await page.locator(form).isVisible()).toBe(false);
    expect(await page.evaluate('document.activeElement.hasAttribute("data-form-success")')).toBe(true);
    expect(await page.locator('[data-form-success]').getAttribute('aria-live')).toBe('polite');
    const violationsAfter = await runAxe(page);
    expect(violationsAfter, describeViolations(violationsAfter)).toEqual([]);
    await screenshot(page, 'demo-success-desktop');

    expect(await storedFields('lead')).toContainEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@analytical-engines.example.com',
      company: 'Analytical Engines',
      companyType: 'sponsor',
      persona: 'regulatory-affairs',
      message: 'Show us the schedule of activities builder.',
      sourcePage: '/demo',
    });
    expect(await cspViolationsOf(page)).toEqual([]);
    // The browser reports the 400 answer of the first attempt as a failed resource, nothing else.
    expect(problems.console).toEqual([expect.stringContaining('400')]);
    expect(problems.pageErrors).toEqual([]);
  }, 60_000);

  it('without JavaScript: the server re-renders the form with the error and the values, then confirms', async () => {
    const { page, problems } = await openPage({ javaScriptEnabled: false });
    await page.goto(site.url + '/demo');
    await page.fill('#demo-firstName', 'Grace');
    await page.fill('#demo-lastName', 'Hopper');
    await page.fill('#demo-email', 'grace@navy');
    await page.fill('#demo-role', 'Rear admiral');
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/forms/demo-request')),
      page.locator('form[data-enhance-form="demo"] button[type="submit"]').click(),
    ]);
    expect(response.status()).toBe(400);
    await page.waitForLoadState('load');
    expect(new URL(page.url()).hash).toBe('#demo-form');
    expect(await page.locator('[data-error-for="email"]').textContent()).toBe(
      'Work email: enter an e-mail address such as name@company.com.',
    );
    expect(await page.locator('#demo-email').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#demo-role').inputValue()).toBe('Rear admiral');
    const violations = await axeOfHtml(await page.content());
    expect(violations, describeViolations(violations)).toEqual([]);
    await screenshot(page, 'demo-error-nojs-desktop');

    await page.fill('#demo-email', 'grace@navy.example.org');
    await Promise.all([
      page.waitForURL(/\/forms\/demo-request\/sent/),
      page.locator('form[data-enhance-form="demo"] button[type="submit"]').click(),
    ]);
    expect(await page.locator('main').textContent()).toContain(
      'Thank you: your demo request has been received',
    );
    expect(await storedFields('lead')).toContainEqual({
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace@navy.example.org',
      role: 'Rear admiral',
      sourcePage: '/demo',
    });
    // Reloading the confirmation does not send the form again.
    const before = (await storedFields('lead')).length;
    await page.reload();
    expect((await storedFields('lead')).length).toBe(before);
    expect(await cspViolationsOf(page)).toEqual([]);
    expect(problems.console).toEqual([expect.stringContaining('400')]);
  }, 60_000);
});

describe('the document suggestion form', () => {
  it('with JavaScript: preselects the audience of the page and posts to the API', async () => {
    const { page, problems } = await openPage({ viewport: PHONE });
    await page.goto(site.url + '/solutions/research-sites');
    const form = 'form[data-enhance-form="suggestion"]';
    expect(await page.locator(`${form} select[name="companyType"]`).inputValue()).toBe('research-site');
    expect(await personaValues(page, form)).toEqual([...PERSONAS_BY_COMPANY_TYPE['research-site']]);
    expect(
      await page
        .locator(`${form} select[name="companyType"] option`)
        .evaluateAll((options) => options.map((option) => (option as unknown as { value: string }).value)),
    ).toEqual(['', 'cro', 'research-site']);

    await page.goto(site.url + '/solutions/cros');
    expect(await page.locator(`${form} select[name="companyType"]`).inputValue()).toBe('cro');
    expect(await personaValues(page, form)).toEqual([...PERSONAS_BY_COMPANY_TYPE.cro]);
    await page.selectOption(`${form} select[name="persona"]`, 'study-start-up');
    await page.fill('#suggestion-suggestion', 'x');
    await page.locator(`${form} button[type="submit"]`).click();
    expect(await page.locator('[data-error-for="suggestion"]').textContent()).toMatch(
      /^Document type: must be at least 2 characters\.$/,
    );

    await page.fill(
      '#suggestion-suggestion',
      'A site budget template derived from the schedule of activities',
    );
    await page.fill('#suggestion-email', 'startup@cro.example.com');
    await page.locator(`${form} button[type="submit"]`).click();
    await page.locator('[data-form-success] h2').waitFor();
    expect(await page.locator('[data-form-success]').textContent()).toContain(
      'Thank you: your suggestion has been received',
    );
    await screenshot(page, 'suggestion-success-phone');
    expect(await storedFields('suggestion')).toContainEqual({
      companyType: 'cro',
      persona: 'study-start-up',
      suggestion: 'A site budget template derived from the schedule of activities',
      email: 'startup@cro.example.com',
      sourcePage: '/solutions/cros',
    });
    expect(await cspViolationsOf(page)).toEqual([]);
    expect(problems.console).toEqual([]);
  }, 60_000);

  it('without JavaScript: a role from the wrong audience is refused at the field, then the suggestion is accepted', async () => {
    const { page } = await openPage({ javaScriptEnabled: false });
    await page.goto(site.url + '/solutions/research-sites');
    const form = 'form[data-enhance-form="suggestion"]';
    // Without the script every audience's roles are listed, grouped.
    expect(await page.locator(`${form} select[name="persona"] optgroup`).count()).toBe(2);
    await page.selectOption(`${form} select[name="persona"]`, 'study-start-up');
    await page.fill('#suggestion-suggestion', 'Pharmacy manual');
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/forms/document-suggestion')),
      page.locator(`${form} button[type="submit"]`).click(),
    ]);
    await page.waitForLoadState('load');
    expect(await page.locator('[data-error-for="persona"]').textContent()).toMatch(
      /^Choose an area listed under “Research site”/,
    );
    expect(await page.locator('#suggestion-suggestion').inputValue()).toBe('Pharmacy manual');

    await page.selectOption(`${form} select[name="persona"]`, 'principal-investigator');
    await Promise.all([
      page.waitForURL(/\/forms\/document-suggestion\/sent/),
      page.locator(`${form} button[type="submit"]`).click(),
    ]);
    expect(await page.locator('main').textContent()).toContain(
      'Thank you: your suggestion has been received',
    );
    expect(await storedFields('suggestion')).toContainEqual({
      companyType: 'research-site',
      persona: 'principal-investigator',
      suggestion: 'Pharmacy manual',
      sourcePage: '/solutions/research-sites',
    });
  }, 60_000);
});

describe("the forms' spam traps", () => {
  it('quarantine a filled honeypot and a form sent too fast, while the visitor sees the usual success', async () => {
    // A minimum fill time no one reaches, so "too fast" is certain whatever the machine's speed.
    const strict = await startSiteServer({ FORM_MIN_FILL_MS: '600000' });
    try {
      const sent = async (email: string, fillHoneypot: boolean) => {
        const { page, problems } = await openPage();
        const headers: Record<string, string>[] = [];
        page.on('request', (request) => {
          if (request.method() === 'POST') headers.push(request.headers());
        });
        await page.goto(strict.url + '/demo');
        const form = 'form[data-enhance-form="demo"]';
        // forms.js turns off the browser's own validation when it takes the form over: until
        // then a click would post the plain HTML form, which has no data-form-success block.
        await page.waitForFunction(`document.querySelector('${form}')?.noValidate === true`);
        await page.fill('#demo-firstName', 'Robo');
        await page.fill('#demo-lastName', 'Filler');
        await page.fill('#demo-email', email);
        await page.selectOption(`${form} select[name="companyType"]`, 'sponsor');
        await page.selectOption(`${form} select[name="persona"]`, 'regulatory-affairs');
        // What a form-filling bot does and a person cannot: fill the field that is off screen.
        if (fillHoneypot)
          await page.evaluate('document.querySelector("#demo-website").value = "https://spam.example"');
        await page.locator(`${form} button[type="submit"]`).click();
        await page.locator('[data-form-success] h2').waitFor();
        expect(problems.pageErrors).toEqual([]);
        return headers[0]!;
      };
      const botHeaders = await sent('bot@robo.example', true);
      expect(botHeaders['form-honeypot']).toBe('1');
      const quickHeaders = await sent('quick@robo.example', false);
      expect(quickHeaders['form-honeypot']).toBeUndefined();
      expect(Number(quickHeaders['form-fill-ms'])).toBeGreaterThan(0);

      const stored = await strict.server.context.submissions.store.list({ kind: 'lead', limit: 10 });
      const reasons = Object.fromEntries(
        stored.map((record) => [record.fields.email, record.quarantineReason]),
      );
      expect(reasons).toEqual({ 'bot@robo.example': 'honeypot', 'quick@robo.example': 'too-fast' });
      // The trap field never reaches the stored fields, and nothing was delivered.
      expect(stored.every((record) => record.fields.website === undefined)).toBe(true);
      expect(stored.every((record) => record.delivery?.state === 'quarantine')).toBe(true);
    } finally {
      await strict.close();
    }
  }, 60_000);
});
