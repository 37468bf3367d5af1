import { LruCache } from '../cache/index.js';
import { markdownOf, strongEtag, type Page, type Site } from '../content/index.js';
import { FORMS } from './forms.js';
import { renderContentPage, renderFormFallbackPage, type SiteView } from './pages.js';
import { DEFAULT_DEMO_PATH, demoPathOf, markdownPathOf } from './paths.js';

/** Page tags are cut short: a page is sent with many headers, and 162 bits tell its versions apart. */
const PAGE_ETAG_LENGTH = 27;

/** One representation of a page, rendered once: bytes, type and a strong ETag of the bytes. */
export interface Representation {
  body: Buffer;
  contentType: string;
  etag: string;
}

export interface RenderedPage {
  /** null for the built-in demo page. */
  readonly page: Page | null;
  readonly path: string;
  /** Rendered on first use, then kept while the site's rendered bytes stay within their budget. */
  readonly html: Representation;
  /** The Markdown twin (rendered and kept the same way); null for the built-in demo page. */
  readonly markdown: Representation | null;
  readonly markdownPath: string | null;
}

export interface RenderedSite {
  publicBaseUrl: string;
  /** By page path (decoded, as `Page.url`). */
  byPath: Map<string, RenderedPage>;
  /** By Markdown twin path. */
  byMarkdownPath: Map<string, RenderedPage>;
  /** The bytes of the representations kept now (at most `keptBytes`). */
  readonly keptBytes: number;
}

/**
 * The rendered pages' bytes a site keeps, the most recently asked first: ~1,000 pages of the docs
 * corpus (7.9 KB of HTML each), every page of a small site. Without a bound a crawler walking the
 * sitemap of the docs corpus left 60 MB of pages in memory; a page asked again after it was
 * dropped is rendered again (~1 ms) to the same bytes and ETag.
 */
export const RENDERED_BYTES_KEPT = 8 * 1024 * 1024;

export interface RenderSiteOptions {
  /** The budget of kept bytes (default RENDERED_BYTES_KEPT); 0 keeps nothing. */
  keptBytes?: number;
}

export const HTML_TYPE = 'text/html; charset=utf-8';
export const MARKDOWN_TYPE = 'text/markdown; charset=utf-8';

export function representation(text: string, contentType: string): Representation {
  const body = Buffer.from(text, 'utf8');
  return { body, contentType, etag: strongEtag(body, PAGE_ETAG_LENGTH) };
}

/**
 * A page whose HTML and Markdown are rendered the first time they are asked for and then kept in
 * the site's budget of rendered bytes: start-up stays short on a site of thousands of pages, a
 * page asked often is rendered once, and memory stays bounded however many pages are asked.
 */
class LazyPage implements RenderedPage {
  constructor(
    private readonly view: SiteView,
    private readonly kept: LruCache<string, Representation>,
    readonly page: Page | null,
    readonly path: string,
    readonly markdownPath: string | null,
  ) {}

  get html(): Representation {
    return this.kept.getOrSet(`html ${this.path}`, () =>
      representation(
        this.page
          ? renderContentPage(this.view, this.page)
          : renderFormFallbackPage(this.view, FORMS.demo, this.path),
        HTML_TYPE,
      ),
    );
  }

  get markdown(): Representation | null {
    const { page } = this;
    if (page === null) return null;
    return this.kept.getOrSet(`markdown ${this.path}`, () => representation(markdownOf(page), MARKDOWN_TYPE));
  }
}

/**
 * Every page and its Markdown twin, by path; each is rendered on its first request and kept while
 * the budget of rendered bytes (`keptBytes`) allows.
 */
export function renderSite(
  site: Site,
  publicBaseUrl: string,
  { keptBytes = RENDERED_BYTES_KEPT }: RenderSiteOptions = {},
): RenderedSite {
  const view: SiteView = { site, publicBaseUrl };
  const kept = new LruCache<string, Representation>(keptBytes, (kept) => kept.body.length);
  const byPath = new Map<string, RenderedPage>();
  const byMarkdownPath = new Map<string, RenderedPage>();
  for (const page of site.pages) {
    const markdownPath = markdownPathOf(page.url);
    const rendered = new LazyPage(view, kept, page, page.url, markdownPath);
    byPath.set(page.url, rendered);
    // A real page at the twin's path keeps its own URL.
    if (!site.byUrl.has(markdownPath)) byMarkdownPath.set(markdownPath, rendered);
  }
  if (demoPathOf(site) === DEFAULT_DEMO_PATH && !byPath.has(DEFAULT_DEMO_PATH))
    byPath.set(DEFAULT_DEMO_PATH, new LazyPage(view, kept, null, DEFAULT_DEMO_PATH, null));
  return {
    publicBaseUrl,
    byPath,
    byMarkdownPath,
    get keptBytes() {
      return kept.weight;
    },
  };
}
