import { LruCache } from '../cache/index.js';
import { CodedVariants, COMPRESSION_MIN_BYTES, type ContentCoding } from '../compression/index.js';
import { markdownOf, type Page, type Site } from '../content/index.js';
import { FORMS, type FormCatalog } from './forms.js';
import { formsOf, renderContentPage, renderFormFallbackPage, type SiteView } from './pages.js';
import { DEFAULT_DEMO_PATH, demoPathOf, markdownPathOf } from './paths.js';
import { strongEtag } from '../http-primitives/index.js';

/** Page tags are cut short: a page is sent with many headers, and 162 bits tell its versions apart. */
const PAGE_ETAG_LENGTH = 27;

/**
 * One representation of a page: body, type and a strong ETag of the body's UTF-8 bytes. The body
 * is bytes for a representation the site keeps, and the text for one rendered for this request
 * alone: Node encodes a string into a short-lived buffer of its own as it writes it, while each
 * Buffer made for a page asked once would wait for a garbage collection to be freed (V8 lets tens
 * of MB of such memory pile up first, and the allocator then keeps the space).
 */
export interface Representation {
  body: Buffer | string;
  contentType: string;
  etag: string;
  /** The body's coded variants (brotli, gzip), kept beside it; only on a kept representation. */
  variants?: CodedVariants;
}

export interface RenderedPage {
  /** null for the built-in demo page. */
  readonly page: Page | null;
  readonly path: string;
  /** Rendered when asked for; kept from its second request, within the site's budget of bytes. */
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
 * corpus (7.9 KB of HTML each), every page of a small site. Unbounded, a crawler walking the
 * sitemap of the docs corpus left 60 MB of pages in memory. A page dropped and asked again is
 * rendered again (~1 ms) to the same bytes and ETag.
 */
export const RENDERED_BYTES_KEPT = 8 * 1024 * 1024;

/**
 * How many representations asked for once are remembered (their keys only), so that a second
 * request keeps one: a crawler asks each page once, and keeping those would only push out the
 * pages people come back to (TinyLFU's doorkeeper, as for /ask answers). Forgotten in one piece
 * when full.
 */
export const ASKED_ONCE_REMEMBERED = 4096;

export interface RenderSiteOptions {
  /** The budget of kept bytes (default RENDERED_BYTES_KEPT), coded variants included; 0 keeps nothing. */
  keptBytes?: number;
  /** The codings a kept representation is compressed in once, when it is kept (default none). */
  codings?: readonly ContentCoding[];
  /** The site's forms (default: the seed's). */
  forms?: FormCatalog;
}

export const HTML_TYPE = 'text/html; charset=utf-8';
export const MARKDOWN_TYPE = 'text/markdown; charset=utf-8';

/** A representation as bytes, for keeping. */
export function representation(text: string, contentType: string): Representation {
  const body = Buffer.from(text, 'utf8');
  return { body, contentType, etag: strongEtag(body, PAGE_ETAG_LENGTH) };
}

/**
 * A site's rendered representations: kept from their second request, by bytes, least recent out.
 * A kept representation is compressed in each of `codings` in the background once it is kept, and
 * its variants count in the budget with its identity bytes as they are made.
 */
class KeptRepresentations {
  readonly #kept: LruCache<string, Representation>;
  readonly #askedOnce = new Set<string>();

  constructor(
    keptBytes: number,
    private readonly codings: readonly ContentCoding[],
  ) {
    this.#kept = new LruCache(keptBytes, (kept) => kept.body.length + (kept.variants?.bytes ?? 0));
  }

  get bytes(): number {
    return this.#kept.weight;
  }

  of(key: string, contentType: string, render: () => string): Representation {
    const kept = this.#kept.get(key);
    if (kept !== undefined) return kept;
    const text = render();
    if (this.#askedOnce.delete(key)) {
      const made = representation(text, contentType);
      this.#kept.set(key, made);
      // Compressed on the thread pool at the best level; the budget weighs each variant once made.
      if (this.codings.length > 0 && made.body.length >= COMPRESSION_MIN_BYTES)
        made.variants = new CodedVariants(made.body as Buffer, made.etag, {
          mode: 'background',
          codings: this.codings,
          made: () => this.#kept.reweigh(key, made),
        });
      return made;
    }
    if (this.#askedOnce.size >= ASKED_ONCE_REMEMBERED) this.#askedOnce.clear();
    this.#askedOnce.add(key);
    return { body: text, contentType, etag: strongEtag(text, PAGE_ETAG_LENGTH) };
  }
}

/**
 * A page whose HTML and Markdown are rendered when asked for and kept from their second request
 * in the site's budget of rendered bytes: start-up stays short on a site of thousands of pages, a
 * page asked often is rendered twice, and memory stays bounded however many pages are asked.
 */
class LazyPage implements RenderedPage {
  constructor(
    private readonly view: SiteView,
    private readonly kept: KeptRepresentations,
    readonly page: Page | null,
    readonly path: string,
    readonly markdownPath: string | null,
  ) {}

  get html(): Representation {
    return this.kept.of(`html ${this.path}`, HTML_TYPE, () =>
      this.page
        ? renderContentPage(this.view, this.page)
        : renderFormFallbackPage(this.view, formsOf(this.view).get(FORMS.demo.kind) ?? FORMS.demo, this.path),
    );
  }

  get markdown(): Representation | null {
    const { page } = this;
    if (page === null) return null;
    return this.kept.of(`markdown ${this.path}`, MARKDOWN_TYPE, () => markdownOf(page));
  }
}

/**
 * Every page and its Markdown twin, by path; each is rendered when asked for, and kept from its
 * second request while the budget of rendered bytes (`keptBytes`) allows.
 */
export function renderSite(
  site: Site,
  publicBaseUrl: string,
  { keptBytes = RENDERED_BYTES_KEPT, codings = [], forms }: RenderSiteOptions = {},
): RenderedSite {
  const view: SiteView = { site, publicBaseUrl, ...(forms ? { forms } : {}) };
  const kept = new KeptRepresentations(keptBytes, codings);
  const byPath = new Map<string, RenderedPage>();
  const byMarkdownPath = new Map<string, RenderedPage>();
  for (const page of site.pages) {
    const markdownPath = markdownPathOf(page.url);
    const rendered = new LazyPage(view, kept, page, page.url, markdownPath);
    byPath.set(page.url, rendered);
    // A real page at the twin's path keeps its own URL.
    if (!site.byUrl.has(markdownPath)) byMarkdownPath.set(markdownPath, rendered);
  }
  // The built-in demo page exists only on a site that has the seed's demo form.
  if (
    formsOf(view).has(FORMS.demo.kind) &&
    demoPathOf(site) === DEFAULT_DEMO_PATH &&
    !byPath.has(DEFAULT_DEMO_PATH)
  )
    byPath.set(DEFAULT_DEMO_PATH, new LazyPage(view, kept, null, DEFAULT_DEMO_PATH, null));
  return {
    publicBaseUrl,
    byPath,
    byMarkdownPath,
    get keptBytes() {
      return kept.bytes;
    },
  };
}
