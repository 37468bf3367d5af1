import { encodePagePath, htmlOf, type Page, type Site } from '../content/index.js';
import type { ErrorBody } from '../contract/index.js';
import {
  DEFAULT_FORM_CATALOG,
  FORMS,
  type FormCatalog,
  renderConfirmation,
  renderFormSection,
  type FormDescriptor,
  type FormState,
} from './forms.js';
import { folderLanguage, formatMessage, messagesFor } from '../language/index.js';
import { menuLabel, renderLayout, type PageKind } from './layout.js';
import { brandFileUrl } from './brand.js';
import {
  childrenOf,
  markdownPathOf,
  navigationOf,
  primaryFormOf,
  shortTitleOf,
  type MenuLink,
} from './paths.js';
import { escapeHtml } from '../text/index.js';

/** What every template needs: the content and the public base URL for absolute links. */
export interface SiteView {
  site: Site;
  publicBaseUrl: string;
  /** The site's forms by key (default: the seed's two). */
  forms?: FormCatalog;
}

/** The forms a page may carry: the site's configured ones, else the seed's. */
export function formsOf(view: Pick<SiteView, 'forms'>): FormCatalog {
  return view.forms ?? DEFAULT_FORM_CATALOG;
}

/** A form placed on the page being rendered, with the state of a failed no-JS submission. */
export interface PageForm {
  form: FormDescriptor;
  state?: FormState;
}

/**
 * On narrow screens a form beside the text comes after it, and a form placed after a page's text
 * is at its end on every screen (the suggestion form began 7,259 px down a 9,062 px page on a
 * phone): this link at the top leads straight to it.
 */
function jumpToForm(form: FormDescriptor): string {
  const always = form.placement === 'after' ? ' jump-to-form-after' : '';
  const text = form.placement === 'after' ? `${form.texts.heading} ↓` : 'Go to the form';
  return `<p class="jump-to-form${always}"><a class="button button-primary" href="#${form.anchor}">${escapeHtml(text)}</a></p>`;
}

function isDocumentation(url: string): boolean {
  return url === '/docs' || url === '/docs/' || url.startsWith('/docs/');
}

function kindOf(view: SiteView, page: Page, hasChildren: boolean): PageKind {
  if (isDocumentation(page.url)) return 'TechArticle';
  const formPageKind = page.form ? (formsOf(view).get(page.form)?.pageKind ?? null) : null;
  if (formPageKind) return formPageKind;
  if (page.url !== '/' && page.url.endsWith('/') && hasChildren) return 'CollectionPage';
  return 'WebPage';
}

function renderCards(pages: readonly Page[], headingLevel: 'h2' | 'h3'): string {
  const cards = pages.map(
    (page) =>
      `<li class="card"><${headingLevel} class="card-title"><a href="${escapeHtml(encodePagePath(page.url))}">${escapeHtml(
        page.title,
      )}</a></${headingLevel}>` +
      (page.description ? `<p>${escapeHtml(page.description)}</p>` : '') +
      '<span class="card-more" aria-hidden="true">Read more →</span></li>',
  );
  return `<ul class="cards">${cards.join('')}</ul>`;
}

function formSection(view: SiteView, page: Pick<Page, 'url'>, form: PageForm): string {
  return renderFormSection(form.form, {
    pagePath: page.url,
    salesEmail: view.site.info.salesEmail,
    ...(form.state ? { state: form.state } : {}),
  });
}

/** The page's form as the content asks for it (front matter `form`), with a submission's state. */
function formOf(view: SiteView, page: Page, state?: FormState): PageForm | null {
  if (!page.form) return null;
  // A key naming none of the site's forms shows no form (`frontdoor check` names the page).
  const form = formsOf(view).get(page.form);
  if (!form) return null;
  return state ? { form, state } : { form };
}

/** The home hero's illustration, a picture the brand names from the content folder. */
function heroArt(site: Site): string {
  const hero = site.info.brand.hero;
  if (hero === null) return '';
  return `<img class="hero-art" src="${escapeHtml(brandFileUrl(hero.file))}" alt="${escapeHtml(hero.alt)}" decoding="async">`;
}

