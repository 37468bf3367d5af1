import { beforeAll, describe, expect, it } from 'vitest';
import { BUNDLED_CONTENT_DIR } from '../../src/config/index.js';
import { loadSite, type Page, type Site } from '../../src/content/index.js';
import { childrenOf, navigationOf } from '../../src/site/index.js';
import { renderContentPage } from '../../src/site/pages.js';
import {
  ASKED_ONCE_REMEMBERED,
  RENDERED_BYTES_KEPT,
  renderSite,
  type RenderedSite,
} from '../../src/site/render-cache.js';

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

/** Reads every representation of `rendered` `times` times, as a crawler (1) or returning readers do. */
function readAll(rendered: RenderedSite, times: number): void {
  for (let i = 0; i < times; i++)
    for (const page of rendered.byPath.values()) {
      void page.html;
      void page.markdown;
    }
}

const bytesOf = (body: Buffer | string): Buffer => (typeof body === 'string' ? Buffer.from(body) : body);

describe('renderSite', () => {
  it('renders a page when asked, keeps its bytes from the second request, with the renderer’s bytes and tag', () => {
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
    // Asked once, it is sent as text and not kept.
    expect(typeof first.body).toBe('string');
    expect(rendered.keptBytes).toBe(0);
    const second = rendered.byPath.get('/security')!.html;
    expect(reads).toBe(readsAfterFirst * 2);
    expect(Buffer.isBuffer(second.body)).toBe(true);
    expect(rendered.keptBytes).toBe(second.body.length);
    expect(rendered.byPath.get('/security')!.html).toBe(second);
    expect(reads).toBe(readsAfterFirst * 2);
    const expected = renderContentPage(
      { site: lazySite, publicBaseUrl: 'https://www.example.test' },
      counted,
    );
    expect(first.body).toBe(expected);
    expect(bytesOf(second.body).toString('utf8')).toBe(expected);
    expect(second.etag).toBe(first.etag);
    expect(first.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
  });

  it('keeps nothing of a crawl that asks each page once', () => {
    const rendered = renderSite(site, 'https://www.example.test');
    readAll(rendered, 1);
    expect(rendered.keptBytes).toBe(0);
  });

  it('keeps the rendered bytes within the budget, the most recently asked first', () => {
    const base = 'https://www.example.test';
    const unbounded = renderSite(site, base, { keptBytes: Number.MAX_SAFE_INTEGER });
    readAll(unbounded, 2);
    const all = [...unbounded.byPath.values()];
    const total = all.reduce(
      (sum, page) => sum + bytesOf(page.html.body).length + bytesOf(page.markdown?.body ?? '').length,
      0,
    );
    expect(unbounded.keptBytes).toBe(total);

    const budget = Math.floor(total / 4);
    const rendered = renderSite(site, base, { keptBytes: budget });
    const popular = rendered.byPath.get('/')!;
    void popular.html;
    const popularHtml = popular.html;
    // Every page and twin twice, and the home page between each.
    for (let round = 0; round < 2; round++)
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
      expect(bytesOf(again.body).equals(bytesOf(before.body)), path).toBe(true);
      expect(again.etag).toBe(before.etag);
    }
    expect(RENDERED_BYTES_KEPT).toBeGreaterThan(total); // the sample site is kept whole
  });

  it('forgets the pages asked once in one piece when it remembers too many', () => {
    // A site of more pages than are remembered: each a copy of one page under its own URL.
    const model = site.byUrl.get('/security')!;
    const pages: Page[] = Array.from({ length: ASKED_ONCE_REMEMBERED + 1 }, (_, i) => ({
      ...model,
      url: `/many/${String(i).padStart(5, '0')}`,
    }));
    const many: Site = { ...site, pages, byUrl: new Map(pages.map((p) => [p.url, p])) };
    const rendered = renderSite(many, 'https://www.example.test');
    const first = rendered.byPath.get(pages[0]!.url)!;
    void first.markdown;
    // ASKED_ONCE_REMEMBERED - 1 more twins asked once: the memory is then full.
    for (const page of pages.slice(1, ASKED_ONCE_REMEMBERED)) void rendered.byPath.get(page.url)!.markdown;
    expect(rendered.keptBytes).toBe(0);
    // One more is forgotten with all the others, so the first page's second request is a first again.
    void rendered.byPath.get(pages[ASKED_ONCE_REMEMBERED]!.url)!.markdown;
    expect(typeof first.markdown!.body).toBe('string');
    expect(Buffer.isBuffer(first.markdown!.body)).toBe(true);
    expect(rendered.keptBytes).toBe(first.markdown!.body.length);
  });
});
