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
  /** Rendered on first use, then kept. */
  readonly html: Representation;
  /** The Markdown twin (rendered on first use); null for the built-in demo page. */
  readonly markdown: Representation | null;
  readonly markdownPath: string | null;
}

export interface RenderedSite {
  publicBaseUrl: string;
  /** By page path (decoded, as `Page.url`). */
  byPath: Map<string, RenderedPage>;
  /** By Markdown twin path. */
  byMarkdownPath: Map<string, RenderedPage>;
}

export const HTML_TYPE = 'text/html; charset=utf-8';
export const MARKDOWN_TYPE = 'text/markdown; charset=utf-8';

export function representation(text: string, contentType: string): Representation {
  const body = Buffer.from(text, 'utf8');
  return { body, contentType, etag: strongEtag(body, PAGE_ETAG_LENGTH) };
}

/**
 * A page whose HTML and Markdown are rendered the first time they are asked for and then kept:
 * start-up stays short on a site of thousands of pages, and each page is still rendered once.
 */
class LazyPage implements RenderedPage {
  #html: Representation | undefined;
  #markdown: Representation | null | undefined;

  constructor(
    private readonly view: SiteView,
    readonly page: Page | null,
    readonly path: string,
    readonly markdownPath: string | null,
  ) {}

  get html(): Representation {
    this.#html ??= representation(
      this.page
        ? renderContentPage(this.view, this.page)
        : renderFormFallbackPage(this.view, FORMS.demo, this.path),
      HTML_TYPE,
    );
    return this.#html;
  }

  get markdown(): Representation | null {
    if (this.#markdown === undefined)
      this.#markdown = this.page ? representation(markdownOf(this.page), MARKDOWN_TYPE) : null;
    return this.#markdown;
  }
}

/** Every page and its Markdown twin, by path; each is rendered on its first request. */
export function renderSite(site: Site, publicBaseUrl: string): RenderedSite {
  const view: SiteView = { site, publicBaseUrl };
  const byPath = new Map<string, RenderedPage>();
  const byMarkdownPath = new Map<string, RenderedPage>();
  for (const page of site.pages) {
    const markdownPath = markdownPathOf(page.url);
    const rendered = new LazyPage(view, page, page.url, markdownPath);
    byPath.set(page.url, rendered);
    // A real page at the twin's path keeps its own URL.
    if (!site.byUrl.has(markdownPath)) byMarkdownPath.set(markdownPath, rendered);
  }
  if (demoPathOf(site) === DEFAULT_DEMO_PATH && !byPath.has(DEFAULT_DEMO_PATH))
    byPath.set(DEFAULT_DEMO_PATH, new LazyPage(view, null, DEFAULT_DEMO_PATH, null));
  return { publicBaseUrl, byPath, byMarkdownPath };
}
