/**
 * The pages that answer a search or a miss: /search with its server-rendered results, the 404
 * page (its box filled from the path, the closest pages offered) and any other HTML error. They
 * speak the asker's language where the content pages speak their own.
 */
import { encodePagePath, type Site } from '../content/index.js';
import type { ErrorBody } from '../contract/index.js';
import { formatMessage, messagesFor, primaryLanguage } from '../language/index.js';
import { renderLayout } from './layout.js';
import { navigationOf, shortTitleOf } from './paths.js';
import type { SiteView } from './pages.js';
import { escapeHtml } from '../text/index.js';

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
  /** The language the page speaks (the asker's, askerLanguage); null or absent: the site's. */
  lang?: string | null;
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
  const lang = askerPageLanguage(view.site, outcome.lang);
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
 * `lang`: the asker's language (askerLanguage: the folder asked for, Accept-Language, …), else
 * the site's.
 */
export function renderNotFoundPage(
  view: SiteView,
  path: string,
  closest: readonly ClosestPage[] = [],
  lang: string | null = null,
): string {
  const suggestions = navigationOf(view.site);
  const query = notFoundQuery(path);
  lang = askerPageLanguage(view.site, lang);
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

/**
 * The `<html lang>` of a page written for an asker: their language (a primary subtag), as the
 * site writes it when it is the site's own ("en" on an `en-GB` site stays `en-GB`); none: the site's.
 */
function askerPageLanguage(site: Site, asker: string | null | undefined): string {
  const own = siteLanguageOf(site);
  if (!asker || primaryLanguage(own) === primaryLanguage(asker)) return own;
  return asker;
}

/**
 * Any other error answered as HTML (a form post that was too large, a server failure), its
 * headings in the asker's language (`lang`, as the 404 page's); the message and resolution are the
 * error envelope's, written for every client.
 */
export function renderErrorPage(
  view: SiteView,
  path: string,
  status: number,
  error: ErrorBody,
  lang: string | null = null,
): string {
  lang = askerPageLanguage(view.site, lang);
  const words = messagesFor(lang);
  const title = status >= 500 ? words.errorServerTitle : words.errorRequestTitle;
  const body = [
    '<section class="container not-found" aria-labelledby="error-title">',
    `<p class="code">${escapeHtml(formatMessage(words.errorCode, { status }))}</p>`,
    `<h1 id="error-title">${escapeHtml(title)}</h1>`,
    `<p class="lead">${escapeHtml(error.message)}</p>`,
    `<p>${escapeHtml(error.resolution)}</p>`,
    `<p><a href="/">${escapeHtml(words.goHome)}</a></p>`,
    '</section>',
  ].join('');
  return renderLayout({
    ...view,
    title,
    description: error.message,
    canonicalPath: path,
    lang,
    bare: true,
    bodyHtml: body,
    robots: 'noindex',
  });
}