/**
 * The home page's closing call to the primary form: the seed's demo request in its own words,
 * another form with its heading and introduction; none without a form to lead to.
 */
function homeClosing(view: SiteView, primary: PrimaryForm | null): string {
  if (primary === null) return '';
  const { form, link, label } = primary;
  const [title, lead] =
    form === FORMS.demo
      ? [
          `See ${escapeHtml(view.site.info.name)} in action`,
          'Tell us about your team and we will arrange a demo around the way you work.',
        ]
      : [form.texts.heading, form.texts.intro];
  return `<section class="section section-alt" aria-labelledby="closing-title"><div class="container"><h2 id="closing-title">${title}</h2>${
    lead ? `<p class="lead">${lead}</p>` : ''
  }<a class="button button-primary" href="${escapeHtml(encodePagePath(link.url))}">${escapeHtml(label)}</a></div></section>`;
}

/** The primary form (primaryFormOf) with its link's words in the page's language. */
interface PrimaryForm {
  form: FormDescriptor;
  link: MenuLink;
  label: string;
}

function renderHome(view: SiteView, page: Page, form: PageForm | null): string {
  const { site } = view;
  const found = primaryFormOf(site, formsOf(view));
  const primary: PrimaryForm | null = found
    ? { ...found, label: menuLabel(found.link, messagesFor(page.lang)) }
    : null;
  const sections = navigationOf(site);
  const explore = sections[0];
  const hero = [
    `<section class="hero" aria-labelledby="hero-title"><div class="container hero-inner${
      site.info.brand.hero ? ' has-art' : ''
    }"><div class="hero-text">`,
    site.info.tagline ? `<p class="hero-eyebrow">${escapeHtml(site.info.tagline)}</p>` : '',
    `<h1 id="hero-title">${escapeHtml(page.title)}</h1>`,
    page.description ? `<p class="lead">${escapeHtml(page.description)}</p>` : '',
    '<div class="hero-actions">',
    primary
      ? `<a class="button button-primary" href="${escapeHtml(encodePagePath(primary.link.url))}">${escapeHtml(primary.label)}</a>`
      : '',
    explore
      ? `<a class="button button-secondary" href="${escapeHtml(encodePagePath(explore.url))}">${escapeHtml(
          explore.title,
        )}</a>`
      : '',
    '</div></div>',
    heroArt(site),
    '</div></section>',
  ].join('');
  const cards =
    sections.length > 0
      ? `<section class="section section-alt" aria-labelledby="explore-title"><div class="container"><h2 id="explore-title" class="section-title">Explore ${escapeHtml(
          site.info.name,
        )}</h2>${renderCards(sections, 'h3')}</div></section>`
      : '';
  const html = htmlOf(page);
  const body =
    html.trim() !== ''
      ? `<div class="container article-grid"><article class="prose">${html}</article></div>`
      : '';
  const closing = form
    ? `<div class="container">${formSection(view, page, form)}</div>`
    : homeClosing(view, primary);
  return renderLayout({
    ...view,
    title: page.title,
    description: page.description,
    canonicalPath: page.url,
    lang: page.lang,
    bare: true,
    bodyHtml: hero + cards + body + closing,
    kind: kindOf(view, page, false),
    markdownPath: markdownPathOf(page.url),
    datePublished: page.date,
    dateModified: page.lastModified,
    scripts: form ? ['forms.js'] : [],
  });
}

/**
 * A content page: the layout around the page's HTML, the child pages as cards below it (section
 * indexes and pages with a folder of sub-pages), and the form the front matter names.
 */
