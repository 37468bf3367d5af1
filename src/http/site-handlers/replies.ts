import type { FastifyReply, FastifyRequest } from 'fastify';
import { HTML_TYPE, type FormCatalog, type Representation, type SiteView } from '../../site/index.js';
import type { AppContext } from '../context.js';
import { sendCached } from '../compression.js';

/** What every route group of the site surface is given: the context, and the site serving now. */
export interface SiteRoutesContext {
  context: AppContext;
  /** Read per request: a content reload replaces the site. */
  view(): SiteView;
  /** The site's forms by key, from the configuration read at start-up. */
  forms: FormCatalog;
}

/** Pages are rendered once per start; browsers may keep them for a few minutes and revalidate. */
export const PAGE_CACHE_CONTROL = 'public, max-age=300';

/** The path of a request, percent-decoded and NFC-normalised like `Page.url`; null when malformed. */
export function decodedPath(request: FastifyRequest): string | null {
  const raw = request.url.split('?')[0]!;
  try {
    return decodeURIComponent(raw).normalize('NFC');
  } catch {
    return null;
  }
}

export function queryStringOf(request: FastifyRequest): string {
  const index = request.url.indexOf('?');
  return index === -1 ? '' : request.url.slice(index);
}

/** A query parameter as one string (the first when repeated). */
export function queryParam(request: FastifyRequest, name: string): string {
  const value = (request.query as Record<string, unknown> | undefined)?.[name];
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  return '';
}

/** A page rendered for this request only (a form's problems, an error): never cached. */
export function sendHtml(reply: FastifyReply, status: number, html: string) {
  return reply.code(status).header('cache-control', 'no-store').type(HTML_TYPE).send(html);
}

/** A cached representation, in the coding the client accepts, or 304 when it holds it already. */
export function sendRepresentation(
  request: FastifyRequest,
  reply: FastifyReply,
  compression: boolean,
  representation: Representation,
  extraHeaders: Record<string, string> = {},
) {
  reply.header('vary', 'Accept').header('cache-control', PAGE_CACHE_CONTROL).headers(extraHeaders);
  return sendCached(request, reply, compression, representation);
}
