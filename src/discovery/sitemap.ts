import { translationsOf } from '../content/index.js';
import type { DiscoveryModel } from './model.js';
import { DISCOVERY_PATHS, sitemapPartPath } from './paths.js';

/** sitemaps.org 0.9 limits per file; a test lowers them to force the sitemap index. */
export interface SitemapLimits {
  maxUrlsPerFile: number;
  /** Uncompressed bytes. */
  maxBytesPerFile: number;
}

export const SITEMAP_PROTOCOL_LIMITS: SitemapLimits = {
  maxUrlsPerFile: 50_000,
  maxBytesPerFile: 50 * 1024 * 1024,
};

export const SITEMAP_NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';
/** The namespace of `xhtml:link` alternates (Google's hreflang in sitemaps). */
export const XHTML_NAMESPACE = 'http://www.w3.org/1999/xhtml';

/** A translation of the page, as an `<xhtml:link rel="alternate" hreflang href>`. */
export interface SitemapAlternate {
  hreflang: string;
  href: string;
}

export interface SitemapEntry {
  loc: string;
  /** W3C date (YYYY-MM-DD), or null. */
  lastmod: string | null;
  /** Every copy of the page in a language, itself included (as search engines ask); absent without translations. */
  alternates?: SitemapAlternate[];
}

const XML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  "'": '&apos;',
  '"': '&quot;',
};

export function escapeXml(text: string): string {
  return text.replace(/[&<>'"]/g, (char) => XML_ESCAPES[char]!);
}

const W3C_DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** Every public page, plus this room's two HTML pages (/docs and /developers). */
export function sitemapEntries(model: DiscoveryModel): SitemapEntry[] {
  const pages = model.site.pages.map((page): SitemapEntry => {
    const copies = translationsOf(model.site, page);
    return {
      loc: model.at(page.url),
      lastmod: W3C_DATE.test(page.lastModified) ? page.lastModified : null,
      ...(copies.length > 0
        ? { alternates: copies.map((copy) => ({ hreflang: copy.lang, href: model.at(copy.url) })) }
        : {}),
    };
  });
  const docsDates = model.site.pages
    .filter((page) => page.url.startsWith('/docs/') && W3C_DATE.test(page.lastModified))
    .map((page) => page.lastModified)
    .sort();
  const own: SitemapEntry[] = [
    { path: DISCOVERY_PATHS.docs, lastmod: docsDates.at(-1) ?? null },
    { path: DISCOVERY_PATHS.developers, lastmod: null },
  ]
    .filter((entry) => !model.site.byUrl.has(entry.path))
    .map((entry) => ({ loc: model.at(entry.path), lastmod: entry.lastmod }));
  return [...pages, ...own].sort((a, b) => (a.loc < b.loc ? -1 : a.loc > b.loc ? 1 : 0));
}

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

function urlElement(entry: SitemapEntry): string {
  const lastmod = entry.lastmod ? `<lastmod>${entry.lastmod}</lastmod>` : '';
  const alternates = (entry.alternates ?? [])
    .map(
      (alternate) =>
        `\n    <xhtml:link rel="alternate" hreflang="${escapeXml(alternate.hreflang)}" href="${escapeXml(alternate.href)}"/>`,
    )
    .join('');
  return `  <url><loc>${escapeXml(entry.loc)}</loc>${lastmod}${alternates}${alternates ? '\n  ' : ''}</url>\n`;
}

/** A urlset; with `alternates`, it declares the xhtml namespace its `xhtml:link` elements use. */
function urlset(elements: readonly string[], alternates = false): string {
  const xhtml = alternates ? ` xmlns:xhtml="${XHTML_NAMESPACE}"` : '';
  return `${XML_DECLARATION}<urlset xmlns="${SITEMAP_NAMESPACE}"${xhtml}>\n${elements.join('')}</urlset>\n`;
}

/**
 * The sitemap files by path. One file at /sitemap.xml while the entries fit the limits; beyond
 * them /sitemap.xml becomes a sitemap index of /sitemaps/1.xml, /sitemaps/2.xml, … each within them.
 */
export function buildSitemaps(model: DiscoveryModel, limits: SitemapLimits): Map<string, string> {
  const entries = sitemapEntries(model);
  const alternates = entries.some((entry) => entry.alternates !== undefined);
  const overhead = Buffer.byteLength(urlset([], alternates));
  const parts: { elements: string[]; lastmod: string | null }[] = [];
  let current: { elements: string[]; lastmod: string | null; bytes: number } | null = null;
  for (const entry of entries) {
    const element = urlElement(entry);
    const size = Buffer.byteLength(element);
    if (overhead + size > limits.maxBytesPerFile)
      throw new RangeError(`the sitemap byte limit ${limits.maxBytesPerFile} cannot hold even one URL`);
    if (
      !current ||
      current.elements.length >= limits.maxUrlsPerFile ||
      current.bytes + size > limits.maxBytesPerFile
    ) {
      current = { elements: [], lastmod: null, bytes: overhead };
      parts.push(current);
    }
    current.elements.push(element);
    current.bytes += size;
    if (entry.lastmod && (current.lastmod === null || entry.lastmod > current.lastmod))
      current.lastmod = entry.lastmod;
  }

  const files = new Map<string, string>();
  if (parts.length <= 1) {
    files.set(DISCOVERY_PATHS.sitemap, urlset(parts[0]?.elements ?? [], alternates));
    return files;
  }
  const sitemaps = parts.map((part, i) => {
    const path = sitemapPartPath(i + 1);
    files.set(path, urlset(part.elements, alternates));
    const lastmod = part.lastmod ? `<lastmod>${part.lastmod}</lastmod>` : '';
    return `  <sitemap><loc>${escapeXml(model.at(path))}</loc>${lastmod}</sitemap>\n`;
  });
  files.set(
    DISCOVERY_PATHS.sitemap,
    `${XML_DECLARATION}<sitemapindex xmlns="${SITEMAP_NAMESPACE}">\n${sitemaps.join('')}</sitemapindex>\n`,
  );
  return files;
}
