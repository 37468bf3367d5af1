import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markdownOf } from '../../src/content/index.js';
import { CONTENT_SECURITY_POLICY } from '../../src/http/security-headers.js';
import { escapeHtml, jsonForScript } from '../../src/text/index.js';
import { wrapTables } from '../../src/site/index.js';
import { contentFolder } from '../support/files.js';
import { buildTestApp, TEST_BASE_URL, type TestApp } from '../support/servers.js';
import { attributeNames, jsonLdOf, page, scriptTags } from './helpers.js';

const HOSTILE_TITLE = 'Evil </script><script>alert(1)</script> "quoted" & \'single\'';

const CONTENT = {
  '_site.yaml': [
    'name: Acme <Bio>',
    'legalName: Acme Bio "Ltd"',
    'tagline: Calm science & software',
    'description: Acme builds </script> things.',
    'contactEmail: hello@acme.example',
    'salesEmail: sales@acme.example',
    'address: 1 Lab Road, Cambridge',
    'foundingYear: 2020',
    'sameAs: []',
  ].join('\n'),
  'index.md': page({ title: 'Home of Acme', description: 'The home page.' }, 'Welcome to **Acme**.'),
  'product/index.md': page(
    { title: 'Our product line', description: 'Everything we make.', nav: 1 },
    'The product section.\n\n## One\n\nText.\n\n## Two\n\nText.\n\n## Three\n\nText.',
  ),
  'product/alpha.md': page({ title: 'Zeta feature', description: 'Second by order.', order: 2 }, 'Z.'),
  'product/beta.md': page({ title: 'Yankee feature', description: 'First by order.', order: 1 }, 'Y.'),
  'product/gamma.md': page({ title: 'Bravo feature', description: 'No order, B.' }, 'B.'),
  'product/delta.md': page({ title: 'Alpha feature', description: 'No order, A.' }, 'A.'),
  'product/deep/index.md': page({ title: 'Deep folder', description: 'A sub-folder index.' }, 'Deep.'),
  'product/deep/inner.md': page({ title: 'Inner page', description: 'Not a direct child.' }, 'Inner.'),
  'docs/index.md': page({ title: 'Documentation', description: 'Guides.', nav: 2 }, 'Docs.'),
  'docs/guide.md': page({ title: 'A guide', description: 'How to.' }, 'Steps.'),
  'about.md': page(
    { title: 'About', description: 'Who we are.', nav: 3, navTitle: 'Company' },
    'About us.\n\n| Year | Event |\n|:--|--:|\n| 2020 | Founded |\n',
  ),
  'evil.md': page({ title: HOSTILE_TITLE, description: '<img src=x onerror=alert(1)>' }, 'Body.'),
  'contact/demo.md': page(
    { title: 'Talk to us', description: 'Ask for a demo.', nav: 4, form: 'demo' },
    'Demo.',
  ),
};

let contentDir: string;
let site: TestApp;

beforeAll(async () => {
  contentDir = contentFolder(CONTENT);
  site = await buildTestApp({ CONTENT_DIR: contentDir });
});

afterAll(async () => {
  await site?.close();
  rmSync(contentDir, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = { accept: 'text/html' }) =>
  site.app.inject({ method: 'GET', url, headers });

describe('escaping', () => {
  it('escapes the five HTML-significant characters', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });

  it('writes JSON for a script block without "<", ">" or "&" and round-trips', () => {
    const value = { text: '</script><!-- & \u2028' };
    const encoded = jsonForScript(value);
    expect(encoded).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(encoded)).toEqual(value);
  });

  it('wraps each table in a focusable scroll region with a name of its own', () => {
    const html = wrapTables(
      '<table><caption>Fields</caption><tr><td>a</td></tr></table><p>x</p>' +
        '<table class="t"><caption>Fields</caption></table><table><tr><td>b</td></tr></table>',
    );
    expect(html).toBe(
      '<div class="table-scroll" role="region" tabindex="0" aria-label="Fields"><table><caption>Fields</caption><tr><td>a</td></tr></table></div><p>x</p>' +
        '<div class="table-scroll" role="region" tabindex="0" aria-label="Fields (table 2)"><table class="t"><caption>Fields</caption></table></div>' +
        '<div class="table-scroll" role="region" tabindex="0" aria-label="Table 3"><table><tr><td>b</td></tr></table></div>',
    );
  });

  it('finds attribute names outside quoted values (the helper the CSP checks rely on)', () => {
    expect(attributeNames('<a onclick="x" href="y" data-x>t</a><meta content="a onload=b">')).toEqual([
      'onclick',
      'href',
      'data-x',
      'content',
    ]);
  });
});