export function renderContentPage(view: SiteView, page: Page, formState?: FormState): string {
  const form = formOf(view, page, formState);
  if (page.url === '/') return renderHome(view, page, form);
  const children = childrenOf(view.site, page);
  const listing =
    children.length > 0
      ? `<section class="section-children" aria-labelledby="children-title"><h2 id="children-title">In this section</h2>${renderCards(
          children,
          'h3',
        )}</section>`
      : '';
  const side = form?.form.placement === 'side' ? formSection(view, page, form) : '';
  // The page's own form comes before the list of its sub-pages: it is what the page asks of its reader.
  const after = (form && form.form.placement === 'after' ? formSection(view, page, form) : '') + listing;
  // A body that brings its own h1 is shown without the layout's page header (one h1 per page).
  const ownHeading = page.headings.some((heading) => heading.level === 1);
  const html = htmlOf(page);
  return renderLayout({
    ...view,
    title: page.title,
    description: page.description,
    canonicalPath: page.url,
    lang: page.lang,
    ...(ownHeading
      ? {
          bare: true,
          bodyHtml: `<div class="container article-grid${side ? ' has-side' : ''}"><div class="article-main"><article class="prose">${html}</article>${after}</div>${side ? `<div class="article-side">${side}</div>` : ''}</div>`,
        }
      : {
          bodyHtml: html,
          afterHtml: after,
          sideHtml: side,
          headerHtml: form && (side || form.form.placement === 'after') ? jumpToForm(form.form) : '',
        }),
    kind: kindOf(view, page, children.length > 0),
    headings: page.headings,
    markdownPath: markdownPathOf(page.url),
    datePublished: page.date,
    dateModified: page.lastModified,
    scripts: form ? ['forms.js'] : [],
  });
}

/**
 * The page the site serves for a form no content page carries (the demo request form at /demo),
 * or, for a form without one, a stand-alone page at `path` (a re-render after a no-JS post whose
 * page is gone).
 */
export function renderFormFallbackPage(
  view: SiteView,
  form: FormDescriptor,
  path: string,
  formState?: FormState,
): string {
  const pageForm: PageForm = formState ? { form, state: formState } : { form };
  const builtIn = form.builtInPage;
  if (builtIn)
    return renderLayout({
      ...view,
      title: builtIn.title,
      description: builtIn.description(view.site.info.name),
      canonicalPath: builtIn.path,
      bodyHtml: `<p>${builtIn.lead}</p>`,
      sideHtml: formSection(view, { url: builtIn.path }, pageForm),
      headerHtml: jumpToForm(form),
      kind: form.pageKind ?? 'WebPage',
      scripts: ['forms.js'],
    });
  return renderLayout({
    ...view,
    title: form.texts.standaloneTitle,
    description: form.texts.standaloneDescription(view.site.info.name),
    canonicalPath: path,
    bodyHtml: '',
    afterHtml: formSection(view, { url: path }, pageForm),
    robots: 'noindex',
    scripts: ['forms.js'],
  });
}

export interface ConfirmationOptions {
  mailto: boolean;
  /** The page the form was sent from, to link back to. */
  from: Page | null;
}

/** The page a successful no-JS post is redirected to. */
export function renderConfirmationPage(
  view: SiteView,
  form: FormDescriptor,
  path: string,
  options: ConfirmationOptions,
): string {
  return renderLayout({
    ...view,
    title: form.texts.confirmationTitle,
    description: form.texts.confirmationDescription,
    canonicalPath: path,
    bare: true,
    bodyHtml: `<section class="container confirmation">${renderConfirmation(form, {
      mailto: options.mailto,
      salesEmail: view.site.info.salesEmail,
      backPath: options.from?.url ?? null,
      backTitle: options.from ? shortTitleOf(options.from) : null,
      headingLevel: 1,
    })}</section>`,
    robots: 'noindex',
  });
}

/** One search hit as the search page shows it. */
export interface SearchHit {
  title: string;
  /** Link target: a site path when the result is on this site, else the absolute URL. */
  href: string;
  /** Shown under the title. */
  displayUrl: string;
  snippet: string;
  /** UTF-16 ranges of `snippet` to mark. */
  highlights: readonly { start: number; end: number }[];
  /** The page's other matching sections (the first is the page link itself). */
  sections?: readonly { title: string; href: string; snippet: string; highlights: SearchHit['highlights'] }[];
}

export interface SearchOutcome {
  query: string;
  /** The summary line of the answer, or the reason there is none. */
  status: string;
  /** "Showing results for “…”" when the search corrected the query. */
  correction?: string;
  hits: readonly SearchHit[];
}

