import {
  buildOpenApiDocument,
  DEFAULT_FORMS,
  dependencyTableMarkdown,
  dependentFields,
  REQUEST_DEMO,
  SUGGEST_DOCUMENT,
  type FormDefinition,
  type NlWebResponse,
} from '../contract/index.js';
import { absoluteUrl, type Page, type Site } from '../content/index.js';
import { readApiReference, type ApiReference, type OpenApiDocument } from './api-reference.js';
import { SITE_OWN_PATHS } from './paths.js';
import type { SitemapLimits } from './sitemap.js';

/** A page of this room rendered for people: the body, and what the layout needs around it. */
export interface HtmlPageParts {
  path: string;
  title: string;
  description: string;
  /** Trusted HTML of the article body (the layout adds the title and the description above it). */
  bodyHtml: string;
  /** `index` for a listing of pages, `reference` for a reference document. */
  kind: 'index' | 'reference';
}

/** Everything the discovery documents are generated from: the same values the server runs on. */
export interface DiscoveryInput {
  /** `config.publicBaseUrl`: absolute, no trailing slash. */
  publicBaseUrl: string;
  /** `config.bodyLimitBytes`, published in the contract. */
  bodyLimitBytes: number;
  site: Site;
  /**
   * Answers a query exactly as /ask does (the NLWeb room's `AskService.answer`), so the example
   * answers in the documents are real answers over the current content.
   */
  answerQuery: (text: string, maxResults: number) => NlWebResponse;
  /** Where a page's Markdown twin is served; llms.txt links to the twins when this is given. */
  markdownPathOf?: (pageUrl: string) => string;
  /** Wraps a page body in the site's layout; without it a minimal complete HTML document is made. */
  renderHtmlPage?: (parts: HtmlPageParts) => string;
  sitemapLimits?: Partial<SitemapLimits>;
  /**
   * False when the server runs beside a site served elsewhere (PAGES=off): the documents that
   * belong to a site's own pages (robots.txt, the sitemap, /docs and /developers) are then neither
   * served nor linked, and every page link points at the site's own page (default true).
   */
  servesPages?: boolean;
  /** `config.corsOrigins`, published in the contract. */
  corsOrigins?: readonly string[];
  /** The site's forms (default: the seed's two), published as operations. */
  forms?: readonly FormDefinition[];
}

export interface AskExample {
  query: string;
  maxResults: number;
  answer: NlWebResponse;
}

/** The input plus what every document derives from it, computed once. */
export interface DiscoveryModel extends DiscoveryInput {
  siteName: string;
  /** Host name used in identifiers (`urn:air:<host>:…`). */
  host: string;
  openApi: OpenApiDocument;
  reference: ApiReference;
  askExample: AskExample;
  at: (path: string) => string;
  /** Whether this server serves the document at `path` (see `servesPages`). */
  serves: (path: string) => boolean;
}

export const EXAMPLE_RESULTS = 2;

export function buildModel(input: DiscoveryInput): DiscoveryModel {
  const siteName = input.site.info.name || new URL(input.publicBaseUrl).host;
  const openApi = buildOpenApiDocument({
    publicBaseUrl: input.publicBaseUrl,
    bodyLimitBytes: input.bodyLimitBytes,
    siteName,
    ...(input.corsOrigins ? { corsOrigins: input.corsOrigins } : {}),
    ...(input.forms ? { forms: input.forms } : {}),
    ...(input.site.info.contactEmail ? { contactEmail: input.site.info.contactEmail } : {}),
  }) as unknown as OpenApiDocument;
  const query = exampleQuery(input.site, siteName);
  return {
    ...input,
    siteName,
    host: identifierHost(input.publicBaseUrl),
    openApi,
    reference: readApiReference(openApi),
    askExample: { query, maxResults: EXAMPLE_RESULTS, answer: input.answerQuery(query, EXAMPLE_RESULTS) },
    at: (path: string) => absoluteUrl(input.publicBaseUrl, path),
    serves: (path: string) => input.servesPages !== false || !SITE_OWN_PATHS.has(path),
  };
}

/** Whether the site has the seed's forms, whose persona tables the documents print in their own words. */
export function hasSeedForms(model: Pick<DiscoveryInput, 'forms'>): boolean {
  const forms = model.forms ?? DEFAULT_FORMS;
  return forms.includes(REQUEST_DEMO) && forms.includes(SUGGEST_DOCUMENT);
}

/** The dependent choices of the site's configured forms: a heading and a Markdown table each. */
export function configuredChoiceTables(
  model: Pick<DiscoveryInput, 'forms'>,
): { heading: string; intro: string; table: string }[] {
  return (model.forms ?? DEFAULT_FORMS)
    .filter((form) => !DEFAULT_FORMS.includes(form))
    .flatMap((form) =>
      dependentFields(form).map(({ field, parent }) => ({
        heading: `Which ${field.name} belongs to which ${parent.name}`,
        intro: `${form.summary} (\`${form.id}\`):`,
        table: dependencyTableMarkdown(field, parent),
      })),
    );
}

/**
 * The question used in the examples: the title of the first documentation page (which the
 * search surely finds), else of the home page, else the site's name.
 */
function exampleQuery(site: Site, siteName: string): string {
  const docs = site.pages.filter((page) => page.url.startsWith('/docs/') && page.url !== '/docs/');
  const page: Page | undefined = docs[0] ?? site.byUrl.get('/') ?? site.pages[0];
  return (page?.title ?? siteName).slice(0, 200);
}

/** The host part of an ARD identifier: only letters, digits, dots and hyphens are allowed there. */
function identifierHost(publicBaseUrl: string): string {
  return (
    new URL(publicBaseUrl).hostname.replace(/[^A-Za-z0-9.-]/g, '-').replace(/^-+|-+$/g, '') || 'localhost'
  );
}
