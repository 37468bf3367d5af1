import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { DISCOVERY_PATHS, SITEMAP_PROTOCOL_LIMITS } from '../../src/discovery/index.js';
import {
  BASE,
  bundleFor,
  get,
  pathOf,
  serveBundle,
  startDiscoveryApp,
  type DiscoveryApp,
} from './harness.js';

// The sitemaps.org XSD as shipped by the `sitemap` npm package; the index schema includes it.
const require = createRequire(import.meta.url);
const SITEMAP_XSD = readFileSync(
  join(dirname(require.resolve('sitemap/package.json')), 'schema', 'sitemap.xsd'),
  'utf8',
);
const SITEINDEX_XSD = readFileSync(join(import.meta.dirname, 'schemas', 'siteindex.xsd'), 'utf8');

async function expectSchemaValid(xml: string, kind: 'urlset' | 'index'): Promise<void> {
  const result = await validateXML({
    xml: { fileName: 'document.xml', contents: xml },
    schema:
      kind === 'urlset'
        ? { fileName: 'sitemap.xsd', contents: SITEMAP_XSD }
        : { fileName: 'siteindex.xsd', contents: SITEINDEX_XSD },
    preload: kind === 'index' ? [{ fileName: 'sitemap.xsd', contents: SITEMAP_XSD }] : null,
  });
  expect(result.errors.map((error) => error.message)).toEqual([]);
  expect(result.valid).toBe(true);
}

const locs = (xml: string) =>
  [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));

let served: DiscoveryApp;
beforeAll(async () => {
  served = await startDiscoveryApp();
});
afterAll(async () => {
  await served.close();
});

describe('the XSD validation', () => {
  it('rejects an invalid sitemap (so a pass means something)', async () => {
    const result = await validateXML({
      xml: {
        fileName: 'bad.xml',
        contents:
          '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><lastmod>2025-01-01</lastmod></url></urlset>',
      },
      schema: { fileName: 'sitemap.xsd', contents: SITEMAP_XSD },
    });
    expect(result.valid).toBe(false);
    const index = await validateXML({
      xml: {
        fileName: 'bad.xml',
        contents:
          '<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><lastmod>yesterday</lastmod></sitemap></sitemapindex>',
      },
      schema: { fileName: 'siteindex.xsd', contents: SITEINDEX_XSD },
      preload: [{ fileName: 'sitemap.xsd', contents: SITEMAP_XSD }],
    });
    expect(index.valid).toBe(false);
  });
});

describe('/sitemap.xml', () => {
  it('is valid against the sitemaps.org XSD and lists every public page with its lastmod', async () => {
    const response = await get(served.app, DISCOVERY_PATHS.sitemap);
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
    await expectSchemaValid(response.body, 'urlset');
    const listed = locs(response.body);
    expect(new Set(listed).size).toBe(listed.length);
    for (const page of served.site.pages) {
      const loc = `${BASE}${encodeURI(page.url)}`;
      expect(listed, page.url).toContain(loc);
      expect(response.body).toContain(`<loc>${loc}</loc><lastmod>${page.lastModified}</lastmod>`);
    }
    expect(listed).toContain(`${BASE}/docs`);
    expect(listed).toContain(`${BASE}/developers`);
    expect(SITEMAP_PROTOCOL_LIMITS).toEqual({ maxUrlsPerFile: 50_000, maxBytesPerFile: 52_428_800 });
  });

  it('becomes a valid sitemap index of valid sitemaps past the URL limit', async () => {
    const all = locs((await get(served.app, DISCOVERY_PATHS.sitemap)).body);
    const app = await serveBundle(served.context, bundleFor(served.context, { maxUrlsPerFile: 10 }));
    try {
      const index = (await get(app, DISCOVERY_PATHS.sitemap)).body;
      expect(index).toContain('<sitemapindex');
      await expectSchemaValid(index, 'index');
      const parts = locs(index);
      expect(parts.length).toBe(Math.ceil(all.length / 10));
      const union: string[] = [];
      for (const [i, url] of parts.entries()) {
        expect(url).toBe(`${BASE}/sitemaps/${i + 1}.xml`);
        const part = await get(app, pathOf(url));
        expect(part.statusCode).toBe(200);
        expect(part.headers['content-type']).toBe('application/xml; charset=utf-8');
        await expectSchemaValid(part.body, 'urlset');
        const listed = locs(part.body);
        expect(listed.length).toBeLessThanOrEqual(10);
        union.push(...listed);
      }
      expect(union).toEqual(all);
    } finally {
      await app.close();
    }
  });

  it('splits by size past the byte limit, each file within it', async () => {
    const limit = 2_000;
    const app = await serveBundle(served.context, bundleFor(served.context, { maxBytesPerFile: limit }));
    try {
      const index = (await get(app, DISCOVERY_PATHS.sitemap)).body;
      await expectSchemaValid(index, 'index');
      for (const url of locs(index)) {
        const part = await get(app, pathOf(url));
        expect(part.rawPayload.length).toBeLessThanOrEqual(limit);
        await expectSchemaValid(part.body, 'urlset');
      }
    } finally {
      await app.close();
    }
  });
});