function renderSnippet(text: string, highlights: SearchHit['highlights']): string {
  let html = '';
  let position = 0;
  for (const { start, end } of [...highlights].sort((a, b) => a.start - b.start)) {
    if (start < position || end <= start || end > text.length) continue;
    html += escapeHtml(text.slice(position, start)) + `<mark>${escapeHtml(text.slice(start, end))}</mark>`;
    position = end;
  }
  return html + escapeHtml(text.slice(position));
}

export function renderSearchHits(hits: readonly SearchHit[]): string {
  return hits
    .map((hit) => {
      const sections = (hit.sections ?? [])
        .map(
          (section) =>
            `<li><a class="result-section" href="${escapeHtml(section.href)}">` +
            `<span class="result-section-title">${escapeHtml(section.title)}</span>` +
            `<span class="result-snippet">${renderSnippet(section.snippet, section.highlights)}</span></a></li>`,
        )
        .join('');
      return (
        `<li class="result"><a class="result-link" href="${escapeHtml(hit.href)}">` +
        `<span class="result-title">${escapeHtml(hit.title)}</span>` +
        `<span class="result-url">${escapeHtml(hit.displayUrl)}</span>` +
        `<span class="result-snippet">${renderSnippet(hit.snippet, hit.highlights)}</span></a>` +
        (sections ? `<ul class="result-sections">${sections}</ul>` : '') +
        '</li>'
      );
    })
    .join('');
}

/** /search: the form, and the results rendered on the server (the page works without JavaScript). */
export function renderSearchPage(view: SiteView, outcome: SearchOutcome): string {
  const lang = siteLanguageOf(view.site);
  const words = messagesFor(lang);
  const body = [
    '<div class="page-header"><div class="container">',
    `<h1 id="search-title">${escapeHtml(words.search)}</h1>`,
    `<form class="search-page-form" role="search" aria-label="${escapeHtml(words.searchThisSite)}" action="/search" method="get" data-search-page>`,
    `<label class="visually-hidden" for="search-page-input">${escapeHtml(words.searchQuery)}</label>`,
    `<input id="search-page-input" class="search-input" type="search" name="q" value="${escapeHtml(
      outcome.query,
    )}" maxlength="1000" required autocomplete="off" spellcheck="false" placeholder="${escapeHtml(words.searchPagePlaceholder)}">`,
    `<button class="button button-primary" type="submit">${escapeHtml(words.search)}</button>`,
    '</form>',
    '</div></div>',
    '<div class="container section search-page" data-search-results>',
    `<p class="results-status" role="status" aria-live="polite" data-search-status>${escapeHtml(outcome.status)}</p>`,
    `<p class="results-correction" data-search-correction${outcome.correction ? '' : ' hidden'}>${escapeHtml(outcome.correction ?? '')}</p>`,
    `<ol class="results-list" data-search-list>${renderSearchHits(outcome.hits)}</ol>`,
    '</div>',
  ].join('');
  return renderLayout({
    ...view,
    title: outcome.query ? formatMessage(words.searchTitle, { query: outcome.query }) : words.search,
    description: formatMessage(words.searchDescription, { site: view.site.info.name }),
    canonicalPath: '/search',
    lang,
    bare: true,
    bodyHtml: body,
    kind: 'SearchResultsPage',
    ...(outcome.query ? { robots: 'noindex' } : {}),
    headerSearch: false,
  });
}

/**
 * What a visitor was probably looking for at a path that does not exist: the words of its last
 * segment ("/prcing" → "prcing", "/docs/how-to/export_to-word.html" → "export to word"), for the
 * 404 page's search box and its closest pages. Empty when the path has no word.
 */
export function notFoundQuery(path: string): string {
  const segments = path.split('/').filter((segment) => segment.trim() !== '');
  const last = (segments.at(-1) ?? '').replace(/\.(?:html?|php|aspx?)$/i, '');
  return last
    .split(/[-_.+~\s]+/u)
    .filter((word) => word !== '')
    .join(' ')
    .slice(0, 200);
}

/** A page the 404 page offers as what the visitor may have meant. */
export interface ClosestPage {
  url: string;
  title: string;
}

