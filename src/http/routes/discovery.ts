import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { endpointNotFoundBody } from '../../contract/index.js';
import {
  buildDiscoveryBundle,
  SKILLS_ROOT,
  type DiscoveryBundle,
  type DiscoveryInput,
  type ServedDocument,
} from '../../discovery/index.js';
import { markdownPathOf, renderLayout } from '../../site/index.js';
import type { AppContext } from '../app.js';
import { sendError } from '../errors.js';

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

/** RFC 9110 §13.1.2: If-None-Match uses the weak comparison; `*` matches any current representation. */
export function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}

function serve(document: ServedDocument) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    reply.headers({
      ...CORS_HEADERS,
      ...document.headers,
      'cache-control': DISCOVERY_CACHE_CONTROL,
      etag: document.etag,
    });
    if (ifNoneMatchMatches(request.headers['if-none-match'], document.etag)) return reply.code(304).send();
    return reply.type(document.contentType).send(document.body);
  };
}

/** The values the documents are generated from, taken from the running server's own rooms. */
export function discoveryInputOf(context: AppContext): DiscoveryInput {
  const { config, site, ask } = context;
  return {
    publicBaseUrl: config.publicBaseUrl,
    bodyLimitBytes: config.bodyLimitBytes,
    site,
    answerQuery: (text, maxResults) =>
      ask.exampleAnswer({ text, maxResults, conversationId: null }, EXAMPLE_REQUEST_ID),
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
      }),
  };
}

/**
 * Serves every discovery document from bytes built once at start-up, with a strong ETag, GET and
 * HEAD, open CORS and a short public cache; adds the RFC 9727 `api-catalog` link to the home page.
 */
export async function registerDiscoveryRoutes(
  app: FastifyInstance,
  context: AppContext,
  bundle: DiscoveryBundle = buildDiscoveryBundle(discoveryInputOf(context)),
): Promise<void> {
  const routeConfig = { errorShape: 'envelope' as const };
  for (const document of bundle.documents.values()) {
    app.get(document.path, { config: routeConfig }, serve(document));
    app.options(document.path, { config: routeConfig }, async (_request, reply) =>
      reply.code(204).headers(PREFLIGHT_HEADERS).send(),
    );
  }

  // An unknown skill is a 404 in the API's error envelope, whatever the client accepts.
  app.get(`${SKILLS_ROOT}:name/SKILL.md`, { config: routeConfig }, async (request, reply) =>
    sendError(request, reply, 404, endpointNotFoundBody(request.method, request.url.split('?')[0]!)),
  );
}
