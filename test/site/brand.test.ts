import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { contrastRatio, loadSite, parseHexColour, type ContentProblem } from '../../src/content/index.js';
import { contentFolder, QUOTE_FORM_YAML, REPO_ROOT } from '../support/files.js';
import { buildTestApp, TEST_BASE_URL, type TestApp } from '../support/servers.js';
import { jsonLdOf, page } from './helpers.js';

/** The second company: its own name, logo, colours, fonts and menus, served by the same build. */
const NORTHBEAM = join(REPO_ROOT, 'test', 'fixtures', 'northbeam');

let northbeam: TestApp;
let sample: TestApp;

beforeAll(async () => {
  [northbeam, sample] = await Promise.all([buildTestApp({ CONTENT_DIR: NORTHBEAM }), buildTestApp()]);
});

afterAll(async () => {
  await Promise.all([northbeam?.close(), sample?.close()]);
});

async function html(app: TestApp, url: string): Promise<string> {
  const response = await app.app.inject({ url, headers: { accept: 'text/html' } });
  expect(response.statusCode).toBe(200);
  return response.body;
}

function linksIn(html: string, element: RegExp): string[] {
  const block = element.exec(html)?.[0] ?? '';
  return [...block.matchAll(/<a href="([^"]+)"[^>]*>([^<]*)<\/a>/g)].map((m) => `${m[2]} ${m[1]}`);
}

/** The browser chrome colours a page names for its light and dark schemes (and nothing else). */
function themeColours(body: string): Record<string, string> {
  const tags = [...body.matchAll(/<meta name="theme-color"[^>]*>/g)].map((m) => m[0]);
  return Object.fromEntries(
    tags.map((tag) => {
      const match =
        /^<meta name="theme-color" media="\(prefers-color-scheme: (light|dark)\)" content="(#[0-9a-f]{6})">$/.exec(
          tag,
        );
      if (!match) throw new Error(`unexpected theme-color tag: ${tag}`);
      return [match[1]!, match[2]!];
    }),
  );
}

/** The dark scheme's soft primary ground of each brand (brand.css), which the dark chrome matches. */
const NORTHBEAM_DARK_CHROME = '#331e40';
const SAMPLE_DARK_CHROME = '#0f2d2f';

