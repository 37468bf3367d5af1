import { apiCatalogLinkHeader } from '../../discovery/index.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  SUBMISSION_RETRY_AFTER_SECONDS,
  createValidator,
  HONEYPOT_FIELD,
  LeadRequestSchema,
  SOLUTION_PAGE_BY_COMPANY_TYPE,
  SuggestionRequestSchema,
  type FieldProblem,
  type LeadRequest,
  type SuggestionRequest,
} from '../../contract/index.js';
import { encodePagePath, type Page, type Site } from '../../content/index.js';
import {
  demoPathOf,
  FORM_ACTIONS,
  FORM_ANCHORS,
  HTML_TYPE,
  renderBuiltInDemoPage,
  renderConfirmationPage,
  renderContentPage,
  renderErrorPage,
  renderNotFoundPage,
  renderSearchPage,
  renderSite,
  renderStandaloneFormPage,
  searchForPage,
  siteAssets,
  type FormKind,
  type FormState,
  type RenderedSite,
  type Representation,
  type SiteView,
} from '../../site/index.js';
import { describeError, quarantineReasonOf, type SubmissionMeta } from '../../submissions/index.js';
import type { AppContext } from '../context.js';
import { limitSubmission } from '../rate-limit.js';
import { setErrorRenderer } from '../errors.js';
import { crossSiteProblem } from '../cross-site.js';
import { ifNoneMatchMatches } from '../conditional.js';
import { prefersMarkdown } from '../negotiation.js';
import { clientAddress } from '../client-address.js';

const HTML_ROUTE = { config: { errorShape: 'html' } } as const;

/** Pages are rendered once per start; browsers may keep them for a few minutes and revalidate. */
const PAGE_CACHE_CONTROL = 'public, max-age=300';
const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';

const validateLead = createValidator(LeadRequestSchema);
const validateSuggestion = createValidator(SuggestionRequestSchema);
/** The contract's bound on a suggestion's text (a pre-filled form never shows more). */
const SUGGESTION_TEXT_MAX_LENGTH = SuggestionRequestSchema.properties.suggestion.maxLength ?? 1000;

/** The path of a request, percent-decoded and NFC-normalised like `Page.url`; null when malformed. */
function decodedPath(request: FastifyRequest): string | null {
  const raw = request.url.split('?')[0]!;
  try {
    return decodeURIComponent(raw).normalize('NFC');
  } catch {
    return null;
  }
}

function queryStringOf(request: FastifyRequest): string {
  const index = request.url.indexOf('?');
  return index === -1 ? '' : request.url.slice(index);
}

/** A query parameter as one string (the first when repeated). */
function queryParam(request: FastifyRequest, name: string): string {
  const value = (request.query as Record<string, unknown> | undefined)?.[name];
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  return '';
}

function sendRepresentation(
  request: FastifyRequest,
  reply: FastifyReply,
  representation: Representation,
  extraHeaders: Record<string, string> = {},
) {
  reply
    .header('vary', 'Accept')
    .header('etag', representation.etag)
    .header('cache-control', PAGE_CACHE_CONTROL)
    .headers(extraHeaders);
  if (ifNoneMatchMatches(request.headers['if-none-match'], representation.etag))
    return reply.code(304).send();
  return reply.code(200).type(representation.contentType).send(representation.body);
}

function sendHtml(reply: FastifyReply, status: number, html: string) {
  return reply.code(status).header('cache-control', 'no-store').type(HTML_TYPE).send(html);
}

/** The string values of a submitted form, for showing them again next to the problems. */
function formValues(body: unknown): Record<string, string> {
  const values: Record<string, string> = {};
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return values;
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (typeof value === 'string') values[key] = value;
    else if (Array.isArray(value) && typeof value[0] === 'string') values[key] = value[0];
  }
  return values;
}

/**
 * The form body without its honeypot field (which the contract does not know), and whether a bot
 * filled it. A plain HTML post carries no fill time: only the enhanced form measures that.
 */
function withoutHoneypot(body: unknown): { body: unknown; honeypotFilled: boolean } {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || !(HONEYPOT_FIELD in body))
    return { body, honeypotFilled: false };
  const { [HONEYPOT_FIELD]: trap, ...rest } = body as Record<string, unknown>;
  const value = Array.isArray(trap) ? trap.join('') : trap;
  return { body: rest, honeypotFilled: typeof value === 'string' && value.trim() !== '' };
}

function metaOf(request: FastifyRequest, honeypotFilled: boolean): SubmissionMeta {
  const userAgent = request.headers['user-agent'];
  const quarantineReason = quarantineReasonOf({ honeypotFilled, fillMs: null }, 0);
  return {
    requestId: request.id,
    clientIp: clientAddress(request),
    userAgent: typeof userAgent === 'string' ? userAgent.slice(0, 500) : undefined,
    idempotencyKey: undefined,
    ...(quarantineReason ? { quarantineReason } : {}),
  };
}

/**
 * The public website: static assets, content pages (HTML, Markdown twin, redirects between the
 * slash and no-slash forms), the search page, the forms' no-JavaScript routes and the HTML error
 * pages. The content catch-all is registered last and hands unknown paths to the not-found handler.
 */
