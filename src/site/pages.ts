import { encodePagePath, htmlOf, type Page, type Site } from '../content/index.js';
import {
  DEFAULT_FORM_CATALOG,
  FORMS,
  formInLanguage,
  type FormCatalog,
  renderConfirmation,
  renderFormSection,
  type FormDescriptor,
  type FormState,
} from './forms.js';
import { formatMessage, messagesFor, type Messages } from '../language/index.js';
import { menuLabel, primaryFormIn, renderLayout, type PageKind } from './layout.js';
import { brandFileUrl } from './brand.js';
import { childrenOf, markdownPathOf, navigationOf, shortTitleOf, type MenuLink } from './paths.js';
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

function renderCards(pages: readonly Page[], headingLevel: 'h2' | 'h3', words: Messages): string {
  const cards = pages.map(
    (page) =>
      `<li class="card"><${headingLevel} class="card-title"><a href="${escapeHtml(encodePagePath(page.url))}">${escapeHtml(
        page.title,
      )}</a></${headingLevel}>` +
      (page.description ? `<p>${escapeHtml(page.description)}</p>` : '') +
      `<span class="card-more" aria-hidden="true">${escapeHtml(words.readMore)}</span></li>`,
  );
  return `<ul class="cards">${cards.join('')}</ul>`;
}

function formSection(
  view: SiteView,
  page: Pick<Page, 'url'> & Partial<Pick<Page, 'lang'>>,
  form: PageForm,
): string {
  return renderFormSection(form.form, {
    pagePath: page.url,
    // A page's own language, else the site's (the built-in form pages have none of their own).
    lang: page.lang ?? view.site.info.language,
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
function homeClosing(
  view: SiteView,
  primary: PrimaryForm | null,
  words: Messages,
  lang: string | null,
): string {
  if (primary === null) return '';
  const { link, label } = primary;
  const form = formInLanguage(primary.form, lang);
  const [title, lead] =
    primary.form === FORMS.demo
      ? [
          escapeHtml(formatMessage(words.homeDemoTitle, { site: view.site.info.name })),
          escapeHtml(words.homeDemoLead),
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
  const words = messagesFor(page.lang);
  const found = primaryFormIn(site, formsOf(view), page.lang);
  const primary: PrimaryForm | null = found ? { ...found, label: menuLabel(found.link, words) } : null;
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
      ? `<section class="section section-alt" aria-labelledby="explore-title"><div class="container"><h2 id="explore-title" class="section-title">${escapeHtml(
          formatMessage(words.exploreSite, { site: site.info.name }),
        )}</h2>${renderCards(sections, 'h3', words)}</div></section>`
      : '';
  const html = htmlOf(page);
  const body =
    html.trim() !== ''
      ? `<div class="container article-grid"><article class="prose">${html}</article></div>`
      : '';
  const closing = form
    ? `<div class="container">${formSection(view, page, form)}</div>`
    : homeClosing(view, primary, words, page.lang);
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
      ? `<section class="section-children" aria-labelledby="children-title"><h2 id="children-title">${escapeHtml(messagesFor(page.lang).inThisSection)}</h2>${renderCards(
          children,
          'h3',
          messagesFor(page.lang),
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
  // These pages have no language of their own: the site's.
  const { builtInPage: builtIn, texts } = formInLanguage(form, view.site.info.language);
  if (builtIn)
    return renderLayout({
      ...view,
      title: builtIn.title,
      description: builtIn.description(view.site.info.name),
      canonicalPath: builtIn.path,
      bodyHtml: `<p>${escapeHtml(builtIn.lead)}</p>`,
      sideHtml: formSection(view, { url: builtIn.path }, pageForm),
      headerHtml: jumpToForm(form),
      kind: form.pageKind ?? 'WebPage',
      scripts: ['forms.js'],
    });
  return renderLayout({
    ...view,
    title: texts.standaloneTitle,
    description: texts.standaloneDescription(view.site.info.name),
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
  // In the language of the page the form was sent from, else the site's.
  const lang = options.from?.lang ?? view.site.info.language;
  const { texts } = formInLanguage(form, lang);
  return renderLayout({
    ...view,
    title: texts.confirmationTitle,
    description: texts.confirmationDescription,
    canonicalPath: path,
    ...(lang ? { lang } : {}),
    bare: true,
    bodyHtml: `<section class="container confirmation">${renderConfirmation(form, {
      mailto: options.mailto,
      salesEmail: view.site.info.salesEmail,
      backPath: options.from?.url ?? null,
      backTitle: options.from ? shortTitleOf(options.from) : null,
      headingLevel: 1,
      lang,
    })}</section>`,
    robots: 'noindex',
  });
}
