import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSite } from '../../src/content/index.js';
import { buildDiscoveryBundle, DISCOVERY_PATHS, type DiscoveryBundle } from '../../src/discovery/index.js';
import { createAskService } from '../../src/nlweb/index.js';
import { contentFolder } from '../support/files.js';
import { page, SMALL_SITE } from './harness.js';
import { parseLlmsTxt } from './llms-parser.js';
import { expectValid } from './schemas.js';

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

async function bundleOf(files: Record<string, string>, publicBaseUrl: string): Promise<DiscoveryBundle> {
  const folder = contentFolder(files);
  folders.push(folder);
  const { site } = await loadSite(folder);
  const ask = createAskService(site, publicBaseUrl);
  return buildDiscoveryBundle({
    publicBaseUrl,
    bodyLimitBytes: 65_536,
    site,
    answerQuery: (text, maxResults) => ask.answer({ text, maxResults, conversationId: null }, 'example'),
  });
}

const text = (bundle: DiscoveryBundle, path: string) => bundle.documents.get(path)!.body.toString('utf8');

describe('edge cases of the generated documents', () => {
  it('a base URL with a path prefix prefixes every absolute URL', async () => {
    const base = 'https://www.lumen.test/site';
    const bundle = await bundleOf(SMALL_SITE, base);
    expect(text(bundle, DISCOVERY_PATHS.sitemap)).toContain(`<loc>${base}/docs/calibration</loc>`);
    expect(text(bundle, DISCOVERY_PATHS.robotsTxt)).toContain(`Sitemap: ${base}/sitemap.xml`);
    const catalog = JSON.parse(text(bundle, DISCOVERY_PATHS.apiCatalog)) as { linkset: { anchor: string }[] };
    expect(catalog.linkset.map((context) => context.anchor)).toEqual([
      `${base}/.well-known/api-catalog`,
      base,
    ]);
    expectValid('linkset.schema.json', catalog);
    expect(bundle.documents.get(DISCOVERY_PATHS.apiCatalog)!.headers.link).toBe(
      `<${base}/.well-known/api-catalog>; rel="api-catalog"`,
    );
  });

  it('page URLs with spaces, ampersands and parentheses are encoded in the sitemap and llms.txt', async () => {
    const bundle = await bundleOf(
      { ...SMALL_SITE, 'docs/r&d (notes) 2.md': page('R&D notes', 'Research & development.', 'Notes.') },
      'https://www.lumen.test',
    );
    const sitemap = text(bundle, DISCOVERY_PATHS.sitemap);
    expect(sitemap).toContain('<loc>https://www.lumen.test/docs/r%26d%20(notes)%202</loc>');
    const llms = parseLlmsTxt(text(bundle, DISCOVERY_PATHS.llmsTxt));
    expect([...llms.sections.values()].flat()).toContainEqual({
      title: 'R&D notes',
      url: 'https://www.lumen.test/docs/r%26d%20%28notes%29%202',
      description: 'Research & development.',
    });
  });

  it('a content folder without pages still gives valid, parseable documents', async () => {
    const bundle = await bundleOf({ '_site.yaml': 'name: Empty Co\n' }, 'https://www.empty.test');
    const llms = parseLlmsTxt(text(bundle, DISCOVERY_PATHS.llmsTxt));
    expect(llms.title).toBe('Empty Co');
    expect(text(bundle, DISCOVERY_PATHS.sitemap)).toContain('<loc>https://www.empty.test/docs</loc>');
    expectValid('ard.schema.json', JSON.parse(text(bundle, DISCOVERY_PATHS.ard)));
    expect(text(bundle, DISCOVERY_PATHS.docs)).toContain('There are no documentation pages yet.');
  });

  it('the site’s name and description cannot inject Markdown structure into llms.txt', async () => {
    const bundle = await bundleOf(
      {
        ...SMALL_SITE,
        '_site.yaml': 'name: "Evil\\n## Co"\ndescription: "Line one\\n\\n## Not a section\\n- [x](y)"\n',
      },
      'https://www.evil.test',
    );
    const llms = parseLlmsTxt(text(bundle, DISCOVERY_PATHS.llmsTxt));
    expect(llms.title).toBe('Evil ## Co');
    expect(llms.summary).toBe('Line one ## Not a section - [x](y)');
    expect([...llms.sections.keys()]).not.toContain('Not a section');
  });
});
