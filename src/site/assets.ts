import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The site's static files (one stylesheet, two small browser modules, icons). They sit beside this
 * module in `assets/` both in src/ and in dist/ (copied by scripts/copy-assets.mjs), are read once,
 * and are linked with a content hash in the query so browsers may cache them for a year.
 */

export interface SiteAsset {
  name: string;
  body: Buffer;
  contentType: string;
  /** Short content hash, used as the `v` query parameter and in the ETag. */
  version: string;
  etag: string;
}

const CONTENT_TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

// `../site/` rather than `./`: the same folder from this module and from the bundle (dist/cli/main.js).
export const ASSETS_DIR = fileURLToPath(new URL('../site/assets/', import.meta.url));

let cache: Map<string, SiteAsset> | null = null;

export function siteAssets(): Map<string, SiteAsset> {
  if (cache) return cache;
  const assets = new Map<string, SiteAsset>();
  for (const name of readdirSync(ASSETS_DIR).sort()) {
    const contentType = CONTENT_TYPES[extname(name)];
    if (!contentType) continue;
    const body = readFileSync(join(ASSETS_DIR, name));
    const version = createHash('sha256').update(body).digest('hex').slice(0, 12);
    assets.set(name, { name, body, contentType, version, etag: `"${version}"` });
  }
  cache = assets;
  return assets;
}

/**
 * The embed (frontdoor.js with the modules it imports, and frontdoor.css): served under /embed/ as
 * well, the one folder a site served elsewhere routes to this server for it
 * (docs/beside-your-site.md); the site's other assets stay under /assets/.
 */
export const EMBED_ASSETS: readonly string[] = [
  'frontdoor.js',
  'frontdoor.css',
  'live-search.js',
  'form-enhance.js',
  'words.js',
];

/** `/assets/site.css?v=…`; throws for an asset that does not exist, so a typo fails every test. */
export function assetUrl(name: string): string {
  const asset = siteAssets().get(name);
  if (!asset) throw new Error(`site asset ${name} does not exist in ${ASSETS_DIR}`);
  return `/assets/${name}?v=${asset.version}`;
}