/**
 * The HTML 404 page; `path` is the (decoded) path asked for. Its search box holds the words of
 * the path (notFoundQuery), and `closest` are the pages a search for them finds ("did you mean").
 */
export function renderNotFoundPage(
  view: SiteView,
  path: string,
  closest: readonly ClosestPage[] = [],
): string {
  const suggestions = navigationOf(view.site);
  const query = notFoundQuery(path);
  // The language of the folder asked for (/de/…), else the site's.
  const lang = folderLanguage(path.replace(/^\/+/, '')) ?? siteLanguageOf(view.site);
  const words = messagesFor(lang);
  const didYouMean =
    closest.length > 0
      ? `<h2 id="closest-title">${escapeHtml(words.didYouMean)}</h2><ul class="closest-pages" aria-labelledby="closest-title">${closest
          .map(
            (page) =>
              `<li><a href="${escapeHtml(encodePagePath(page.url))}">${escapeHtml(page.title)}</a> <code>${escapeHtml(
                page.url,
              )}</code></li>`,
          )
          .join('')}</ul>`
      : '';
  const body = [
    '<section class="container not-found" aria-labelledby="not-found-title">',
    `<p class="code">${escapeHtml(formatMessage(words.errorCode, { status: 404 }))}</p>`,
    `<h1 id="not-found-title">${escapeHtml(words.notFoundTitle)}</h1>`,
    // The message is escaped first, then its placeholder becomes the (escaped) path in <code>.
    `<p class="lead">${formatMessage(escapeHtml(words.notFoundLead), { path: `<code>${escapeHtml(path)}</code>` })}</p>`,
    `<form class="search-page-form" role="search" aria-label="${escapeHtml(words.searchThisSite)}" action="/search" method="get">`,
    `<label class="visually-hidden" for="not-found-search">${escapeHtml(words.searchTheSite)}</label>`,
    `<input id="not-found-search" class="search-input" type="search" name="q" maxlength="1000" required placeholder="${escapeHtml(words.searchTheSite)}" value="${escapeHtml(query)}">`,
    `<button class="button button-primary" type="submit">${escapeHtml(words.search)}</button>`,
    '</form>',
    didYouMean,
    suggestions.length > 0
      ? `<h2>${escapeHtml(words.popularPages)}</h2><ul class="cards">${suggestions
          .map(
            (page) =>
              `<li class="card"><h3 class="card-title"><a href="${escapeHtml(encodePagePath(page.url))}">${escapeHtml(
                shortTitleOf(page),
              )}</a></h3>${page.description ? `<p>${escapeHtml(page.description)}</p>` : ''}</li>`,
          )
          .join('')}</ul>`
      : '',
    `<p><a href="/">${escapeHtml(words.goHome)}</a></p>`,
    '</section>',
  ].join('');
  return renderLayout({
    ...view,
    title: words.notFoundTitle,
    description: formatMessage(words.notFoundDescription, { path }),
    canonicalPath: path,
    lang,
    bare: true,
    bodyHtml: body,
    robots: 'noindex',
    headerSearch: false,
  });
}

/** The language of the site's own pages (search, errors): `_site.yaml` `language`, else English. */
function siteLanguageOf(site: Site): string {
  return site.info.language ?? 'en';
}

/** Any other error answered as HTML (a form post that was too large, a server failure). */
export function renderErrorPage(view: SiteView, path: string, status: number, error: ErrorBody): string {
  const title = status >= 500 ? 'Something went wrong' : 'The request could not be handled';
  const body = [
    '<section class="container not-found" aria-labelledby="error-title">',
    `<p class="code">Error ${status}</p>`,
    `<h1 id="error-title">${escapeHtml(title)}</h1>`,
    `<p class="lead">${escapeHtml(error.message)}</p>`,
    `<p>${escapeHtml(error.resolution)}</p>`,
    '<p><a href="/">Go to the home page</a></p>',
    '</section>',
  ].join('');
  return renderLayout({
    ...view,
    title,
    description: error.message,
    canonicalPath: path,
    bare: true,
    bodyHtml: body,
    robots: 'noindex',
  });
}
