import type { Heading, Site } from '../content/index.js';
import { escapeHtml, jsonForScript } from '../text/index.js';
import { assetUrl } from './assets.js';
import { absoluteUrl, encodePagePath, translationsOf, wrapTables } from '../content/index.js';
import { discoveryLinks } from '../discovery/index.js';
import {
  breadcrumbsOf,
  footerColumnsOf,
  headerLinksOf,
  languageHomeOf,
  linksInLanguage,
  primaryFormOf,
  type Crumb,
  type MenuLink,
} from './paths.js';
import { DEFAULT_FORM_CATALOG, formInLanguage, type FormCatalog, type FormDescriptor } from './forms.js';
import {
  BRAND_ICON,
  BRAND_STYLESHEET,
  brandAssetUrl,
  brandFileUrl,
  brandMarkHtml,
  logoAddress,
  themeColoursOf,
} from './brand.js';
import { messagesFor, type Messages } from '../language/index.js';
import { renderLanguageSwitch } from './language-switch.js';
import { scriptWordsBlock } from './script-words.js';

/** schema.org type of the page in its JSON-LD. */
export type PageKind =
  'WebPage' | 'TechArticle' | 'CollectionPage' | 'SearchResultsPage' | 'ContactPage' | 'AboutPage';

export interface LayoutOptions {
  site: Site;
  /** `config.publicBaseUrl`: absolute, no trailing slash. */
  publicBaseUrl: string;
  /** Plain text; escaped here. */
  title: string;
  /** Plain text; escaped here. */
  description: string;
  /**
   * Site path of the page (decoded, as in `Page.url`), starting with `/`; the canonical URL is the
   * base URL + this path, percent-encoded.
   */
  canonicalPath: string;
  /** The page's language (BCP 47), for `<html lang>`; default: the site's, else "en". */
  lang?: string;
  /**
   * Trusted HTML. By default it is the article body, shown under the standard page header
   * (breadcrumbs, the title as h1, the description as lead); with `bare` it is all of `<main>`.
   */
  bodyHtml: string;
  bare?: boolean;
  /** Trusted HTML placed below the article, in its column (section cards, forms). */
  afterHtml?: string;
  /** Trusted HTML beside the article on wide screens and below it on narrow ones (the demo form). */
  sideHtml?: string;
  /** Trusted HTML under the lead in the page header (a link down to the form on narrow screens). */
  headerHtml?: string;
  kind?: PageKind;
  /** Headings of the body: level-2 headings with anchors make the "On this page" list. */
  headings?: readonly Heading[];
  /** Path (decoded) of the page's Markdown twin, announced as `rel="alternate" type="text/markdown"`. */
  markdownPath?: string;
  /** YYYY-MM-DD */
  datePublished?: string | null;
  dateModified?: string | null;
  /** Extra browser modules from the assets folder, e.g. `forms.js`. */
  scripts?: readonly string[];
  /** `noindex` for pages that are not content (search results, errors). */
  robots?: string;
  /** The header search box; off on the search page, which has its own. */
  headerSearch?: boolean;
  /** The site's forms (default: the seed's): the header's button leads to the primary one. */
  forms?: FormCatalog;
}

/** `<link rel="alternate" hreflang>` to each translation of a content page (itself included). */
function translationLinks(options: LayoutOptions): string[] {
  const page = options.lang === undefined ? undefined : options.site.byUrl.get(options.canonicalPath);
  if (!page) return [];
  return translationsOf(options.site, page).map(
    (copy) =>
      `<link rel="alternate" hreflang="${escapeHtml(copy.lang)}" href="${escapeHtml(
        absoluteUrl(options.publicBaseUrl, copy.url),
      )}">`,
  );
}

/** The page's language: its own, else the site's, else English. */
const languageOf = (options: LayoutOptions): string => options.lang ?? options.site.info.language ?? 'en';

/** `og:locale` (language_TERRITORY) of a BCP 47 tag: "pt-BR" → "pt_BR", "de" → "de_DE" (its likely region). */
function ogLocale(tag: string): string {
  try {
    const locale = new Intl.Locale(tag).maximize();
    return locale.region ? `${locale.language}_${locale.region}` : locale.language;
  } catch {
    return tag;
  }
}

