import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AskResult, NlWebResponse } from '../../src/contract/index.js';
import { BUILT_PAGE_CSP } from '../../src/http/site-handlers/built-files.js';
import { PublishedContract } from '../support/openapi.js';
import { contentFolder } from '../support/files.js';
import { buildTestApp, type TestApp } from '../support/servers.js';

/** The generator-style fixtures of the content loader's tests. */
const SITES = fileURLToPath(new URL('../content/html-sites/', import.meta.url));
const fixture = (style: string, file: string) => readFileSync(join(SITES, style, file));

const apps = new Map<string, TestApp>();
beforeAll(async () => {
  for (const style of ['docusaurus', 'hugo', 'vitepress'])
    apps.set(style, await buildTestApp({ CONTENT_DIR: join(SITES, style) }));
});
afterAll(async () => {
  for (const app of apps.values()) await app.close();
});

const get = (style: string, url: string, accept = 'text/html') =>
  apps.get(style)!.app.inject({ method: 'GET', url, headers: { accept } });

describe('a built static site is served as it was built', () => {
  it('serves each page as its own HTML file, with its theme, under a policy that lets its scripts run', async () => {
    const response = await get('hugo', '/posts/first-post/');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.rawPayload.equals(fixture('hugo', 'posts/first-post/index.html'))).toBe(true);
    expect(response.headers['content-security-policy']).toBe(BUILT_PAGE_CSP);
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers.link).toBe('</posts/first-post/index.md>; rel="alternate"; type="text/markdown"');
    const again = await apps.get('hugo')!.app.inject({
      method: 'GET',
      url: '/posts/first-post/',
      headers: { accept: 'text/html', 'if-none-match': String(response.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('serves the folder’s other files at their paths: assets, noindex pages, redirect stubs', async () => {
    const css = await get('docusaurus', '/assets/css/styles.css', '*/*');
    expect([css.statusCode, css.headers['content-type']]).toEqual([200, 'text/css; charset=utf-8']);
    expect(css.rawPayload.equals(fixture('docusaurus', 'assets/css/styles.css'))).toBe(true);
    const home = await get('docusaurus', '/');
    expect(home.rawPayload.equals(fixture('docusaurus', 'index.html'))).toBe(true);
    const stub = await get('docusaurus', '/docs/old-intro.html');
    expect(stub.body).toContain('http-equiv="refresh"');
  });

  it('finds files as a static host does: /a/ → a/index.html, /a → a.html, /a → /a/ for a folder', async () => {
    const clean = await get('vitepress', '/guide/setup');
    expect(clean.rawPayload.equals(fixture('vitepress', 'guide/setup.html'))).toBe(true);
    const withExtension = await get('vitepress', '/guide/setup.html');
    expect(withExtension.rawPayload.equals(fixture('vitepress', 'guide/setup.html'))).toBe(true);
    const folder = await get('docusaurus', '/docs/intro');
    expect([folder.statusCode, folder.headers.location]).toEqual([308, '/docs/intro/']);
  });

  it('serves nothing outside the folder, and no dot-file', async () => {
    for (const url of ['/..%2F..%2Fsite%2Fbuilt-site.test.ts', '/%2e%2e/html.test.ts', '/.git/config']) {
      const response = await get('hugo', url);
      expect(response.statusCode, url).toBe(404);
    }
  });

  it('answers Accept: text/markdown with the page’s Markdown twin', async () => {
    const response = await get('docusaurus', '/docs/intro/', 'text/markdown');
    expect(response.headers['content-type']).toMatch(/^text\/markdown/);
    expect(response.body).toMatch(/^# Getting started\n\n> Set up Beacon/);
    expect(response.body).toContain('## Install the SDK');
  });
});

describe('/ask over a built static site', () => {
  it('returns the page’s schema.org JSON-LD as schema_object, valid under /openapi.json', async () => {
    const { app } = apps.get('hugo')!;
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const response = await app.inject({ method: 'GET', url: '/ask?query=warbler%20counts' });
    new PublishedContract(doc).expectResponse('GET', '/ask', 200, 'application/json', response.json());
    const body = response.json<NlWebResponse>();
    const results = body.content.flatMap((item) =>
      item.type === 'resource' ? [item.resource.data as unknown as AskResult] : [],
    );
    expect(results[0]!.url).toBe('https://www.example.test/posts/first-post/');
    expect(results[0]!.schema_object).toEqual([expect.objectContaining({ '@type': 'BlogPosting' })]);
    const ajv = new Ajv2020({ strict: false });
    ajv.addFormat('uri', true);
    ajv.addSchema({ $id: 'openapi.json', components: doc.components });
    const validate = ajv.compile({ $ref: 'openapi.json#/components/schemas/AskResult' });
    for (const result of results) expect(validate(result) ? [] : validate.errors).toEqual([]);
  });

  it('links every result and section to a page it serves and an element id in it', async () => {
    for (const [style, query] of [
      ['hugo', 'warblers results'],
      ['docusaurus', 'install sdk'],
      ['vitepress', 'kompass installieren'],
    ] as const) {
      const { app } = apps.get(style)!;
      const body = (
        await app.inject({ method: 'GET', url: `/ask?query=${encodeURIComponent(query)}` })
      ).json<NlWebResponse>();
      const urls = body.content.flatMap((item) => {
        if (item.type !== 'resource') return [];
        const result = item.resource.data as unknown as AskResult;
        return [result.url, ...result.sections.map((section) => section.url)];
      });
      expect(urls.length, `${style}: ${query}`).toBeGreaterThan(0);
      for (const url of urls) {
        const { pathname, hash } = new URL(url);
        const page = await app.inject({ method: 'GET', url: pathname, headers: { accept: 'text/html' } });
        expect(page.statusCode, url).toBe(200);
        if (hash)
          expect(page.body, url).toMatch(new RegExp(`\\s(id|name)="${decodeURIComponent(hash.slice(1))}"`));
      }
    }
  });
});

describe('CONTENT_HTML_BODY', () => {
  it('chooses the text the server indexes', async () => {
    const folder = contentFolder({
      'a.html':
        '<title>Animals</title><body><div class="prose"><p>The zebra grazes.</p></div>' +
        '<div class="promo"><p>The giraffe banner.</p></div></body>',
    });
    const app = await buildTestApp({ CONTENT_DIR: folder, CONTENT_HTML_BODY: 'div.prose' });
    try {
      const results = async (query: string) =>
        (await app.app.inject({ method: 'GET', url: `/ask?query=${query}` }))
          .json<NlWebResponse>()
          .content.filter((item) => item.type === 'resource').length;
      expect([await results('zebra'), await results('giraffe')]).toEqual([1, 0]);
    } finally {
      await app.close();
    }
  });
});