describe('a second company served by the same build (test/fixtures/northbeam)', () => {
  it('carries its own logo, stylesheet, favicon, social card and name on every page', async () => {
    for (const url of ['/', '/services', '/pricing', '/about', '/contact', '/privacy']) {
      const body = await html(northbeam, url);
      expect(body).toContain('<img class="brand-logo" src="/brand/northbeam-logo.svg"');
      expect(body).toMatch(/<link rel="stylesheet" href="\/assets\/brand\.css\?v=[0-9a-f]{12}">/);
      expect(body).toContain('<link rel="icon" href="/brand/northbeam-logo.svg" type="image/svg+xml">');
      expect(body).toContain(
        `<meta property="og:image" content="${TEST_BASE_URL}/brand/northbeam-logo.svg">`,
      );
      expect(themeColours(body)).toEqual({ light: '#7a2e8c', dark: NORTHBEAM_DARK_CHROME });
      expect(body).toContain('© Northbeam Biostatistics GmbH');
      expect(body.toLowerCase()).not.toContain('trialwright');
    }
    const graph = (jsonLdOf(await html(northbeam, '/')) as { '@graph': { logo?: string }[] })['@graph'];
    expect(graph[0]!.logo).toBe(`${TEST_BASE_URL}/brand/northbeam-logo.svg`);
  });

  it('has its configured header menu and footer columns, labels taken from the pages when not given', async () => {
    const body = await html(northbeam, '/pricing');
    expect(linksIn(body, /<nav class="main-nav"[\s\S]*?<\/nav>/)).toEqual([
      'Services /services',
      'Prices /pricing',
      'About Northbeam /about',
      'Contact /contact',
    ]);
    expect(body).toContain('<a href="/pricing" aria-current="page">Prices</a>');
    expect(linksIn(body, /<nav class="footer-nav" aria-label="Work with us">[\s\S]*?<\/nav>/)).toEqual([
      'Services /services',
      'Pricing /pricing',
      'Contact /contact',
    ]);
    expect(linksIn(body, /<nav class="footer-nav" aria-label="The small print">[\s\S]*?<\/nav>/)).toEqual([
      'Privacy /privacy',
      'About Northbeam /about',
    ]);
  });

  it('leads its header button, home page and agents’ pages to its own quote form, not to a demo', async () => {
    const cta = (path: string) =>
      `<a class="button button-primary header-cta" href="/contact"${path === '/contact' ? ' aria-current="page"' : ''}>Request a quote</a>`;
    for (const url of ['/', '/services', '/pricing', '/about', '/contact', '/privacy', '/developers']) {
      const body = await html(northbeam, url);
      expect(body, url).toContain(cta(url));
      expect(body, url).not.toContain('href="/demo"');
      expect(body, url).not.toContain('Request a demo');
    }
    const home = await html(northbeam, '/');
    expect(home).toContain(
      '<div class="hero-actions"><a class="button button-primary" href="/contact">Request a quote</a>',
    );
    expect(home).toContain(
      '<h2 id="closing-title">Request a quote</h2><p class="lead">Tell us about your study and we will send a fixed-price quote within two working days.</p><a class="button button-primary" href="/contact">Request a quote</a>',
    );
    // The seed's built-in demo page is not part of a site without the demo form.
    expect((await northbeam.app.inject({ url: '/demo', headers: { accept: 'text/html' } })).statusCode).toBe(
      404,
    );
  });

  it('takes the first configured form a page carries for its button, and shows none when no page carries one', async () => {
    const forms = (placed: boolean) =>
      contentFolder({
        '_site.yaml': [
          'name: Quill & Co',
          'forms:',
          '  - id: requestCallback',
          '    title: Request a call back',
          '    fields:',
          '      - { name: phone, type: tel, label: Phone, required: true }',
          '  - id: requestQuote',
          '    title: Request a quote',
          '    intro: Tell us what you need.',
          '    fields:',
          '      - { name: email, type: email, label: Work email, required: true }',
          '',
        ].join('\n'),
        'index.md': page({ title: 'Quill & Co', description: 'Pens.' }, 'Hello.'),
        'pricing.md': page({ title: 'Pricing', description: 'What it costs.' }, 'Cheap.'),
        'contact.md': page(
          { title: 'Contact', description: 'Write.', ...(placed ? { form: 'quote' } : {}) },
          'Hi.',
        ),
      });
    const placed = await buildTestApp({ CONTENT_DIR: forms(true) });
    try {
      const body = await html(placed, '/pricing');
      // The call-back form comes first in forms:, but no page carries it.
      expect(body).toContain(
        '<a class="button button-primary header-cta" href="/contact">Request a quote</a>',
      );
      // The derived footer lists the form once, in Explore, not again among the company pages.
      expect(linksIn(body, /<nav class="footer-nav" aria-label="Explore">[\s\S]*?<\/nav>/)).toEqual([
        'Pricing /pricing',
        'Request a quote /contact',
        'Search /search',
      ]);
      expect(body).not.toContain('aria-label="Company"');
    } finally {
      await placed.close();
    }
    const unplaced = await buildTestApp({ CONTENT_DIR: forms(false) });
    try {
      for (const url of ['/', '/pricing']) {
        const body = await html(unplaced, url);
        expect(body, url).not.toContain('header-cta');
        expect(body, url).not.toContain('href="/demo"');
        expect(body, url).not.toContain('closing-title');
        expect(linksIn(body, /<nav class="footer-nav" aria-label="Explore">[\s\S]*?<\/nav>/), url).toEqual([
          'Pricing /pricing',
          'Search /search',
        ]);
      }
    } finally {
      await unplaced.close();
    }
  });

  it("leaves the primary form's page out of a derived header menu: the button leads there", async () => {
    const root = contentFolder({
      '_site.yaml': `name: Quill & Co\n${QUOTE_FORM_YAML}`,
      'index.md': page({ title: 'Quill & Co', description: 'Pens.' }, 'Hello.'),
      'pricing.md': page({ title: 'Pricing', description: 'What it costs.', nav: 1 }, 'Cheap.'),
      'contact.md': page({ title: 'Contact', description: 'Write.', nav: 2, form: 'quote' }, 'Hi.'),
    });
    const app = await buildTestApp({ CONTENT_DIR: root });
    try {
      const body = await html(app, '/pricing');
      expect(linksIn(body, /<nav class="main-nav"[\s\S]*?<\/nav>/)).toEqual(['Pricing /pricing']);
      expect(body).toContain(
        '<a class="button button-primary header-cta" href="/contact">Request a quote</a>',
      );
    } finally {
      await app.close();
    }
  });

  it("keeps a menu link's query and fragment as written and percent-encodes only its path", async () => {
    const root = contentFolder({
      '_site.yaml': [
        'name: Quill & Co',
        'navigation:',
        '  - { label: Plans, url: "/pricing#plans" }',
        '  - { label: Our story, url: "/about us?from=menu" }',
        '',
      ].join('\n'),
      'index.md': page({ title: 'Quill & Co', description: 'Pens.' }, 'Hello.'),
      'pricing.md': page({ title: 'Pricing', description: 'What it costs.' }, 'Cheap.'),
    });
    const app = await buildTestApp({ CONTENT_DIR: root });
    try {
      const body = await html(app, '/');
      expect(linksIn(body, /<nav class="main-nav"[\s\S]*?<\/nav>/)).toEqual([
        'Plans /pricing#plans',
        'Our story /about%20us?from=menu',
      ]);
    } finally {
      await app.close();
    }
  });

  it('serves its stylesheet from its colours and fonts, immutable under its hash, and its logo file', async () => {
    const body = await html(northbeam, '/');
    const href = /href="(\/assets\/brand\.css\?v=[0-9a-f]{12})"/.exec(body)![1]!;
    const css = await northbeam.app.inject({ url: href });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.headers['cache-control']).toContain('immutable');
    expect(css.body).toContain('--primary: #7a2e8c;');
    expect(css.body).toContain('--bg: #fffdf8;');
    expect(css.body).toContain("--font-sans: Georgia, 'Times New Roman', serif;");
    expect(css.body).toContain("--font-headings: 'Trebuchet MS', Verdana, sans-serif;");
    // The dark browser chrome (theme-color) is the dark scheme's own soft primary ground.
    const dark = css.body.slice(css.body.indexOf('@media (prefers-color-scheme: dark)'));
    expect(dark).toContain(`--primary-soft: ${NORTHBEAM_DARK_CHROME};`);
    const logo = await northbeam.app.inject({ url: '/brand/northbeam-logo.svg' });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toBe('image/svg+xml');
    expect(logo.body).toContain('#f0a23b');
    // Only the files the brand names are published, not the rest of the content folder.
    expect((await northbeam.app.inject({ url: '/brand/_site.yaml' })).statusCode).toBe(404);
    expect((await northbeam.app.inject({ url: '/brand/services.md' })).statusCode).toBe(404);
  });

  it('differs from the sample site, whose brand is its own configuration', async () => {
    const body = await html(sample, '/');
    expect(body).toContain('<img class="brand-logo" src="/brand/logo.svg"');
    expect(body).toContain('<img class="hero-art" src="/brand/hero.svg" alt=""');
    expect(themeColours(body)).toEqual({ light: '#0b5c59', dark: SAMPLE_DARK_CHROME });
    // The footer now leads to the company and legal pages, which it did not before.
    for (const link of ['/pricing', '/about', '/contact', '/privacy', '/terms'])
      expect(/<footer[\s\S]*<\/footer>/.exec(body)![0]).toContain(`<a href="${link}">`);
    // The header is the one the sample had: its pages marked nav, in their order.
    expect(linksIn(body, /<nav class="main-nav"[\s\S]*?<\/nav>/)).toEqual([
      'Product /product/',
      'Solutions /solutions/',
      'Documents /documents/',
      'Security /security',
      'Docs /docs/',
      'Resources /resources/',
    ]);
  });
});