/** The one HTML layout shared by every page of the site, the discovery pages included. */
export function renderLayout(options: LayoutOptions): string {
  const { site, publicBaseUrl, canonicalPath } = options;
  const lang = languageOf(options);
  const words = messagesFor(lang);
  const canonical = absoluteUrl(publicBaseUrl, canonicalPath);
  const isHome = canonicalPath === '/';
  const fullTitle = isHome ? `${site.info.name} | ${options.title}` : `${options.title} | ${site.info.name}`;
  const crumbs = breadcrumbsOf(site, canonicalPath, options.title, words.home);
  const kind = options.kind ?? 'WebPage';
  const scripts = ['search.js', ...(options.scripts ?? [])];
  const primaryForm = primaryFormIn(site, options.forms ?? DEFAULT_FORM_CATALOG, lang)?.link ?? null;

  const head = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(fullTitle)}</title>`,
    `<meta name="description" content="${escapeHtml(options.description)}">`,
    options.robots ? `<meta name="robots" content="${escapeHtml(options.robots)}">` : '',
    `<link rel="canonical" href="${escapeHtml(canonical)}">`,
    '<meta name="color-scheme" content="light dark">',
    ...themeColourTags(site),
    faviconLink(site),
    `<link rel="stylesheet" href="${assetUrl('site.css')}">`,
    `<link rel="stylesheet" href="${escapeHtml(brandAssetUrl(site, BRAND_STYLESHEET))}">`,
    // The scripts' own words in the page's language (words.js reads them).
    scriptWordsBlock(scripts, lang),
    ...scripts.map((name) => `<script type="module" src="${assetUrl(name)}"></script>`),
    ...translationLinks(options),
    options.markdownPath
      ? `<link rel="alternate" type="text/markdown" href="${escapeHtml(encodePagePath(options.markdownPath))}">`
      : '',
    // After the page's own Markdown twin, so a client taking the first text/markdown alternate gets the page.
    ...discoveryLinks(publicBaseUrl).map(
      (link) =>
        `<link rel="${escapeHtml(link.rel)}" href="${escapeHtml(link.href)}" type="${escapeHtml(
          link.type,
        )}" title="${escapeHtml(link.title)}">`,
    ),
    `<meta property="og:type" content="${kind === 'TechArticle' ? 'article' : 'website'}">`,
    `<meta property="og:site_name" content="${escapeHtml(site.info.name)}">`,
    `<meta property="og:title" content="${escapeHtml(options.title)}">`,
    `<meta property="og:description" content="${escapeHtml(options.description)}">`,
    `<meta property="og:url" content="${escapeHtml(canonical)}">`,
    `<meta property="og:locale" content="${escapeHtml(ogLocale(lang))}">`,
    ...socialImageTags(site, publicBaseUrl),
    `<script type="application/ld+json">${jsonForScript(structuredData(options, canonical, crumbs))}</script>`,
  ].filter((line) => line !== '');

  const main = options.bare ? options.bodyHtml : renderArticle(options, crumbs);

  return [
    '<!doctype html>',
    `<html lang="${escapeHtml(lang)}">`,
    '<head>',
    ...head,
    '</head>',
    '<body>',
    `<a class="skip-link" href="#main">${escapeHtml(words.skipToContent)}</a>`,
    renderHeader(site, canonicalPath, options.headerSearch ?? true, lang, primaryForm),
    `<main id="main" tabindex="-1">${wrapTables(main)}</main>`,
    renderFooter(site, lang, primaryForm),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function renderArticle(options: LayoutOptions, crumbs: Crumb[]): string {
  const lang = languageOf(options);
  const words = messagesFor(lang);
  const toc = (options.headings ?? []).filter((heading) => heading.level === 2 && heading.anchor !== '');
  const tocHtml =
    toc.length >= 3 && !options.sideHtml
      ? `<nav class="toc" aria-labelledby="toc-title"><h2 id="toc-title" class="toc-title">${escapeHtml(words.onThisPage)}</h2><ol>${toc
          .map((h) => `<li><a href="#${escapeHtml(h.anchor)}">${escapeHtml(h.text)}</a></li>`)
          .join('')}</ol></nav>`
      : '';
  const updated = options.dateModified
    ? `<p class="page-meta">${escapeHtml(words.updated)} <time datetime="${escapeHtml(options.dateModified)}">${escapeHtml(
        formatDate(options.dateModified, lang),
      )}</time></p>`
    : '';
  return [
    '<div class="page-header"><div class="container">',
    renderBreadcrumbs(crumbs, words),
    `<h1>${escapeHtml(options.title)}</h1>`,
    options.description ? `<p class="lead">${escapeHtml(options.description)}</p>` : '',
    options.headerHtml ?? '',
    updated,
    '</div></div>',
    `<div class="container article-grid${tocHtml ? ' has-toc' : ''}${options.sideHtml ? ' has-side' : ''}">`,
    tocHtml ? `<aside class="article-aside">${tocHtml}</aside>` : '',
    `<div class="article-main"><article class="prose">${options.bodyHtml}</article>${options.afterHtml ?? ''}</div>`,
    options.sideHtml ? `<div class="article-side">${options.sideHtml}</div>` : '',
    '</div>',
  ].join('');
}

function renderBreadcrumbs(crumbs: Crumb[], words: Messages): string {
  if (crumbs.length < 2) return '';
  const items = crumbs.map((crumb, index) =>
    index === crumbs.length - 1
      ? `<li><span aria-current="page">${escapeHtml(crumb.name)}</span></li>`
      : `<li><a href="${escapeHtml(encodePagePath(crumb.path))}">${escapeHtml(crumb.name)}</a></li>`,
  );
  return `<nav class="breadcrumbs" aria-label="${escapeHtml(words.breadcrumb)}"><ol>${items.join('')}</ol></nav>`;
}

function isCurrentSection(navUrl: string, path: string): boolean {
  if (navUrl === path) return true;
  if (navUrl === '/') return false;
  const folder = navUrl.endsWith('/') ? navUrl : `${navUrl}/`;
  return path.startsWith(folder);
}

/**
 * The primary form (primaryFormOf) with its link named by the form's heading in the page's
 * language (its translation there, else as written; the seed's demo request by the catalogue).
 */
export function primaryFormIn(
  site: Site,
  forms: FormCatalog,
  lang: string | null | undefined,
): { form: FormDescriptor; link: MenuLink } | null {
  const found = primaryFormOf(site, forms, lang ?? null);
  if (found === null) return null;
  const label = formInLanguage(found.form, lang).definition.words.heading;
  return { form: found.form, link: { ...found.link, label } };
}

/** A link's words: Frontdoor's own in the page's language, the site's as written. */
export function menuLabel(link: MenuLink, words: Messages): string {
  return link.labelKey ? words[link.labelKey] : link.label;
}

/**
 * A site link's href: its path percent-encoded as page URLs are, its `?query` and `#fragment` kept
 * as the site wrote them (`/pricing#plans` must not become `/pricing%23plans`).
 */
function siteLinkHref(url: string): string {
  const end = url.search(/[?#]/);
  return end === -1 ? encodePagePath(url) : encodePagePath(url.slice(0, end)) + url.slice(end);
}

function menuLinkHtml(link: MenuLink, path: string | null, words: Messages): string {
  const href = escapeHtml(link.external ? link.url : siteLinkHref(link.url));
  const label = escapeHtml(menuLabel(link, words));
  if (path === null) return `<li><a href="${href}">${label}</a></li>`;
  const current = link.url === path ? ' aria-current="page"' : '';
  const section = !current && !link.external && isCurrentSection(link.url, path) ? ' class="is-section"' : '';
  return `<li><a href="${href}"${current}${section}>${label}</a></li>`;
}

function renderHeader(
  site: Site,
  path: string,
  withSearch: boolean,
  lang: string,
  primaryForm: MenuLink | null,
): string {
  const words = messagesFor(lang);
  // A derived menu leaves out the primary form's page: the button beside it already leads there
  // (a menu the site wrote in `navigation` is kept as written).
  const links = linksInLanguage(site, headerLinksOf(site), lang)
    .filter((link) => site.info.navigation || link.external || link.url !== primaryForm?.url)
    .map((link) => menuLinkHtml(link, path, words));
  const search = withSearch
    ? [
        `<form class="header-search" role="search" aria-label="${escapeHtml(words.siteSearch)}" action="/search" method="get" data-live-search>`,
        `<label class="visually-hidden" for="header-search-input">${escapeHtml(words.searchTheSite)}</label>`,
        `<input id="header-search-input" class="search-input" type="search" name="q" placeholder="${escapeHtml(words.searchPlaceholder)}" `,
        'autocomplete="off" spellcheck="false" maxlength="1000" required>',
        `<button class="search-submit" type="submit"><span class="visually-hidden">${escapeHtml(words.search)}</span>`,
        '<svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true" focusable="false">',
        '<path d="M8.5 3a5.5 5.5 0 1 0 3.3 9.9l3.7 3.6 1.2-1.2-3.6-3.7A5.5 5.5 0 0 0 8.5 3zm0 1.6a3.9 3.9 0 1 1 0 7.8 3.9 3.9 0 0 1 0-7.8z"/>',
        '</svg></button>',
        '<div class="live-results" data-live-results hidden></div>',
        '</form>',
      ].join('')
    : '';
  return [
    '<header class="site-header">',
    '<div class="container header-inner">',
    `<a class="brand" href="${escapeHtml(encodePagePath(languageHomeOf(site, path)))}">${brandMarkHtml(site, 'header')}</a>`,
    links.length > 0
      ? `<nav class="main-nav" aria-label="${escapeHtml(words.mainNavigation)}"><ul>${links.join('')}</ul></nav>`
      : '',
    search,
    primaryForm
      ? `<a class="button button-primary header-cta" href="${escapeHtml(encodePagePath(primaryForm.url))}"${
          primaryForm.url === path ? ' aria-current="page"' : ''
        }>${escapeHtml(menuLabel(primaryForm, words))}</a>`
      : '',
    renderLanguageSwitch(site, path, lang),
    '</div>',
    '</header>',
  ].join('');
}

function renderFooter(site: Site, lang: string, primaryForm: MenuLink | null): string {
  const words = messagesFor(lang);
  const { info } = site;
  const contact = [
    info.address ? `<p>${escapeHtml(info.address)}</p>` : '',
    info.contactEmail
      ? `<p><a href="mailto:${escapeHtml(info.contactEmail)}">${escapeHtml(info.contactEmail)}</a></p>`
      : '',
  ].join('');
  const columns = footerColumnsOf(site, primaryForm).map((column) => {
    const title = escapeHtml(column.titleKey ? words[column.titleKey] : column.title);
    const links = linksInLanguage(site, column.links, lang)
      .map((link) => menuLinkHtml(link, null, words))
      .join('');
    return `<nav class="footer-nav" aria-label="${title}"><h2 class="footer-title">${title}</h2><ul>${links}</ul></nav>`;
  });
  return [
    '<footer class="site-footer">',
    '<div class="container footer-grid">',
    `<div class="footer-about"><p class="footer-brand">${brandMarkHtml(site, 'footer')}</p>`,
    info.tagline ? `<p>${escapeHtml(info.tagline)}</p>` : '',
    contact,
    '</div>',
    ...columns,
    '</div>',
    `<div class="container footer-legal"><p>© ${escapeHtml(info.legalName || info.name)}</p></div>`,
    '</footer>',
  ].join('');
}

/** The browser's chrome colour for each scheme the page offers (`color-scheme: light dark`). */
function themeColourTags(site: Site): string[] {
  const { light, dark } = themeColoursOf(site);
  return [
    `<meta name="theme-color" media="(prefers-color-scheme: light)" content="${escapeHtml(light)}">`,
    `<meta name="theme-color" media="(prefers-color-scheme: dark)" content="${escapeHtml(dark)}">`,
  ];
}

function faviconLink(site: Site): string {
  const { favicon } = site.info.brand;
  if (favicon === null)
    return `<link rel="icon" href="${escapeHtml(brandAssetUrl(site, BRAND_ICON))}" type="image/svg+xml">`;
  const type = favicon.toLowerCase().endsWith('.svg') ? ' type="image/svg+xml"' : '';
  return `<link rel="icon" href="${escapeHtml(brandFileUrl(favicon))}"${type}>`;
}

/** Open Graph and X cards: the large card with the configured picture, else the plain one. */
function socialImageTags(site: Site, publicBaseUrl: string): string[] {
  const image = site.info.brand.socialImage;
  if (image === null) return ['<meta name="twitter:card" content="summary">'];
  const address = escapeHtml(absoluteUrl(publicBaseUrl, brandFileUrl(image.file)));
  return [
    `<meta property="og:image" content="${address}">`,
    image.alt ? `<meta property="og:image:alt" content="${escapeHtml(image.alt)}">` : '',
    '<meta name="twitter:card" content="summary_large_image">',
    `<meta name="twitter:image" content="${address}">`,
  ];
}

/**
 * "2026-10-14" → "14 October 2026" in English (fixed, independent of the server's locale); in
 * another language, as ICU writes a long date in it ("14. Oktober 2026", "2026年10月14日").
 */
function formatDate(isoDate: string, lang: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate);
  if (!match) return isoDate;
  if (!/^en(?:-|$)/i.test(lang)) {
    try {
      return new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' }).format(
        new Date(`${isoDate}T00:00:00Z`),
      );
    } catch {
      // A tag ICU cannot format in: the English form below.
    }
  }
  const months = [
    'January',
    'February',
    'March',
    'April',
    'May',
    'June',
    'July',
    'August',
    'September',
    'October',
    'November',
    'December',
  ];
  const month = months[Number(match[2]) - 1];
  return month ? `${Number(match[3])} ${month} ${match[1]}` : isoDate;
}

function structuredData(options: LayoutOptions, canonical: string, crumbs: Crumb[]): unknown {
  const { site, publicBaseUrl } = options;
  const { info } = site;
  const home = absoluteUrl(publicBaseUrl, '/');
  const organizationId = `${home}#organization`;
  const websiteId = `${home}#website`;
  const organization: Record<string, unknown> = {
    '@type': 'Organization',
    '@id': organizationId,
    name: info.name,
    url: home,
    logo: logoAddress(site, publicBaseUrl),
  };
  if (info.legalName) organization.legalName = info.legalName;
  if (info.description) organization.description = info.description;
  if (info.contactEmail) organization.email = info.contactEmail;
  if (info.address) organization.address = { '@type': 'PostalAddress', streetAddress: info.address };
  if (info.foundingYear) organization.foundingDate = String(info.foundingYear);
  if (info.salesEmail)
    organization.contactPoint = { '@type': 'ContactPoint', contactType: 'sales', email: info.salesEmail };
  if (info.sameAs.length > 0) organization.sameAs = info.sameAs;

  const website = {
    '@type': 'WebSite',
    '@id': websiteId,
    url: home,
    name: info.name,
    description: info.description || undefined,
    publisher: { '@id': organizationId },
    inLanguage: site.info.language ?? languageOf(options),
    potentialAction: {
      '@type': 'SearchAction',
      target: { '@type': 'EntryPoint', urlTemplate: `${absoluteUrl(publicBaseUrl, '/search')}?q={q}` },
      'query-input': 'required name=q',
    },
  };

  const kind = options.kind ?? 'WebPage';
  const page: Record<string, unknown> = {
    '@type': kind,
    '@id': `${canonical}#page`,
    url: canonical,
    name: options.title,
    description: options.description,
    inLanguage: languageOf(options),
    isPartOf: { '@id': websiteId },
    publisher: { '@id': organizationId },
  };
  if (kind === 'TechArticle') {
    page.headline = options.title;
    page.author = { '@id': organizationId };
  }
  if (options.datePublished) page.datePublished = options.datePublished;
  if (options.dateModified) page.dateModified = options.dateModified;
  if (options.canonicalPath === '/') page.about = { '@id': organizationId };
  if (crumbs.length >= 2) {
    page.breadcrumb = {
      '@type': 'BreadcrumbList',
      itemListElement: crumbs.map((crumb, index) => ({
        '@type': 'ListItem',
        position: index + 1,
        name: crumb.name,
        item: absoluteUrl(publicBaseUrl, crumb.path),
      })),
    };
  }
  return { '@context': 'https://schema.org', '@graph': [organization, website, page] };
}
