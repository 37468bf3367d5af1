import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { loadSite } from '../../src/content/index.js';
import { buildDiscoveryBundle, DISCOVERY_PATHS, type DiscoveryBundle } from '../../src/discovery/index.js';
import { createAskService } from '../../src/nlweb/index.js';
import { contentFolder } from '../support/files.js';
import { page, SMALL_SITE } from './harness.js';
import { parseLlmsTxt } from './llms-parser.js';

const BASE = 'https://www.lumen.test';
const require = createRequire(import.meta.url);
const SCHEMAS = join(import.meta.dirname, 'schemas');
const SITEMAP_XSD = readFileSync(
  join(dirname(require.resolve('sitemap/package.json')), 'schema', 'sitemap.xsd'),
  'utf8',
);
const XHTML_LINK_XSD = readFileSync(join(SCHEMAS, 'xhtml-link.xsd'), 'utf8');
const ALTERNATES_XSD = readFileSync(join(SCHEMAS, 'sitemap-alternates.xsd'), 'utf8');

/** Errors of a sitemap against the sitemaps.org XSD with the xhtml:link element (strict, as the XSD asks). */
async function sitemapErrors(xml: string): Promise<string[]> {
  const result = await validateXML({
    xml: { fileName: 'sitemap.xml', contents: xml },
    schema: { fileName: 'sitemap-alternates.xsd', contents: ALTERNATES_XSD },
    preload: [
      { fileName: 'sitemap.xsd', contents: SITEMAP_XSD },
      { fileName: 'xhtml-link.xsd', contents: XHTML_LINK_XSD },
    ],
  });
  return result.valid ? [] : result.errors.map((error) => error.message);
}

/** The small site with its guide in German and Japanese folders, and German only for one page. */
const MULTILINGUAL_SITE: Record<string, string> = {
  ...SMALL_SITE,
  '_site.yaml': `${SMALL_SITE['_site.yaml']}language: en\n`,
  'de/docs/calibration.md': page(
    'Ein Messgerät kalibrieren',
    'Schritte zum Kalibrieren eines Lichtmessers.',
    'Richten Sie das Messgerät auf die Referenzlampe.',
  ),
  'ja/docs/calibration.md': page('メーターの校正', '照度計を校正する手順。', '基準ランプに向けます。'),
  'de/impressum.md': page('Impressum', 'Angaben zum Unternehmen.', 'Lumen Labs GmbH, Berlin.'),
};

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

async function bundleOf(files: Record<string, string>): Promise<DiscoveryBundle> {
  const folder = contentFolder(files);
  folders.push(folder);
  const { site } = await loadSite(folder);
  const ask = createAskService(site, BASE);
  return buildDiscoveryBundle({
    publicBaseUrl: BASE,
    bodyLimitBytes: 65_536,
    site,
    answerQuery: (text, maxResults) => ask.answer({ text, maxResults, conversationId: null }, 'example'),
  });
}

const text = (bundle: DiscoveryBundle, path: string) => bundle.documents.get(path)!.body.toString('utf8');

describe('sitemap alternates', () => {
  it('lists every language version of a translated page as xhtml:link, valid against the XSDs', async () => {
    const xml = text(await bundleOf(MULTILINGUAL_SITE), DISCOVERY_PATHS.sitemap);
    expect(xml).toContain(
      `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">`,
    );
    const alternates = [
      `<xhtml:link rel="alternate" hreflang="de" href="${BASE}/de/docs/calibration"/>`,
      `<xhtml:link rel="alternate" hreflang="en" href="${BASE}/docs/calibration"/>`,
      `<xhtml:link rel="alternate" hreflang="ja" href="${BASE}/ja/docs/calibration"/>`,
    ].join('\n    ');
    // Each version lists all three, itself included.
    for (const loc of ['/docs/calibration', '/de/docs/calibration', '/ja/docs/calibration'])
      expect(xml).toContain(`<loc>${BASE}${loc}</loc><lastmod>`);
    expect(xml.split(alternates).length - 1).toBe(3);
    // A page in one language has none.
    expect(xml).toMatch(new RegExp(`<loc>${BASE}/de/impressum</loc><lastmod>[0-9-]+</lastmod></url>`));
    expect(await sitemapErrors(xml)).toEqual([]);
  });

  it('the schemas reject a malformed alternate (so a pass means something)', async () => {
    const xml = text(await bundleOf(MULTILINGUAL_SITE), DISCOVERY_PATHS.sitemap);
    expect(await sitemapErrors(xml.replace('rel="alternate" hreflang="ja"', 'rel="alternate"'))).not.toEqual(
      [],
    );
    expect(await sitemapErrors(xml.replace('hreflang="de"', 'hreflang="not a tag"'))).not.toEqual([]);
    expect(await sitemapErrors(xml.replace(`href="${BASE}/ja/`, 'href="/ja/'))).not.toEqual([]);
  });

  it('leaves a site in one language as it was: no xhtml namespace', async () => {
    const xml = text(await bundleOf(SMALL_SITE), DISCOVERY_PATHS.sitemap);
    expect(xml).not.toContain('xhtml');
    expect(await sitemapErrors(xml)).toEqual([]);
  });
});

describe('llms.txt by language', () => {
  it('has a section per language, the site’s main language first, each page once', async () => {
    const bundle = await bundleOf(MULTILINGUAL_SITE);
    const file = parseLlmsTxt(text(bundle, DISCOVERY_PATHS.llmsTxt));
    const names = [...file.sections.keys()];
    expect(names).toEqual([
      'API and agent guides',
      'English (en)',
      'Deutsch (de)',
      '日本語 (ja)',
      'Optional',
    ]);
    const urlsOf = (name: string) => file.sections.get(name)!.map((link) => link.url);
    expect(urlsOf('Deutsch (de)')).toEqual([`${BASE}/de/impressum`, `${BASE}/de/docs/calibration`]);
    expect(urlsOf('日本語 (ja)')).toEqual([`${BASE}/ja/docs/calibration`]);
    expect(urlsOf('English (en)')).toContain(`${BASE}/docs/calibration`);
    const all = [...file.sections.values()].flat().map((link) => link.url);
    expect(new Set(all).size).toBe(all.length);
    // llms-full.txt follows the same order.
    const full = text(bundle, DISCOVERY_PATHS.llmsFullTxt);
    expect(full.indexOf(`Source: ${BASE}/docs/calibration`)).toBeLessThan(
      full.indexOf(`Source: ${BASE}/de/docs/calibration`),
    );
    expect(full.indexOf(`Source: ${BASE}/de/impressum`)).toBeLessThan(
      full.indexOf(`Source: ${BASE}/ja/docs/calibration`),
    );
  });

  it('puts the language with the most pages first when the site names none', async () => {
    const files = { ...MULTILINGUAL_SITE, '_site.yaml': SMALL_SITE['_site.yaml']! };
    const names = [...parseLlmsTxt(text(await bundleOf(files), DISCOVERY_PATHS.llmsTxt)).sections.keys()];
    expect(names.slice(1, 4)).toEqual(['English (en)', 'Deutsch (de)', '日本語 (ja)']);
  });

  it('keeps the folder sections on a site in one language', async () => {
    const names = [
      ...parseLlmsTxt(text(await bundleOf(SMALL_SITE), DISCOVERY_PATHS.llmsTxt)).sections.keys(),
    ];
    expect(names.some((name) => /\((?:en|de)\)$/.test(name))).toBe(false);
  });
});