function located(problems: ContentProblem[]): string[] {
  return problems
    .filter((problem) => problem.file === '_site.yaml')
    .map((problem) => `${problem.line ?? '-'}: ${problem.severity}: ${problem.message}`);
}

describe('the brand configuration', () => {
  it('refuses a colour pair below WCAG AA, naming the pair, its ratio and a passing alternative that is served', async () => {
    const root = contentFolder({
      'index.md': page({ title: 'Pale Ltd', description: 'Pale.' }, 'Hello.'),
      '_site.yaml': [
        'name: Pale Ltd',
        'brand:',
        '  colours:',
        "    link: '#8fb3ff'",
        "    primary: '#ffd75e'",
        "    buttonText: '#ffffff'",
      ].join('\n'),
    });
    const { site, problems } = await loadSite(root);
    const errors = located(problems).filter((line) => line.includes(': error: '));
    // Darkening the primary colour for its button text also makes it readable on the page: two errors, not three.
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(
      /^4: error: link on background \(#8fb3ff on #ffffff\) has a contrast of 2\.\d\d:1, below the 4\.5:1 WCAG AA asks for text; use link: "(#[0-9a-f]{6})" \(4\.\d\d:1\)/,
    );
    expect(errors[1]).toMatch(
      /^5: error: button text on primary \(#ffffff on #ffd75e\) has a contrast of 1\.\d\d:1/,
    );
    const { colours } = site.info.brand;
    const suggested = /use link: "(#[0-9a-f]{6})"/.exec(errors[0]!)![1];
    expect(colours.link).toBe(suggested);
    const ratio = (a: string, b: string) => contrastRatio(parseHexColour(a)!, parseHexColour(b)!);
    expect(ratio(colours.link, colours.background)).toBeGreaterThanOrEqual(4.5);
    expect(ratio(colours.buttonText, colours.primary)).toBeGreaterThanOrEqual(4.5);
    expect(ratio(colours.primary, colours.background)).toBeGreaterThanOrEqual(4.5);
    // The alternative is a darker shade of the same colour, not black.
    expect(colours.link).not.toBe('#000000');
  });

  it('passes the default palette and the sample site without a contrast error', async () => {
    const plain = contentFolder({ 'index.md': page({ title: 'Plain', description: 'Plain.' }, 'Hello.') });
    const results = await Promise.all([loadSite(plain), loadSite(join(REPO_ROOT, 'content'))]);
    for (const { problems } of results)
      expect(located(problems).filter((line) => line.includes('contrast'))).toEqual([]);
  });

  it('gives a site with no brand a text logo from its name, a drawn icon and content-derived menus', async () => {
    const root = contentFolder({
      'index.md': page({ title: 'Quill & Co', description: 'Pens.' }, 'Hello.'),
      'pricing.md': page({ title: 'Pricing', description: 'What it costs.' }, 'Cheap.'),
      'about.md': page({ title: 'About us', description: 'Who.' }, 'Us.'),
      'privacy.md': page({ title: 'Privacy', description: 'Data.' }, 'None kept.'),
      'guides/index.md': page({ title: 'All our guides', description: 'Guides.' }, 'Read.'),
    });
    const app = await buildTestApp({ CONTENT_DIR: root });
    try {
      const body = await html(app, '/');
      expect(body).toContain(
        '<a class="brand" href="/"><span class="brand-initial" aria-hidden="true">Q</span><span class="brand-name">Quill &amp; Co</span></a>',
      );
      expect(body).toMatch(
        /<link rel="icon" href="\/assets\/brand-icon\.svg\?v=[0-9a-f]{12}" type="image\/svg\+xml">/,
      );
      expect(body).not.toContain('class="hero-art"');
      // Header: the top-level sections and pages, not the company and legal pages.
      expect(linksIn(body, /<nav class="main-nav"[\s\S]*?<\/nav>/)).toEqual([
        'Guides /guides/',
        'Pricing /pricing',
      ]);
      expect(linksIn(body, /<nav class="footer-nav" aria-label="Company">[\s\S]*?<\/nav>/)).toEqual([
        'About us /about',
        'Privacy /privacy',
      ]);
      const icon = await app.app.inject({
        url: /href="(\/assets\/brand-icon\.svg\?v=[0-9a-f]+)"/.exec(body)![1]!,
      });
      expect(icon.body).toContain('>Q</text>');
      const css = await app.app.inject({ url: /href="(\/assets\/brand\.css\?v=[0-9a-f]+)"/.exec(body)![1]! });
      expect(css.body).toContain('--primary: #2f4f7f;');
    } finally {
      await app.close();
    }
  });

  it('reports a brand file that is missing or outside the folder at its line, and falls back', async () => {
    const root = contentFolder({
      'index.md': page({ title: 'Acme', description: 'A.' }, 'Hello.'),
      '_site.yaml': [
        'name: Acme',
        'brand:',
        '  logo: missing.svg',
        '  favicon: ../etc/passwd.png',
        '  fonts: "Inter; color: red"',
      ].join('\n'),
    });
    const { site, problems } = await loadSite(root);
    expect(located(problems)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^-: error: the brand file "missing\.svg" is not a file in the content folder/),
        expect.stringMatching(
          /^4: warning: `brand\.favicon`: "\.\.\/etc\/passwd\.png" must be a plain path inside the content folder/,
        ),
        expect.stringMatching(/^5: warning: `brand\.fonts` "Inter; color: red" must be a list of font names/),
      ]),
    );
    expect(site.info.brand.logo).toBeNull();
    expect(site.info.brand.favicon).toBeNull();
    expect(site.info.brand.fonts.body).toContain('system-ui');
  });
});
