import { createHash } from 'node:crypto';
import { markdownOf, type Page, type Site } from '../content/index.js';
import { renderBuiltInDemoPage, renderContentPage, type SiteView } from './pages.js';
import { DEFAULT_DEMO_PATH, demoPathOf, markdownPathOf } from './paths.js';

/** One representation of a page, rendered once: bytes, type and a strong ETag of the bytes. */
export interface Representation {
  body: Buffer;
  contentType: string;
  etag: string;
}

export interface RenderedPage {
  /** null for the built-in demo page. */
  page: Page | null;
  path: string;
  html: Representation;
  /** The Markdown twin; null for the built-in demo page. */
  markdown: Representation | null;
  markdownPath: string | null;
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
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  return { body, contentType, etag };
}

/** Renders every page and its Markdown twin. */
export function renderSite(site: Site, publicBaseUrl: string): RenderedSite {
  const view: SiteView = { site, publicBaseUrl };
  const byPath = new Map<string, RenderedPage>();
  const byMarkdownPath = new Map<string, RenderedPage>();
  for (const page of site.pages) {
    const markdownPath = markdownPathOf(page.url);
    const rendered: RenderedPage = {
      page,
      path: page.url,
      html: representation(renderContentPage(view, page), HTML_TYPE),
      markdown: representation(markdownOf(page), MARKDOWN_TYPE),
      markdownPath,
    };
    byPath.set(page.url, rendered);
    // A real page at the twin's path keeps its own URL.
    if (!site.byUrl.has(markdownPath)) byMarkdownPath.set(markdownPath, rendered);
  }
  if (demoPathOf(site) === DEFAULT_DEMO_PATH && !byPath.has(DEFAULT_DEMO_PATH)) {
    byPath.set(DEFAULT_DEMO_PATH, {
      page: null,
      path: DEFAULT_DEMO_PATH,
      html: representation(renderBuiltInDemoPage(view), HTML_TYPE),
      markdown: null,
      markdownPath: null,
    });
  }
  return { publicBaseUrl, byPath, byMarkdownPath };
}
