/**
 * Source file ↔ page URL. A file's URL is its path without `.md`; `index.md` stands for its
 * folder. URLs are NFC-normalised so that a name typed on macOS (NFD) and on Linux (NFC) gives the
 * same address. Page URLs are kept decoded (`/docs/a b`); encode them with `encodePagePath` when
 * writing an href.
 */

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