export async function registerSiteRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  const homeCatalogLink = apiCatalogLinkHeader(context.config.publicBaseUrl);
  // Every page is rendered once, on its first request; later requests are answered from those
  // bytes. A reload brings a new site, and with it new (empty) render caches; each request reads
  // the site once, so it is answered wholly from the old site or wholly from the new one.
  const renderedSites = new WeakMap<Site, RenderedSite>();
  const renderedOf = (site: Site): RenderedSite => {
    let rendered = renderedSites.get(site);
    if (rendered === undefined) {
      rendered = renderSite(site, context.config.publicBaseUrl);
      renderedSites.set(site, rendered);
    }
    return rendered;
  };
  context.content?.onPrepare((next) => void renderedOf(next.site));
  const view = (): SiteView => ({ site: context.site, publicBaseUrl: context.config.publicBaseUrl });

  setErrorRenderer(app, 'html', (request, reply, status, body) => {
    const path = decodedPath(request) ?? '/';
    const html =
      status === 404 ? renderNotFoundPage(view(), path) : renderErrorPage(view(), path, status, body);
    return sendHtml(reply, status, html);
  });

  // Static assets: the content hash in `?v=` makes a URL immutable.
  const assets = siteAssets();
  app.get<{ Params: { name: string } }>('/assets/:name', HTML_ROUTE, (request, reply) => {
    const asset = assets.get(request.params.name);
    if (!asset) return reply.callNotFound();
    const versioned = queryParam(request, 'v') === asset.version;
    reply
      .header('etag', asset.etag)
      .header('cache-control', versioned ? ASSET_CACHE_CONTROL : 'public, max-age=300');
    if (ifNoneMatchMatches(request.headers['if-none-match'], asset.etag)) return reply.code(304).send();
    return reply.type(asset.contentType).send(asset.body);
  });

  app.get('/search', HTML_ROUTE, (request, reply) => {
    const { status, outcome, summary } = searchForPage(
      context.ask,
      queryParam(request, 'q'),
      context.config.publicBaseUrl,
      request.id,
    );
    if (summary)
      context.insight?.search('page', outcome.query, summary, request.headers, clientAddress(request));
    return reply
      .code(status)
      .header('cache-control', 'no-cache')
      .type(HTML_TYPE)
      .send(renderSearchPage(view(), outcome));
  });

  /** The page a form is re-rendered on: the page it was sent from when that page carries it. */
  const formPageFor = (kind: FormKind, values: Record<string, string>): Page | null => {
    const from = values.sourcePage ? context.site.byUrl.get(values.sourcePage) : undefined;
    if (from?.form === kind) return from;
    if (kind === 'demo') return context.site.pages.find((page) => page.form === 'demo') ?? null;
    const audiencePage =
      values.companyType === 'cro' || values.companyType === 'research-site'
        ? context.site.byUrl.get(SOLUTION_PAGE_BY_COMPANY_TYPE[values.companyType])
        : undefined;
    if (audiencePage?.form === 'suggestion') return audiencePage;
    return context.site.pages.find((page) => page.form === 'suggestion') ?? null;
  };

  const renderFormPage = (kind: FormKind, state: FormState): string => {
    const page = formPageFor(kind, { ...state.values });
    if (page) return renderContentPage(view(), page, state);
    if (kind === 'demo') return renderBuiltInDemoPage(view(), state);
    return renderStandaloneFormPage(view(), kind, FORM_ACTIONS[kind], state);
  };

  const handleForm = async <T>(
    kind: FormKind,
    request: FastifyRequest,
    reply: FastifyReply,
    validate: (body: unknown) => { ok: true; value: T } | { ok: false; problems: FieldProblem[] },
    accept: (value: T, meta: SubmissionMeta) => Promise<{ provider: string }>,
  ) => {
    const values = formValues(request.body);
    const crossSite = crossSiteProblem(request.headers, context.config.publicBaseUrl);
    if (crossSite)
      return sendHtml(
        reply,
        403,
        renderErrorPage(view(), FORM_ACTIONS[kind], 403, {
          ok: false,
          error: 'Forbidden',
          code: 'VALIDATION_ERROR',
          message: `The form was sent from another site: Origin ${crossSite.message}.`,
          resolution: `Open the form on this site and ${crossSite.fix}.`,
        }),
      );
    const trap = withoutHoneypot(request.body);
    const result = validate(trap.body);
    if (!result.ok) return sendHtml(reply, 400, renderFormPage(kind, { values, problems: result.problems }));
    // The same per-client limit as the API operation: the HTML form is no way around it.
    const refused = await limitSubmission(context, request, reply, kind === 'demo' ? 'leads' : 'suggestions');
    if (refused)
      return sendHtml(
        reply,
        429,
        renderFormPage(kind, {
          values,
          problems: [],
          formError: `${refused.body.message} ${refused.body.resolution}`,
        }),
      );
    let provider: string;
    try {
      ({ provider } = await accept(result.value, metaOf(request, trap.honeypotFilled)));
    } catch (error) {
      request.log.error(describeError(error), 'form submission not stored');
      reply.header('retry-after', String(SUBMISSION_RETRY_AFTER_SECONDS));
      const mailbox = context.site.info.salesEmail ? ` or write to ${context.site.info.salesEmail}` : '';
      return sendHtml(
        reply,
        500,
        renderFormPage(kind, {
          values,
          problems: [],
          formError: `Your ${kind === 'demo' ? 'request' : 'suggestion'} could not be sent just now (reference ${request.id}). Nothing was stored: please try again in a moment${mailbox}.`,
        }),
      );
    }
    const query = new URLSearchParams();
    if (provider === 'mailto') query.set('via', 'mailto');
    if (values.sourcePage && context.site.byUrl.has(values.sourcePage)) query.set('from', values.sourcePage);
    const search = query.size > 0 ? `?${query.toString()}` : '';
    // POST-redirect-GET: reloading the confirmation does not send the form again.
    return reply
      .code(303)
      .header('cache-control', 'no-store')
      .header('location', `${FORM_ACTIONS[kind]}/sent${search}`)
      .send();
  };

  app.post('/forms/demo-request', HTML_ROUTE, (request, reply) =>
    handleForm<LeadRequest>('demo', request, reply, validateLead, (value, meta) =>
      context.submissions.acceptLead(value, meta),
    ),
  );
  app.post('/forms/document-suggestion', HTML_ROUTE, (request, reply) =>
    handleForm<SuggestionRequest>('suggestion', request, reply, validateSuggestion, (value, meta) =>
      context.submissions.acceptSuggestion(value, meta),
    ),
  );

  // A GET on a form's address (a bookmarked or reloaded result) goes to the page with the form.
  for (const kind of ['demo', 'suggestion'] as const) {
    app.get(FORM_ACTIONS[kind], HTML_ROUTE, (request, reply) => {
      // A link may open the suggestion form with its text filled in (the insight report turns a
      // search that found nothing into one); nothing is sent until the visitor submits the form.
      const prefilled = kind === 'suggestion' ? queryParam(request, 'suggestion').trim() : '';
      if (prefilled !== '')
        return sendHtml(
          reply,
          200,
          renderFormPage('suggestion', {
            values: { suggestion: Array.from(prefilled).slice(0, SUGGESTION_TEXT_MAX_LENGTH).join('') },
            problems: [],
          }),
        );
      const page = kind === 'demo' ? demoPathOf(context.site) : formPageFor('suggestion', {})?.url;
      const target = page ? `${encodePagePath(page)}#${FORM_ANCHORS[kind]}` : '/';
      return reply.code(303).header('location', target).send();
    });
    app.get(`${FORM_ACTIONS[kind]}/sent`, HTML_ROUTE, (request, reply) => {
      const from = context.site.byUrl.get(queryParam(request, 'from')) ?? null;
      const html = renderConfirmationPage(view(), kind, `${FORM_ACTIONS[kind]}/sent`, {
        mailto: queryParam(request, 'via') === 'mailto',
        from,
      });
      return sendHtml(reply, 200, html);
    });
  }

  const isRegisteredGet = (path: string) =>
    /^\/[A-Za-z0-9._~\-/]*$/.test(path) && app.hasRoute({ method: 'GET', url: path });

  // Last: content pages, their Markdown twins and the slash redirects.
  app.get('/*', HTML_ROUTE, (request, reply) => {
    const path = decodedPath(request);
    if (path === null) return reply.callNotFound();

    const rendered = renderedOf(context.site);
    const page = rendered.byPath.get(path);
    if (page) {
      const linkValues = page.markdownPath
        ? [`<${encodePagePath(page.markdownPath)}>; rel="alternate"; type="text/markdown"`]
        : [];
      // RFC 9727 §3: the home page points at the API catalog.
      if (path === '/') linkValues.push(homeCatalogLink);
      const links: Record<string, string> = linkValues.length > 0 ? { link: linkValues.join(', ') } : {};
      // Only the representation sent is rendered (the Markdown twin exists for content pages).
      const markdown = page.page !== null && prefersMarkdown(request.headers.accept) ? page.markdown : null;
      const representation = markdown ?? page.html;
      return sendRepresentation(request, reply, representation, links);
    }

    const twin = rendered.byMarkdownPath.get(path);
    if (twin?.markdown) return sendRepresentation(request, reply, twin.markdown);

    // /solutions → /solutions/ (a folder index) and /product/x/ → /product/x (a page, or a route such as /docs).
    let target: string | null = null;
    if (!path.endsWith('/') && rendered.byPath.has(`${path}/`)) target = `${path}/`;
    else if (path.endsWith('/') && path !== '/') {
      const withoutSlash = path.slice(0, -1);
      if (rendered.byPath.has(withoutSlash) || isRegisteredGet(withoutSlash)) target = withoutSlash;
    }
    if (target !== null)
      return reply
        .code(308)
        .header('location', encodePagePath(target) + queryStringOf(request))
        .send();
    return reply.callNotFound();
  });
}
