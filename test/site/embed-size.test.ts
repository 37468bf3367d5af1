import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { EMBED_ASSETS, siteAssets } from '../../src/site/index.js';

/**
 * The embed's budget (docs/beside-your-site.md#the-embed): what a page downloads to show
 * <frontdoor-search> and <frontdoor-form> — frontdoor.js, the two modules it imports and
 * frontdoor.css — is at most this many bytes gzipped (level 9, as a server compresses static
 * files ahead of time; the form markup is fetched per form and is not counted).
 */
const EMBED_GZIP_BUDGET_BYTES = 12_000;

/** The files a browser module imports from its own folder (`import … from './x.js'`). */
function importsOf(source: string): string[] {
  return [...source.matchAll(/^import [^'"]*['"]\.\/([^'"]+)['"]/gm)].map((match) => match[1]!);
}

describe('the embed', () => {
  it(`is at most ${EMBED_GZIP_BUDGET_BYTES} bytes gzipped, script, modules and stylesheet together`, () => {
    const assets = siteAssets();
    const sizes = EMBED_ASSETS.map((name) => {
      const asset = assets.get(name);
      expect(asset, name).toBeDefined();
      return [name, gzipSync(asset!.body, { level: 9 }).length] as const;
    });
    const total = sizes.reduce((sum, [, size]) => sum + size, 0);
    expect(total, JSON.stringify(Object.fromEntries(sizes))).toBeLessThanOrEqual(EMBED_GZIP_BUDGET_BYTES);
  });

  it('and the site’s own scripts import only modules that exist beside them', () => {
    const assets = siteAssets();
    const scripts = [...assets.keys()].filter((name) => name.endsWith('.js'));
    expect(scripts).toEqual(expect.arrayContaining(['search.js', 'forms.js']));
    for (const name of scripts)
      for (const imported of importsOf(assets.get(name)!.body.toString('utf8')))
        expect(assets.has(imported), `${name} imports ${imported}`).toBe(true);
    expect(importsOf(assets.get('search.js')!.body.toString('utf8'))).toEqual(['live-search.js', 'words.js']);
    expect(importsOf(assets.get('forms.js')!.body.toString('utf8'))).toEqual(['form-enhance.js']);
  });

  it('loads nothing beyond its listed files: every module it imports is one of them', () => {
    const assets = siteAssets();
    for (const name of EMBED_ASSETS.filter((file) => file.endsWith('.js'))) {
      const source = assets.get(name)!.body.toString('utf8');
      for (const imported of importsOf(source))
        expect(EMBED_ASSETS, `${name} imports ${imported}`).toContain(imported);
    }
  });
});
