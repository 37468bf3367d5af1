import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { endpointNotFoundBody } from '../../contract/index.js';
import {
  buildDiscoveryBundle,
  SKILLS_ROOT,
  type DiscoveryBundle,
  type DiscoveryInput,
  type ServedDocument,
} from '../../discovery/index.js';
import type { Site } from '../../content/index.js';
import { formCatalog, markdownPathOf, renderLayout } from '../../site/index.js';
import type { AppContext, SurfaceOptions } from '../context.js';
import { LongLivedVariants, sendCached } from '../compression.js';
import type { ContentGeneration } from '../live-content.js';
import { errorHandlerRendering, renderEnvelope, sendEnvelope } from '../errors.js';

/** The documents are public and read-only: any origin may read them, without credentials. */
const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'ETag, Link',
};

const PREFLIGHT_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, HEAD, OPTIONS',
  // A cross-origin revalidation sends If-None-Match, which is not a CORS-safelisted header.
  'access-control-allow-headers': 'If-None-Match, Accept',
  'access-control-max-age': '86400',
};

/** Five minutes: short enough that a content change shows up soon, long enough to spare the server. */
export const DISCOVERY_CACHE_CONTROL = 'public, max-age=300';

/** `request_id` of the example answers in the documents: fixed, so the documents are deterministic. */
export const EXAMPLE_REQUEST_ID = '00000000-0000-4000-8000-000000000000';

function send(
  request: FastifyRequest,
  reply: FastifyReply,
  document: ServedDocument,
  variants: LongLivedVariants | null,
) {
  reply.headers({ ...CORS_HEADERS, ...document.headers, 'cache-control': DISCOVERY_CACHE_CONTROL });
  return sendCached(request, reply, variants !== null, {
    ...document,
    variants: variants?.of(document.body, document.etag),
  });
}

/** The values the documents are generated from, taken from the running server's own rooms. */
export function discoveryInputOf(
  context: Pick<AppContext, 'config' | 'site' | 'ask'> & Partial<Pick<AppContext, 'forms'>>,
): DiscoveryInput {
  const { config, site, ask } = context;
  const common: DiscoveryInput = {
    ...(context.forms ? { forms: context.forms } : {}),
    publicBaseUrl: config.publicBaseUrl,
    bodyLimitBytes: config.bodyLimitBytes,
    corsOrigins: config.corsOrigins,
    site,
    answerQuery: (text, maxResults) =>
      ask.exampleAnswer({ text, maxResults, conversationId: null }, EXAMPLE_REQUEST_ID),
  };
  // Beside a site served elsewhere (PAGES=off) pages link to the site's own pages, not to twins.
  if (!config.pages) return { ...common, servesPages: false };
  // The header's button on these pages leads to the site's own primary form, as on every other page.
  const forms = context.forms ? formCatalog(context.forms) : undefined;
  return {
    ...common,
    markdownPathOf,
    renderHtmlPage: (parts) =>
      renderLayout({
        site,
        publicBaseUrl: config.publicBaseUrl,
        title: parts.title,
        description: parts.description,
        canonicalPath: parts.path,
        bodyHtml: parts.bodyHtml,
        kind: parts.kind === 'index' ? 'CollectionPage' : 'TechArticle',
        ...(forms ? { forms } : {}),
      }),
  };
}

/**
 * The discovery documents' surface: errors in the spec's Error envelope. Its documents sit at
 * fixed paths across the root (Fastify scopes not-found handlers by prefix), so a wrong method
 * or an unknown path there gets the app-wide 405 or 404; its own 404s (an unknown sitemap file
 * or skill) are answered by its routes. A fixed `bundle` (tests) is served whatever the site.
 */
export async function registerDiscoverySurface(
  app: FastifyInstance,
  options: SurfaceOptions,
  bundle?: DiscoveryBundle,
): Promise<void> {
  const { context } = options;
  await app.register(async (surface) => {
    surface.setErrorHandler(
      errorHandlerRendering(renderEnvelope, { bodyLimitBytes: context.config.bodyLimitBytes }),
    );
    registerDiscoveryRoutes(surface, context, bundle);
  });
}

/**
 * Serves every discovery document from bytes built once per site (on its first request), with a strong ETag, GET and
 * HEAD, open CORS and a short public cache; adds the RFC 9727 `api-catalog` link to the home page.
 *
 * A content reload brings a new site: its documents are built before it is served (the server's
 * LiveContent calls `prepare`), and each request reads the documents of the site serving then.
 */
function registerDiscoveryRoutes(app: FastifyInstance, context: AppContext, bundle?: DiscoveryBundle): void {
  const bundles = new WeakMap<Site, DiscoveryBundle>();
  const bundleOf = (generation: ContentGeneration): DiscoveryBundle => {
    if (bundle) return bundle;
    let built = bundles.get(generation.site);
    if (built === undefined) {
      built = buildDiscoveryBundle(
        discoveryInputOf({ config: context.config, forms: context.forms, ...generation }),
      );
      bundles.set(generation.site, built);
    }
    return built;
  };
  const current = () => bundleOf({ site: context.site, ask: context.ask });
  // Each document's coded variants live as long as its bytes (a reload's new documents get new ones).
  const variants = context.config.compression ? new LongLivedVariants() : null;
  // Each document is built on its first request; a new generation's model (the OpenAPI document,
  // the example answer) is derived before it is served, so a failure there keeps the old site.
  context.content?.onPrepare((next) => void bundleOf(next).model);

  const serveCurrent = async (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0]!;
    const document = current().document(path);
    if (!document) return sendEnvelope(reply, 404, endpointNotFoundBody(request.method, path));
    return send(request, reply, document, variants);
  };
  for (const path of current().paths) {
    app.get(path, serveCurrent);
    app.options(path, async (_request, reply) => reply.code(204).headers(PREFLIGHT_HEADERS).send());
  }
  // A reload can add sitemap files (one per 50,000 URLs): their addresses are served from whichever site is current.
  if (!app.hasRoute({ method: 'GET', url: SITEMAP_PART_ROUTE })) {
    app.get(SITEMAP_PART_ROUTE, serveCurrent);
    app.options(SITEMAP_PART_ROUTE, async (_request, reply) =>
      reply.code(204).headers(PREFLIGHT_HEADERS).send(),
    );
  }

  // An unknown skill is a 404 in the API's error envelope, whatever the client accepts.
  app.get(`${SKILLS_ROOT}:name/SKILL.md`, async (request, reply) =>
    sendEnvelope(reply, 404, endpointNotFoundBody(request.method, request.url.split('?')[0]!)),
  );
}

const SITEMAP_PART_ROUTE = '/sitemaps/:file';
