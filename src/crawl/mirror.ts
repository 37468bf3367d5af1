import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, rm, rmdir } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { writeFileAtomically } from '../snapshot/index.js';

/**
 * The mirror: the crawled pages laid out as a static host serves them, so that a loader of built
 * HTML reads the folder as it would a generator's output (`/a/` → `a/index.html`, `/a.html` →
 * `a.html`), and beside it the manifest of what the crawler knows of each page. Both are written
 * atomically (a temporary file renamed over the old one): a reload never reads half a page.
 */

/** The longest segment kept: 255 bytes, the file systems' limit, less the `.html` added to a last one. */
const MAX_NAME_BYTES = 250;

/**
 * Where a page's URL path is kept in the mirror, or null when no file can stand for it (a query
 * string, a segment that is not a file name). `canonical` is set when the file's own place would
 * give another URL (`/a` is kept as `a.html`): the page then needs a canonical link naming it.
 */
export function mirrorPath(url: URL): { file: string; canonical: boolean } | null {
  if (url.search !== '') return null;
  const segments = url.pathname.split('/').slice(1);
  const decoded: string[] = [];
  for (const [at, segment] of segments.entries()) {
    // An empty segment before the last (`//`, `/a//b`) names no file of its own.
    if (segment === '' && at < segments.length - 1) return null;
    let name: string;
    try {
      name = decodeURIComponent(segment);
    } catch {
      return null;
    }
    if (name === '.' || name === '..' || /[/\\\0]/.test(name) || name.startsWith('.')) return null;
    // File systems take names of at most 255 bytes; `.html` may still be added to the last.
    if (Buffer.byteLength(name) > MAX_NAME_BYTES) return null;
    decoded.push(name);
  }
  const last = decoded.pop()!;
  if (last === '') return { file: [...decoded, 'index.html'].join('/'), canonical: false };
  if (/\.html?$/i.test(last)) return { file: [...decoded, last].join('/'), canonical: false };
  return { file: [...decoded, `${last}.html`].join('/'), canonical: true };
}

/**
 * The page with a canonical link to `path` when it has none, so that its URL survives being kept
 * under another file name. Only the head's start is looked at; pages that name their canonical URL
 * themselves (most generators do) are kept byte for byte.
 */
export function withCanonical(html: Buffer, path: string): Buffer {
  const text = html.toString('utf8');
  if (/<link\b[^>]*\brel\s*=\s*["']?canonical\b/i.test(text)) return html;
  const link = `<link rel="canonical" href="${path.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}">`;
  const head = /<head\b[^>]*>/i.exec(text);
  const at = head ? head.index + head[0].length : 0;
  return Buffer.from(`${text.slice(0, at)}${link}${text.slice(at)}`, 'utf8');
}

export const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/**
 * Writes a mirrored file atomically (snapshot's writeFileAtomically), making its folder first.
 * Asynchronous: the server answers requests while a crawl writes (an fsync can take a while).
 */
export async function writeAtomically(file: string, bytes: Buffer | string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFileAtomically(file, [typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes]);
}

/** Removes a page's file, and the folders it leaves empty up to the mirror's root. */
export async function removeMirrored(siteDir: string, file: string): Promise<void> {
  await rm(join(siteDir, file), { force: true });
  let folder = dirname(join(siteDir, file));
  while (folder.length > siteDir.length && folder.startsWith(siteDir + sep)) {
    try {
      await rmdir(folder); // fails unless empty: that is the point
    } catch {
      return;
    }
    folder = dirname(folder);
  }
}

/** What the crawler knows of one page of the sitemap. */
export interface PageRecord {
  /** The page's file in the mirror (null: never fetched whole). */
  file: string | null;
  /** Where the page came from after redirects, when not its sitemap URL. */
  finalUrl?: string;
  etag: string | null;
  lastModified: string | null;
  /** Of the bytes kept, to tell a changed page from one served again without validators. */
  sha256: string | null;
  /** When the copy kept was last confirmed (200 or 304), ISO 8601. */
  lastGoodAt: string | null;
  /** Failures in a row since then, and the last one's reason. */
  failures: number;
  lastError: string | null;
}

/** A sitemap's or robots.txt's last answer, to ask again conditionally. */
export interface ResourceRecord {
  etag: string | null;
  lastModified: string | null;
  /** For a sitemap: its locs; for robots.txt: its text. */
  body: string[] | string;
}

export interface Manifest {
  version: 1;
  sitemapUrl: string;
  /** When the last crawl ended, ISO 8601. */
  crawledAt: string | null;
  robots: ResourceRecord | null;
  sitemaps: Record<string, ResourceRecord & { kind: 'urlset' | 'sitemapindex' }>;
  pages: Record<string, PageRecord>;
}

export const emptyManifest = (sitemapUrl: string): Manifest => ({
  version: 1,
  sitemapUrl,
  crawledAt: null,
  robots: null,
  sitemaps: {},
  pages: {},
});

/**
 * The manifest of a previous run, or null when there is none (or it is unreadable, of another
 * version, or of another sitemap: the crawl then starts over, unconditionally).
 */
export function readManifest(file: string, sitemapUrl: string): Manifest | null {
  let parsed: Partial<Manifest>;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<Manifest>;
  } catch {
    return null;
  }
  if (parsed.version !== 1 || parsed.sitemapUrl !== sitemapUrl || typeof parsed.pages !== 'object')
    return null;
  return { ...emptyManifest(sitemapUrl), ...parsed } as Manifest;
}

/** Writes the manifest atomically, its pages in code point order of their URLs (same crawl, same bytes). */
export async function writeManifest(file: string, manifest: Manifest): Promise<void> {
  const pages: Record<string, PageRecord> = {};
  for (const url of Object.keys(manifest.pages).sort()) pages[url] = manifest.pages[url]!;
  const sitemaps: Manifest['sitemaps'] = {};
  for (const url of Object.keys(manifest.sitemaps).sort()) sitemaps[url] = manifest.sitemaps[url]!;
  await writeAtomically(file, `${JSON.stringify({ ...manifest, sitemaps, pages }, null, 1)}\n`);
}
