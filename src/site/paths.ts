import type { Page, Site } from '../content/index.js';

/**
 * Where a page's Markdown twin is served: the page URL + `.md`, and for a folder index
 * (`/solutions/`) its `index.md` (`/solutions/index.md`, `/index.md` for the home page), which is
 * also where the source file sits in the content folder.
 */
export function markdownPathOf(url: string): string {
  return url.endsWith('/') ? `${url}index.md` : `${url}.md`;
}

/** Orders section listings: front matter `order` first (pages without one last), then title, then URL. */
export function compareByOrder(a: Page, b: Page): number {
  const orderA = a.order ?? Number.POSITIVE_INFINITY;
  const orderB = b.order ?? Number.POSITIVE_INFINITY;
  if (orderA !== orderB) return orderA < orderB ? -1 : 1;
  const byTitle = a.title.localeCompare(b.title, 'en');
  if (byTitle !== 0) return byTitle;
  return a.url < b.url ? -1 : a.url > b.url ? 1 : 0;
}

/**
 * What the site's layout asks of every page, worked out once per loaded site: a site is not
 * changed after loading, and asking the page list each time made rendering a large site quadratic.
 */
interface SiteOutline {
  /** Folder (`/solutions/`) → the pages directly in it and its subfolder indexes, in listing order. */
  childrenByFolder: Map<string, Page[]>;
  navigation: Page[];
  demoPath: string;
}

const outlines = new WeakMap<Site, SiteOutline>();

function outlineOf(site: Site): SiteOutline {
  let outline = outlines.get(site);
  if (outline) return outline;
  const childrenByFolder = new Map<string, Page[]>();
  for (const page of site.pages) {
    // /a/b and /a/b/ are both children of /a/.
    const trimmed = page.url.endsWith('/') ? page.url.slice(0, -1) : page.url;
    if (trimmed === '') continue;
    const folder = trimmed.slice(0, trimmed.lastIndexOf('/') + 1);
    let children = childrenByFolder.get(folder);
    if (!children) childrenByFolder.set(folder, (children = []));
    children.push(page);
  }
  for (const children of childrenByFolder.values()) children.sort(compareByOrder);
  const navigation = site.pages
    .filter((page) => page.nav !== null && page.form !== 'demo')
    .sort((a, b) => a.nav! - b.nav! || a.title.localeCompare(b.title, 'en') || (a.url < b.url ? -1 : 1));
  const demoPath = site.pages.find((page) => page.form === 'demo')?.url ?? DEFAULT_DEMO_PATH;
  outline = { childrenByFolder, navigation, demoPath };
  outlines.set(site, outline);
  return outline;
}

/**
 * The pages directly below a page: for `/solutions/` the pages `/solutions/x` and the subfolder
 * indexes `/solutions/x/`; for a page `/solutions/cros` the pages in its folder `/solutions/cros/`.
 */
export function childrenOf(site: Site, page: Pick<Page, 'url'>): Page[] {
  const folder = page.url.endsWith('/') ? page.url : `${page.url}/`;
  return [...(outlineOf(site).childrenByFolder.get(folder) ?? [])];
}

export interface Crumb {
  name: string;
  path: string;
}

/**
 * Home, then every ancestor of `path` that exists as a page (folder index `/a/` or page `/a`), then
 * the current page.
 */
export function breadcrumbsOf(site: Site, path: string, title: string): Crumb[] {
  const home = site.byUrl.get('/');
  const crumbs: Crumb[] = [{ name: home ? 'Home' : site.info.name, path: '/' }];
  if (path === '/') return crumbs;
  const segments = path.split('/').filter((segment) => segment !== '');
  for (let i = 1; i < segments.length; i++) {
    const prefix = `/${segments.slice(0, i).join('/')}`;
    const ancestor = site.byUrl.get(`${prefix}/`) ?? site.byUrl.get(prefix);
    if (ancestor) crumbs.push({ name: shortTitleOf(ancestor), path: ancestor.url });
  }
  crumbs.push({ name: title, path });
  return crumbs;
}

/**
 * The short label of a page in navigation: front matter `navTitle` when given; for a folder index
 * its folder name (`/documents/` → "Documents"), since index titles are written as headlines;
 * otherwise the title.
 */
export function shortTitleOf(page: Page): string {
  const navTitle = page.frontMatter['navTitle'];
  if (typeof navTitle === 'string' && navTitle.trim() !== '') return navTitle.trim();
  if (page.url !== '/' && page.url.endsWith('/')) {
    const folder = page.url.slice(0, -1).split('/').pop() ?? '';
    const words = folder.replace(/[-_]+/g, ' ').trim();
    if (words !== '') return words.charAt(0).toUpperCase() + words.slice(1);
  }
  return page.title;
}

/**
 * Header navigation: pages with front matter `nav`, by that number, then title. The demo page is
 * left out: the header's "Request a demo" button already leads there.
 */
export function navigationOf(site: Site): Page[] {
  return [...outlineOf(site).navigation];
}

/** The page holding the demo request form (front matter `form: demo`), or the built-in `/demo`. */
export function demoPathOf(site: Site): string {
  return outlineOf(site).demoPath;
}

export const DEFAULT_DEMO_PATH = '/demo';
