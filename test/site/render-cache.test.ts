import { beforeAll, describe, expect, it } from 'vitest';
import { BUNDLED_CONTENT_DIR } from '../../src/config/index.js';
import { loadSite, type Page, type Site } from '../../src/content/index.js';
import { childrenOf, navigationOf } from '../../src/site/index.js';
import { renderContentPage } from '../../src/site/pages.js';
import { RENDERED_BYTES_KEPT, renderSite } from '../../src/site/render-cache.js';

let site: Site;
beforeAll(async () => {
  site = (await loadSite(BUNDLED_CONTENT_DIR)).site;
});

/** The definition of a page's children, checked page by page against the whole list. */
function childrenByDefinition(all: readonly Page[], url: string): string[] {
  const folder = url.endsWith('/') ? url : `${url}/`;
  return all
    .filter((candidate) => {
      if (candidate.url === url || !candidate.url.startsWith(folder)) return false;
      const rest = candidate.url.slice(folder.length);
      return rest !== '' && !rest.slice(0, -1).includes('/');
    })
    .map((p) => p.url)
    .sort();
}

describe('site outline', () => {
  it('lists every page’s children as the folder rule says', () => {
    let withChildren = 0;
    for (const page of site.pages) {
      const children = childrenOf(site, page).map((p) => p.url);
      expect([...children].sort(), page.url).toEqual(childrenByDefinition(site.pages, page.url));
      if (children.length > 0) withChildren++;
    }
    expect(withChildren).toBeGreaterThan(5);
  });

  it('hands out copies: a caller cannot change the outline', () => {
    const solutions = site.byUrl.get('/solutions/')!;
    childrenOf(site, solutions).splice(0);
    navigationOf(site).splice(0);
    expect(childrenOf(site, solutions).length).toBeGreaterThan(2);
    expect(navigationOf(site).length).toBeGreaterThan(2);
  });
});

describe('renderSite', () => {
  it('renders a page on its first request only, with the bytes the renderer makes', () => {
    const page = site.byUrl.get('/security')!;
    let reads = 0;
    // The body's HTML is rendered from `markdown`: count the reads of it.
    const counted: Page = Object.create(page, {
      markdown: {
        get: () => {
          reads++;
          return page.markdown;
        },
      },
    });
    const pages = site.pages.map((p) => (p === page ? counted : p));
    const lazySite: Site = { ...site, pages, byUrl: new Map(pages.map((p) => [p.url, p])) };
    const rendered = renderSite(lazySite, 'https://www.example.test');
    expect(reads).toBe(0);
    const first = rendered.byPath.get('/security')!.html;
    const readsAfterFirst = reads;
    expect(readsAfterFirst).toBeGreaterThan(0);
    expect(rendered.byPath.get('/security')!.html).toBe(first);
    expect(reads).toBe(readsAfterFirst);
    const expected = renderContentPage(
      { site: lazySite, publicBaseUrl: 'https://www.example.test' },
      counted,
    );
    expect(first.body.toString('utf8')).toBe(expected);
    expect(first.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
  });

  it('keeps the rendered bytes within the budget: a crawl costs renderings, not memory', () => {
    const base = 'https://www.example.test';
    const unbounded = renderSite(site, base, { keptBytes: Number.MAX_SAFE_INTEGER });
    const all = [...unbounded.byPath.values()];
    const total = all.reduce(
      (sum, page) => sum + page.html.body.length + (page.markdown?.body.length ?? 0),
      0,
    );
    expect(unbounded.keptBytes).toBe(total);

    const budget = Math.floor(total / 4);
    const rendered = renderSite(site, base, { keptBytes: budget });
    const popular = rendered.byPath.get('/')!;
    const popularHtml = popular.html;
    // Every page and twin once, as a crawler asks them, and the home page between each.
    for (const page of rendered.byPath.values()) {
      void page.html;
      void page.markdown;
      expect(popular.html).toBe(popularHtml);
      expect(rendered.keptBytes).toBeLessThanOrEqual(budget);
    }
    expect(rendered.keptBytes).toBeGreaterThan(budget / 2);
    // A page dropped since is rendered again to the same bytes and tag.
    for (const [path, page] of rendered.byPath) {
      const again = page.html;
      const before = unbounded.byPath.get(path)!.html;
      expect(again.body.equals(before.body), path).toBe(true);
      expect(again.etag).toBe(before.etag);
    }
    expect(RENDERED_BYTES_KEPT).toBeGreaterThan(total); // the sample site is kept whole
  });
});