describe('the layout on every page', () => {
  it('gives every content page its head tags, discovery links and JSON-LD', async () => {
    for (const contentPage of site.context.site.pages) {
      const response = await get(encodeURI(contentPage.url));
      expect(response.statusCode, contentPage.url).toBe(200);
      const html = response.body;
      const canonical = `${TEST_BASE_URL}${encodeURI(contentPage.url)}`;
      expect(html).toContain(`<link rel="canonical" href="${escapeHtml(canonical)}">`);
      expect(html).toContain(`<meta name="description" content="${escapeHtml(contentPage.description)}">`);
      expect(html).toContain(`<meta property="og:url" content="${escapeHtml(canonical)}">`);
      expect(html).toContain(`<meta property="og:title" content="${escapeHtml(contentPage.title)}">`);
      expect(html).toMatch(
        new RegExp(
          `<link rel="ard" href="${TEST_BASE_URL}/\\.well-known/ard\\.json" type="application/json"`,
        ),
      );
      expect(html).toMatch(
        new RegExp(`<link rel="api-catalog" href="${TEST_BASE_URL}/\\.well-known/api-catalog"`),
      );
      // The page's own twin is the first Markdown alternate (llms.txt and agents.md follow).
      const firstMarkdown =
        /<link rel="alternate" type="text\/markdown" href="([^"]+)">|<link rel="alternate" href="[^"]+" type="text\/markdown"/.exec(
          html,
        )!;
      const twin = contentPage.url.endsWith('/') ? `${contentPage.url}index.md` : `${contentPage.url}.md`;
      expect(firstMarkdown[1]).toBe(escapeHtml(encodeURI(twin)));
      const graph = (jsonLdOf(html) as { '@graph': Record<string, unknown>[] })['@graph'];
      const types = graph.map((node) => node['@type']);
      expect(types).toContain('Organization');
      const pageNode = graph.find((node) => node['@id'] === `${canonical}#page`)!;
      expect(pageNode.name).toBe(contentPage.title);
      if (contentPage.url.startsWith('/docs/')) expect(pageNode['@type']).toBe('TechArticle');
    }
  });

  it('describes the organization from _site.yaml', async () => {
    const graph = (jsonLdOf((await get('/')).body) as { '@graph': Record<string, unknown>[] })['@graph'];
    const organization = graph.find((node) => node['@type'] === 'Organization')!;
    expect(organization).toMatchObject({
      name: 'Acme <Bio>',
      legalName: 'Acme Bio "Ltd"',
      url: `${TEST_BASE_URL}/`,
      email: 'hello@acme.example',
      foundingDate: '2020',
      address: { '@type': 'PostalAddress', streetAddress: '1 Lab Road, Cambridge' },
    });
  });

  it('uses TechArticle for documentation pages and CollectionPage for section indexes', async () => {
    const typeOf = async (url: string) => {
      const graph = (jsonLdOf((await get(url)).body) as { '@graph': Record<string, unknown>[] })['@graph'];
      return graph.find((node) => node['@id'] === `${TEST_BASE_URL}${url}#page`)!['@type'];
    };
    expect(await typeOf('/docs/guide')).toBe('TechArticle');
    expect(await typeOf('/product/')).toBe('CollectionPage');
    expect(await typeOf('/about')).toBe('WebPage');
  });

  it('escapes content in text, attributes and the JSON-LD block', async () => {
    const html = (await get('/evil')).body;
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain(`<h1>${escapeHtml(HOSTILE_TITLE)}</h1>`);
    expect(html).toContain('content="&lt;img src=x onerror=alert(1)&gt;"');
    expect(jsonLdOf(html)).toMatchObject({
      '@graph': expect.arrayContaining([expect.objectContaining({ name: HOSTILE_TITLE })]),
    });
    const block = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)![1]!;
    expect(block).not.toContain('<');
  });

  it('carries no inline script, inline style or event handler that the CSP would block', async () => {
    const paths = [...site.context.site.pages.map((p) => encodeURI(p.url)), '/search?q=feature', '/nowhere'];
    for (const path of paths) {
      const response = await get(path);
      expect(response.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
      const html = response.body;
      for (const tag of scriptTags(html))
        expect(tag, path).toMatch(
          /^<script (type="module" src="\/assets\/[a-z]+\.js\?v=[0-9a-f]+"|type="application\/ld\+json"|type="application\/json" id="frontdoor-words")>$/,
        );
      expect(html, path).not.toMatch(/<style[\s>]/i);
      const names = attributeNames(html);
      expect(
        names.filter((name) => name === 'style' || name.startsWith('on')),
        path,
      ).toEqual([]);
      expect(html, path).not.toMatch(/(?:href|src|action)="javascript:/i);
      // Everything is served by the site itself: no external stylesheet, script, icon or font.
      expect(html, path).not.toMatch(/<script[^>]+src="(?:https?:)?\/\//i);
      expect(html, path).not.toMatch(
        /<link[^>]+rel="(?:stylesheet|icon|preload|modulepreload)"[^>]+href="(?:https?:)?\/\//i,
      );
    }
  });

  it('renders content tables inside scroll regions, aligned by class rather than style', async () => {
    const html = (await get('/about')).body;
    expect(html).toContain(
      '<div class="table-scroll" role="region" tabindex="0" aria-label="Table 1"><table>',
    );
    expect(html).toMatch(/<td class="align-right">Founded<\/td>/);
  });

  it('builds the navigation from front matter `nav`, in order, marking the current section', async () => {
    const html = (await get('/product/alpha')).body;
    const nav = /<nav class="main-nav" aria-label="Main"><ul>(.*?)<\/ul><\/nav>/.exec(html)![1]!;
    const labels = [...nav.matchAll(/<a [^>]*>([^<]*)<\/a>/g)].map((m) => m[1]);
    // The demo page is reached through the header button, not the navigation.
    expect(labels).toEqual(['Product', 'Docs', 'Company']);
    expect(nav).toContain('<a href="/product/" class="is-section">Product</a>');
    expect((await get('/about')).body).toContain('<a href="/about" aria-current="page">Company</a>');
    expect(html).toContain(
      '<a class="button button-primary header-cta" href="/contact/demo">Request a demo</a>',
    );
  });

  it('shows breadcrumbs through the existing ancestors', async () => {
    const html = (await get('/product/deep/inner')).body;
    const crumbs = /<nav class="breadcrumbs" aria-label="Breadcrumb"><ol>(.*?)<\/ol><\/nav>/.exec(html)![1]!;
    expect(crumbs).toBe(
      '<li><a href="/">Home</a></li><li><a href="/product/">Product</a></li>' +
        '<li><a href="/product/deep/">Deep</a></li><li><span aria-current="page">Inner page</span></li>',
    );
  });
});

describe('content pages', () => {
  it('lists the direct children of a section index by order, then title', async () => {
    const html = (await get('/product/')).body;
    const section = /<section class="section-children"[\s\S]*?<\/section>/.exec(html)![0];
    const titles = [...section.matchAll(/<h3 class="card-title"><a href="([^"]+)">([^<]+)<\/a>/g)].map(
      (m) => [m[1], m[2]],
    );
    expect(titles).toEqual([
      ['/product/beta', 'Yankee feature'],
      ['/product/alpha', 'Zeta feature'],
      ['/product/delta', 'Alpha feature'],
      ['/product/gamma', 'Bravo feature'],
      ['/product/deep/', 'Deep folder'],
    ]);
    expect(section).not.toContain('Inner page');
  });

  it('serves the page bytes rendered once, with ETag, Cache-Control and Vary', async () => {
    const first = await get('/product/alpha');
    const second = await get('/product/alpha');
    expect(first.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(first.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.body).toBe(first.body);
    expect(first.headers['cache-control']).toBe('public, max-age=300');
    expect(first.headers.vary).toBe('Accept, Accept-Encoding');
    const revalidated = await get('/product/alpha', {
      accept: 'text/html',
      'if-none-match': first.headers.etag as string,
    });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.body).toBe('');
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const head = await site.app.inject({ method: 'HEAD', url: '/product/alpha' });
    const getResponse = await get('/product/alpha');
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers.etag).toBe(getResponse.headers.etag);
    expect(head.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('serves the Markdown twin at URL + .md and index.md for folders', async () => {
    for (const contentPage of site.context.site.pages) {
      const twin = contentPage.url.endsWith('/') ? `${contentPage.url}index.md` : `${contentPage.url}.md`;
      const response = await get(encodeURI(twin), {});
      expect(response.statusCode, twin).toBe(200);
      expect(response.headers['content-type']).toBe('text/markdown; charset=utf-8');
      expect(response.body).toBe(markdownOf(contentPage));
      expect(response.headers.vary).toBe('Accept, Accept-Encoding');
      expect(response.headers.etag).toMatch(/^"/);
    }
  });

  it('negotiates the Markdown twin on the page URL from the Accept header', async () => {
    const markdown = markdownOf(site.context.site.byUrl.get('/product/alpha')!);
    const cases: [string, 'markdown' | 'html'][] = [
      ['text/markdown', 'markdown'],
      ['text/markdown, text/html;q=0.9', 'markdown'],
      ['text/html;q=0.5, text/markdown;q=0.8', 'markdown'],
      ['text/html, text/markdown', 'html'],
      ['text/markdown;q=0.5, */*', 'html'],
      ['text/*, text/markdown;q=0', 'html'],
      ['*/*', 'html'],
      ['', 'html'],
    ];
    for (const [accept, expected] of cases) {
      const response = await get('/product/alpha', accept === '' ? {} : { accept });
      expect(response.headers['content-type'], accept).toBe(
        expected === 'markdown' ? 'text/markdown; charset=utf-8' : 'text/html; charset=utf-8',
      );
      if (expected === 'markdown') expect(response.body).toBe(markdown);
      expect(response.headers.vary).toBe('Accept, Accept-Encoding');
    }
  });

  it('redirects a folder without its slash, and a page with one, keeping the query', async () => {
    const folder = await get('/product?ref=nav');
    expect(folder.statusCode).toBe(308);
    expect(folder.headers.location).toBe('/product/?ref=nav');
    const pageWithSlash = await get('/product/alpha/');
    expect(pageWithSlash.statusCode).toBe(308);
    expect(pageWithSlash.headers.location).toBe('/product/alpha');
  });

  it('leaves /docs to its own route rather than redirecting it to the docs folder', async () => {
    const response = await get('/docs');
    expect(response.statusCode).not.toBe(308);
  });

  it('answers unknown pages with the HTML 404 and unknown API paths with the JSON error', async () => {
    const html = await get('/no/such/page');
    expect(html.statusCode).toBe(404);
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(html.body).toContain('<h1 id="not-found-title">Page not found</h1>');
    expect(html.body).toContain('<code>/no/such/page</code>');
    expect(html.body).toContain('<meta name="robots" content="noindex">');

    const hostile = await get('/%3Cscript%3Ealert(1)%3C%2Fscript%3E');
    expect(hostile.statusCode).toBe(404);
    expect(hostile.body).not.toContain('<script>alert');

    const api = await get('/api/unknown');
    expect(api.statusCode).toBe(404);
    expect(api.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(api.json()).toMatchObject({ ok: false, code: 'ENDPOINT_NOT_FOUND' });

    const agent = await get('/no/such/page', { accept: 'application/json' });
    expect(agent.statusCode).toBe(404);
    expect(agent.json()).toMatchObject({ code: 'ENDPOINT_NOT_FOUND' });

    // A path that is not valid percent-encoding is refused by the router as a bad request.
    const malformed = await get('/%E0%A4%A');
    expect(malformed.statusCode).toBe(400);
  });

  it('keeps the method error for a known path', async () => {
    const response = await site.app.inject({ method: 'DELETE', url: '/search' });
    expect(response.statusCode).toBe(405);
  });
});

describe('static assets', () => {
  it('serves the stylesheet and scripts linked from the pages, cacheable for a year when versioned', async () => {
    const html = (await get('/')).body;
    const links = [...html.matchAll(/(?:href|src)="(\/assets\/[^"]+)"/g)].map((m) =>
      m[1]!.replace(/&amp;/g, '&'),
    );
    expect(links.some((link) => link.startsWith('/assets/site.css?v='))).toBe(true);
    expect(links.some((link) => link.startsWith('/assets/search.js?v='))).toBe(true);
    for (const link of links) {
      const response = await get(link, {});
      expect(response.statusCode, link).toBe(200);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const type = String(response.headers['content-type']);
      if (link.includes('.css')) expect(type).toBe('text/css; charset=utf-8');
      if (link.includes('.js')) expect(type).toBe('text/javascript; charset=utf-8');
      if (link.includes('.svg')) expect(type).toBe('image/svg+xml');
    }
  });

  it('does not promise a year of caching for an unversioned or stale URL', async () => {
    const response = await get('/assets/site.css?v=0000', {});
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=300');
  });

  it('answers an unknown asset with 404', async () => {
    expect((await get('/assets/nothing.css', {})).statusCode).toBe(404);
    expect((await get('/assets/..%2Fsite.ts', {})).statusCode).toBe(404);
  });
});

describe('a site without a demo page', () => {
  it('serves a built-in /demo page with the demo form', async () => {
    const dir = contentFolder({ 'index.md': page({ title: 'Home', description: 'Home.' }, 'Hi.') });
    const bare = await buildTestApp({ CONTENT_DIR: dir });
    try {
      const response = await bare.app.inject({
        method: 'GET',
        url: '/demo',
        headers: { accept: 'text/html' },
      });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('data-enhance-form="demo"');
      expect(response.body).toContain('<input type="hidden" name="sourcePage" value="/demo">');
    } finally {
      await bare.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the stylesheet', () => {
  it('loads nothing from elsewhere and has a dark scheme and print rules', async () => {
    const html = (await get('/')).body;
    const href = /<link rel="stylesheet" href="([^"]+)">/.exec(html)![1]!;
    const css = (await get(href, {})).body;
    expect(css).not.toMatch(/@import|url\(\s*['"]?(?:https?:)?\/\//i);
    expect(css).toContain('@media (prefers-color-scheme: dark)');
    expect(css).toContain('@media print');
    expect(css).toMatch(/font-family: var\(--font-sans\)/);
  });
});
