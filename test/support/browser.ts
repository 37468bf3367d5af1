import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/*
 * Debian's Chromium through playwright-core, for the browser suite: launch it, watch a page's
 * errors and CSP violations, run axe-core, take screenshots. The server it loads pages from is
 * `startSiteServer` (./servers.ts).
 */

/** Debian's Chromium: the real binary is faster to start than the /usr/bin wrapper script. */
const CHROMIUM_PATHS = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'];

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export const SCREENSHOT_DIR = resolve('test-results', 'screenshots');

export async function launchChromium(): Promise<Browser> {
  const executablePath = CHROMIUM_PATHS.find((path) => existsSync(path));
  if (!executablePath)
    throw new Error(
      `Chromium is missing: the browser tests need Debian's chromium package (apt-get install -y chromium); looked for ${CHROMIUM_PATHS.join(', ')}`,
    );
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
}

/** Console errors (the browser reports CSP refusals there too) and uncaught page errors. */
export interface PageProblems {
  console: string[];
  pageErrors: string[];
}

/** Records every error a page reports; CSP violation events are read with `cspViolationsOf`. */
export function watchPage(page: Page): PageProblems {
  const problems: PageProblems = { console: [], pageErrors: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') problems.console.push(message.text());
  });
  page.on('pageerror', (error) => problems.pageErrors.push(error.message));
  return problems;
}

/** Installs the CSP violation listener before any page script runs (the test code is not under the page's CSP). */
export async function recordCspViolations(context: BrowserContext): Promise<void> {
  await context.addInitScript({
    content: `
      window.__cspViolations = [];
      document.addEventListener('securitypolicyviolation', (event) => {
        window.__cspViolations.push(event.violatedDirective + ' blocked ' + (event.blockedURI || 'inline') +
          ' (' + event.sourceFile + ':' + event.lineNumber + ')');
      });`,
  });
}

export async function cspViolationsOf(page: Page): Promise<string[]> {
  return page.evaluate('window.__cspViolations || []');
}

export const AXE_SOURCE = readFileSync(resolve('node_modules', 'axe-core', 'axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/**
 * Runs axe-core (WCAG 2.0/2.1 A and AA plus best practices) in the page. The script is evaluated
 * through the DevTools protocol, which the page's CSP does not govern.
 */
export async function runAxe(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(`(async () => {
    const result = await window.axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      resultTypes: ['violations'],
    });
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.map((node) => ({ target: node.target, failureSummary: node.failureSummary })),
    }));
  })()`);
}

export function describeViolations(violations: AxeViolation[]): string {
  return violations
    .map((v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => n.target.join(' ')).join('\n  ')}`)
    .join('\n');
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}
