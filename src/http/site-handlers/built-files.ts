import { realpath, readFile, stat } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';
import { isHtmlSource, type Site } from '../../content/index.js';
import type { Representation } from '../../site/index.js';
import { strongEtag } from '../../http-primitives/index.js';

/**
 * A built static site (CONTENT_DIR holding `.html` pages) is served as it was built: each page is
 * its own HTML file, with the company's theme, scripts and styles, and every other file of the
 * folder (CSS, JavaScript, images, fonts, the pages left out of search) is served at its path, as
 * a static host would (`/a/` → `a/index.html`, `/a` → `a.html`). Frontdoor adds the search, the
 * forms' APIs and the discovery documents beside it; it renders no page of its own over them.
 */

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.xml': 'application/xml',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.pdf': 'application/pdf',
  '.wasm': 'application/wasm',
  '.webmanifest': 'application/manifest+json',
};

/**
 * The site's own pages keep their own scripts and styles, inline ones included, so Frontdoor's
 * strict policy (no inline script) would break them; framing stays forbidden.
 */
export const BUILT_PAGE_CSP = "frame-ancestors 'none'";

/** Page tags are cut short, as the rendered pages' (render-cache.ts). */
const ETAG_LENGTH = 27;

const isBuiltSite = new WeakMap<Site, boolean>();

/** Whether the site was loaded from a built static site (at least one page is an HTML file). */
export function servesBuiltFiles(site: Site): boolean {
  let built = isBuiltSite.get(site);
  if (built === undefined) {
    built = site.pages.some((page) => isHtmlSource(page.sourcePath));
    isBuiltSite.set(site, built);
  }
  return built;
}

export type BuiltFileLookup =
  | { kind: 'file'; representation: Representation; html: boolean }
  | { kind: 'redirect'; location: string }
  | null;

/**
 * The file a request path names in the content folder: the HTML file of the page at that URL,
 * else a file as a static host finds it. Null when there is none. Never a file outside the
 * folder (`..`, links out of it), nor one whose path has a segment starting with `.`, nor
 * `_site.yaml`.
 */
export async function findBuiltFile(site: Site, root: string, path: string): Promise<BuiltFileLookup> {
  const page = site.byUrl.get(path);
  if (page && isHtmlSource(page.sourcePath)) return readBuiltFile(root, page.sourcePath);
  const segments = path.split('/').slice(1);
  if (segments.some((s) => s.startsWith('.') || s.includes('\\') || s.includes('\0'))) return null;
  const relative = segments.join('/');
  if (relative === '_site.yaml') return null;
  const candidates = path.endsWith('/') ? [`${relative}index.html`] : [relative, `${relative}.html`];
  for (const candidate of candidates) {
    const found = await readBuiltFile(root, candidate);
    if (found) return found;
  }
  if (!path.endsWith('/') && (await isFileInside(root, `${relative}/index.html`)))
    return { kind: 'redirect', location: `${path}/` };
  return null;
}

async function readBuiltFile(root: string, relative: string): Promise<BuiltFileLookup> {
  const file = await isFileInside(root, relative);
  if (file === null) return null;
  let body: Buffer;
  try {
    body = await readFile(file);
  } catch {
    return null;
  }
  const extension = extname(relative).toLowerCase();
  const contentType = CONTENT_TYPES[extension] ?? 'application/octet-stream';
  return {
    kind: 'file',
    representation: { body, contentType, etag: strongEtag(body, ETAG_LENGTH) },
    html: isHtmlSource(relative),
  };
}

/** The real path of `relative` below `root` when it is a file there (links resolved), else null. */
async function isFileInside(root: string, relative: string): Promise<string | null> {
  try {
    const realRoot = await realpath(root);
    const file = await realpath(join(realRoot, relative));
    if (!file.startsWith(realRoot + sep)) return null;
    return (await stat(file)).isFile() ? file : null;
  } catch {
    return null;
  }
}
