/**
 * Source file ↔ page URL. A file's URL is its path without `.md`; `index.md` stands for its
 * folder. URLs are NFC-normalised so that a name typed on macOS (NFD) and on Linux (NFC) gives the
 * same address. Page URLs are kept decoded (`/docs/a b`); encode them with `encodePagePath` when
 * writing an href.
 */

/** Built HTML pages (a static site generator's output) are read beside Markdown. */
export function isHtmlSource(sourcePath: string): boolean {
  return /\.html?$/i.test(sourcePath);
}

/**
 * Where a static host serves a built HTML file: `index.html` → `/`, `a/index.html` → `/a/`,
 * `a.html` → `/a.html`, or `/a` when the site links its pages without the extension (`clean`).
 */
export function urlForHtmlSourcePath(sourcePath: string, clean: boolean): string {
  const path = sourcePath.normalize('NFC');
  if (/^(.*\/)?index\.html?$/i.test(path)) return `/${path.replace(/index\.html?$/i, '')}`;
  return `/${clean ? path.replace(/\.html?$/i, '') : path}`;
}

/** `index.md` → `/`, `solutions/index.md` → `/solutions/`, `solutions/cros.md` → `/solutions/cros`. */
export function urlForSourcePath(sourcePath: string): string {
  const withoutExtension = sourcePath.normalize('NFC').replace(/\.md$/, '');
  if (withoutExtension === 'index') return '/';
  if (withoutExtension.endsWith('/index')) return `/${withoutExtension.slice(0, -'index'.length)}`;
  return `/${withoutExtension}`;
}

/** Percent-encodes each segment of a page URL for use in an href (`/tldr/common/%` → `/tldr/common/%25`). */
export function encodePagePath(url: string): string {
  return url
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
}

/**
 * Absolute URL of a site path. `publicBaseUrl` has no trailing slash and may carry a path prefix
 * (a proxy that mounts the site below one); page URLs are kept decoded by the content room, so
 * each segment is percent-encoded here.
 */
export function absoluteUrl(publicBaseUrl: string, path: string): string {
  return `${publicBaseUrl}${encodePagePath(path)}`;
}
