import { translationsOf, type NavLink, type Page, type Site } from '../content/index.js';
import { folderLanguage, primaryLanguage, type MessageKey } from '../language/index.js';
import type { FormCatalog, FormDescriptor } from './forms.js';

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
  /** Form key → the first page (in the site's order) whose front matter `form` names it. */
  formPages: Map<string, string>;
  /** Form key → primary language subtag → the first page in that language carrying the form. */
  formPagesByLanguage: Map<string, Map<string, string>>;
  demoPath: string;
  headerLinks: MenuLink[];
  /** `footer` in `_site.yaml`, or null: derived from the content and the site's forms. */
  configuredFooter: MenuColumn[] | null;
}

/** A link as the header and footer show it: the label resolved, external addresses marked. */
export interface MenuLink {
  label: string;
  /** For Frontdoor's own default words: the catalogue key the page's language shows instead. */
  labelKey?: MessageKey;
  /** A decoded site path, or an absolute address when `external`. */
  url: string;
  external: boolean;
  /**
   * The page the link is named after (its short title): on a page in another language the link
   * leads to that page's translation there, named by it (linksInLanguage).
   */
  page?: Page;
}

export interface MenuColumn {
  title: string;
  /** For Frontdoor's own default words: the catalogue key the page's language shows instead. */
  titleKey?: MessageKey;
  links: MenuLink[];
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
  // On a site in several languages, the menu is made of the main language's pages; each page in
  // another language shows their translations (linksInLanguage).
  const marked = site.pages.filter((page) => page.nav !== null && page.form !== 'demo');
  const outsideLanguageFolders = marked.filter((page) => !inLanguageFolder(page));
  const navigation = (outsideLanguageFolders.length > 0 ? outsideLanguageFolders : marked).sort(
    (a, b) => a.nav! - b.nav! || a.title.localeCompare(b.title, 'en') || (a.url < b.url ? -1 : 1),
  );
  const formPages = new Map<string, string>();
  const formPagesByLanguage = new Map<string, Map<string, string>>();
  for (const page of site.pages) {
    if (page.form === null) continue;
    if (!formPages.has(page.form)) formPages.set(page.form, page.url);
    let byLanguage = formPagesByLanguage.get(page.form);
    if (!byLanguage) formPagesByLanguage.set(page.form, (byLanguage = new Map()));
    const language = primaryLanguage(page.lang);
    if (!byLanguage.has(language)) byLanguage.set(language, page.url);
  }
  const demoPath = formPages.get('demo') ?? DEFAULT_DEMO_PATH;
  const headerLinks = site.info.navigation
    ? site.info.navigation.map((link) => menuLink(site, link))
    : (navigation.length > 0 ? navigation : topLevelPages(site)).map(pageLink);
  const configuredFooter: MenuColumn[] | null = site.info.footer
    ? site.info.footer.map((column) => ({
        title: column.title,
        links: column.links.map((link) => menuLink(site, link)),
      }))
    : null;
  outline = {
    childrenByFolder,
    navigation,
    formPages,
    formPagesByLanguage,
    demoPath,
    headerLinks,
    configuredFooter,
  };
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
 * Home (`homeName`: in the page's language), then every ancestor of `path` that exists as a page
 * (folder index `/a/` or page `/a`), then the current page.
 */
export function breadcrumbsOf(site: Site, path: string, title: string, homeName = 'Home'): Crumb[] {
  const segments = path.split('/').filter((segment) => segment !== '');
  // In a language folder (/de/…) whose index speaks that language, home is that index, not /.
  const languageHome = segments.length > 1 ? site.byUrl.get(`/${segments[0]}/`) : undefined;
  const inLanguage =
    languageHome !== undefined &&
    folderLanguage(`${segments[0]}/`)?.toLowerCase() === languageHome.lang.toLowerCase();
  const home = inLanguage ? languageHome : site.byUrl.get('/');
  const crumbs: Crumb[] = [{ name: home ? homeName : site.info.name, path: home?.url ?? '/' }];
  if (path === '/') return crumbs;
  for (let i = inLanguage ? 2 : 1; i < segments.length; i++) {
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

/** The header's links: `navigation` in `_site.yaml`, else the pages with front matter `nav`, else the top-level pages. */
export function headerLinksOf(site: Site): MenuLink[] {
  return outlineOf(site).headerLinks;
}

/**
 * The form the header's button leads to: the first of the site's forms (in the order of `forms:`;
 * the seed's demo request before its suggestion form) that a page carries with front matter
 * `form`, or that has a page of its own built in (the seed's `/demo`), with the link to it. Null
 * when no page offers any form: a button to a page that does not exist would be worse than none.
 * `lang`: the language of the page the link is on.
 */
export function primaryFormOf(
  site: Site,
  forms: FormCatalog,
  lang: string | null = null,
): { form: FormDescriptor; link: MenuLink } | null {
  const { formPages, formPagesByLanguage } = outlineOf(site);
  for (const form of forms.values()) {
    // On a page in a language, the form's page in that language when the site has one.
    const url =
      (lang === null ? undefined : formPagesByLanguage.get(form.kind)?.get(primaryLanguage(lang))) ??
      formPages.get(form.kind) ??
      form.builtInPage?.path;
    if (url === undefined) continue;
    const label = form.definition.words.heading;
    const link: MenuLink = form.headingKey
      ? { label, labelKey: form.headingKey, url, external: false }
      : { label, url, external: false };
    return { form, link };
  }
  return null;
}

/**
 * The footer's columns: `footer` in `_site.yaml`, else derived from the content and the primary
 * form (`primaryFormLinkOf`); then the developers' links.
 */
export function footerColumnsOf(site: Site, primaryForm: MenuLink | null): MenuColumn[] {
  const outline = outlineOf(site);
  return [
    ...(outline.configuredFooter ?? defaultFooterColumns(site, outline.headerLinks, primaryForm)),
    { title: 'Developers and agents', titleKey: 'footerDevelopers', links: DEVELOPER_LINKS },
  ];
}

/** The pages a company's visitors look for at the foot of any page, in this order, when they exist. */
export const COMPANY_PAGES: readonly string[] = [
  '/pricing',
  '/about',
  '/contact',
  '/careers',
  '/security',
  '/privacy',
  '/terms',
];

/** Frontdoor's own pages for developers and agents, on every site. */
const DEVELOPER_LINKS: MenuLink[] = [
  { label: 'Developers', labelKey: 'developers', url: '/developers', external: false },
  { label: 'API documentation', labelKey: 'apiDocumentation', url: '/docs', external: false },
  { label: 'OpenAPI contract', labelKey: 'openApiContract', url: '/openapi.json', external: false },
  { label: 'llms.txt', url: '/llms.txt', external: false },
  { label: 'Sitemap', labelKey: 'sitemap', url: '/sitemap.xml', external: false },
];

function pageLink(page: Page): MenuLink {
  return { label: shortTitleOf(page), url: page.url, external: false, page };
}

/** Whether a page sits in a language folder of the site (`/de/…`, the folder naming its language). */
function inLanguageFolder(page: Page): boolean {
  const folder = folderLanguage(page.sourcePath);
  return folder !== null && primaryLanguage(folder) === primaryLanguage(page.lang);
}

/**
 * Menu links as a page in `lang` shows them: a link named after a page leads to that page's
 * translation in `lang` when the site has one (`/pricing` → `/de/pricing`, "Preise"); the others as
 * they are (a page the site has only in one language is still worth its link).
 */
export function linksInLanguage(site: Site, links: readonly MenuLink[], lang: string): MenuLink[] {
  const wanted = primaryLanguage(lang);
  return links.map((link) => {
    if (link.page === undefined || primaryLanguage(link.page.lang) === wanted) return link;
    const copy = translationsOf(site, link.page).find((page) => primaryLanguage(page.lang) === wanted);
    return copy ? { ...link, label: shortTitleOf(copy), url: copy.url, page: copy } : link;
  });
}

/** The home page of a page in a language folder whose index speaks that language (`/de/`), else `/`. */
export function languageHomeOf(site: Site, path: string): string {
  const segments = path.split('/').filter((segment) => segment !== '');
  const home = segments.length > 0 ? site.byUrl.get(`/${segments[0]}/`) : undefined;
  return home !== undefined && inLanguageFolder(home) ? home.url : '/';
}

/** A configured link: a site path takes the linked page's short title when it has no label. */
function menuLink(site: Site, link: NavLink): MenuLink {
  if (!link.url.startsWith('/')) return { label: link.label || link.url, url: link.url, external: true };
  const path = link.url.split(/[?#]/)[0]!;
  const page = site.byUrl.get(path) ?? site.byUrl.get(path.endsWith('/') ? path.slice(0, -1) : `${path}/`);
  // Named by the site: as written on every page. Named after its page: that page's translation.
  if (link.label || !page) return { label: link.label || path, url: link.url, external: false };
  return {
    label: shortTitleOf(page),
    url: link.url,
    external: false,
    ...(link.url === page.url ? { page } : {}),
  };
}

/** The page at a company path, as a file (`/about`) or a folder (`/about/`). */
function companyPage(site: Site, path: string): Page | undefined {
  return site.byUrl.get(path) ?? site.byUrl.get(`${path}/`);
}

/**
 * A site that marks no page `nav`: its top-level sections (folders) and pages, but not the home,
 * the legal and company pages the footer lists, nor form pages (the header's button leads there).
 */
function topLevelPages(site: Site): Page[] {
  const footerOnly = new Set(['/privacy', '/terms', '/about', '/contact', '/careers']);
  return site.pages
    .filter((page) => {
      // A language folder's index (`/de/`) is the language switch's link, not a section.
      if (page.url === '/' || page.form || inLanguageFolder(page)) return false;
      const trimmed = page.url.endsWith('/') ? page.url.slice(0, -1) : page.url;
      return trimmed.lastIndexOf('/') === 0 && !footerOnly.has(trimmed);
    })
    .sort(compareByOrder)
    .slice(0, MAX_DERIVED_HEADER_LINKS);
}

/** More than this does not fit one row of a laptop's header. */
const MAX_DERIVED_HEADER_LINKS = 6;

function defaultFooterColumns(
  site: Site,
  headerLinks: MenuLink[],
  primaryForm: MenuLink | null,
): MenuColumn[] {
  const explore: MenuLink[] = [
    ...headerLinks,
    ...(primaryForm ? [primaryForm] : []),
    { label: 'Search', labelKey: 'search', url: '/search', external: false },
  ];
  const shown = new Set(explore.map((link) => link.url.replace(/\/$/, '')));
  const company = COMPANY_PAGES.flatMap((path) => {
    const page = companyPage(site, path);
    return page && !shown.has(path) ? [pageLink(page)] : [];
  });
  return [
    { title: 'Explore', titleKey: 'footerExplore', links: explore },
    ...(company.length > 0 ? [{ title: 'Company', titleKey: 'footerCompany' as const, links: company }] : []),
  ];
}
