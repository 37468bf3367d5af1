import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  errorBody,
  endpointNotFoundBody,
  internalErrorBody,
  invalidJsonBody,
  payloadTooLargeBody,
  SHUTDOWN_RETRY_AFTER_SECONDS,
  unsupportedMediaTypeBody,
  validationErrorBody,
  type ErrorBody,
} from '../contract/index.js';
import { BodyRefusedError, FORM_TYPE, InvalidJsonError, JSON_TYPE } from './body-parsers.js';
import { securityHeaders } from './security-headers.js';

/**
 * What a failed request means, said once: which status and which Error body. Each surface (the
 * API, /ask, the site, the discovery documents; see app.ts) registers its own Fastify error
 * handler that renders these in its own shape: the spec's Error envelope, an NLWeb answer or an
 * HTML page.
 */
export interface ErrorRenderer {
  (request: FastifyRequest, reply: FastifyReply, status: number, body: ErrorBody): unknown;
}

/** The spec's Error envelope, as the API and the discovery documents answer errors. */
export function sendEnvelope(reply: FastifyReply, status: number, body: ErrorBody): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

export const renderEnvelope: ErrorRenderer = (_request, reply, status, body) =>
  sendEnvelope(reply, status, body);

/** Raised by the shutdown hook (app.ts) so that each surface answers the 503 in its own shape. */
export class ShuttingDownError extends Error {
  constructor() {
    super('the server is shutting down');
    this.name = 'ShuttingDownError';
  }
}

export function shuttingDownBody(): ErrorBody {
  return errorBody(
    'INTERNAL_ERROR',
    'Service unavailable',
    'This server is shutting down and did not handle the request; nothing was stored.',
    `Send the request again in ${SHUTDOWN_RETRY_AFTER_SECONDS} seconds.`,
  );
}

export { SHUTDOWN_RETRY_AFTER_SECONDS };

const CONTENT_LENGTH_MISMATCH = {
  field: 'Content-Length',
  message: 'does not match the body',
  fix: 'send a Content-Length equal to the body size',
};

/** The status and Error body for an error raised while a request was handled; logs what is not the caller's. */
function errorResponseOf(
  error: FastifyError,
  request: FastifyRequest,
  bodyLimitBytes: number,
  accepts: readonly string[],
): { status: number; body: ErrorBody } {
  if (error instanceof ShuttingDownError) return { status: 503, body: shuttingDownBody() };
  if (error instanceof InvalidJsonError) return { status: 400, body: invalidJsonBody(error.message) };
  if (error instanceof BodyRefusedError) return { status: 400, body: validationErrorBody([error.problem]) };
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, body: payloadTooLargeBody(bodyLimitBytes) };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 400, body: unsupportedMediaTypeBody(request.headers['content-type'], accepts) };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, body: invalidJsonBody('the body is empty') };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 400, body: validationErrorBody([CONTENT_LENGTH_MISMATCH]) };
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    request.log.info({ err: { code: error.code, message: error.message } }, 'request refused');
    return {
      status: status === 413 ? 413 : 400,
      body: validationErrorBody([{ field: 'request', message: error.message, fix: 'see /openapi.json' }]),
    };
  }
  request.log.error({ err: error }, 'request failed');
  return { status: 500, body: internalErrorBody(request.id) };
}

export interface ErrorHandlerOptions {
  bodyLimitBytes: number;
  /** Content types the surface accepts, named in the error for any other. */
  accepts?: readonly string[];
}

/** A surface's Fastify error handler: every error classified as above, rendered by `render`. */
export function errorHandlerRendering(render: ErrorRenderer, options: ErrorHandlerOptions) {
  const accepts = options.accepts ?? [JSON_TYPE, FORM_TYPE];
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): unknown => {
    const { status, body } = errorResponseOf(error, request, options.bodyLimitBytes, accepts);
    return render(request, reply, status, body);
  };
}

/**
 * Methods of every path registered with a fixed URL, to tell "wrong method" (405) from "no such
 * path" (404). Registered on the app before the surfaces, so it sees every route.
 */
export type AllowedMethods = (path: string) => readonly string[];

export function trackAllowedMethods(app: FastifyInstance): AllowedMethods {
  const methods = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    if (route.url.includes('*') || route.url.includes(':')) return;
    const set = methods.get(route.url) ?? new Set<string>();
    for (const method of [route.method].flat()) set.add(method);
    methods.set(route.url, set);
  });
  return (path) => [...(methods.get(path) ?? [])].sort();
}

/**
 * A surface's not-found handler: a path served with other methods answers 405 with Allow, in the
 * envelope whatever the surface; anything else is 404, in the envelope unless `renderPage` takes it.
 */
export function notFoundHandler(
  allowedMethods: AllowedMethods,
  renderPage?: (request: FastifyRequest, reply: FastifyReply, path: string) => unknown,
) {
  return (request: FastifyRequest, reply: FastifyReply): unknown => {
    const path = request.url.split('?')[0]!;
    const allowed = allowedMethods(path);
    if (allowed.length > 0) {
      reply.header('allow', allowed.join(', '));
      return sendEnvelope(reply, 405, endpointNotFoundBody(request.method, path, allowed));
    }
    if (renderPage) return renderPage(request, reply, path);
    return sendEnvelope(reply, 404, endpointNotFoundBody(request.method, path));
  };
}

/**
 * Errors the router raises before any route runs (Fastify's `frameworkErrors`): a path with a
 * malformed percent-escape or an over-long parameter. Answered with the envelope and without
 * echoing the path; this reply skips the onSend hooks, so the security headers are set here.
 */
export function createFrameworkErrorHandler(publicBaseUrl: string) {
  const headers = securityHeaders(publicBaseUrl);
  const problems = {
    malformed: {
      field: 'path',
      message: 'holds a malformed percent-escape',
      fix: 'percent-encode the path as UTF-8, e.g. %C3%A9 for é',
    },
    tooLong: {
      field: 'path',
      message: 'is too long',
      fix: 'use a path listed in /sitemap.xml or /openapi.json',
    },
  };
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    request.log.info({ err: { code: error.code } }, 'request refused by the router');
    const problem = error.code === 'FST_ERR_BAD_URL' ? problems.malformed : problems.tooLong;
    reply.headers(headers);
    return sendEnvelope(reply, 400, validationErrorBody([problem]));
  };
}

/**
 * Node's own client errors (a malformed request line or header, headers too large, a request that
 * timed out) never reach Fastify: they are answered here on the socket, with the envelope and the
 * security headers, then the connection is closed.
 */
export function createClientErrorHandler(publicBaseUrl: string) {
  const headers = Object.entries(securityHeaders(publicBaseUrl))
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return (error: NodeJS.ErrnoException, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    let status = 400;
    let body = validationErrorBody([
      {
        field: 'request',
        message: 'is not a valid HTTP request',
        fix: 'send a well-formed HTTP/1.1 request',
      },
    ]);
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT' || error.code === 'ERR_HTTP_HEADERS_TIMEOUT') {
      status = 408;
      body = errorBody(
        'VALIDATION_ERROR',
        'Request timeout',
        'The request was not received in time.',
        'Send the whole request (headers and body) without pauses.',
      );
    } else if (error.code === 'HPE_HEADER_OVERFLOW') {
      status = 431;
      body = errorBody(
        'VALIDATION_ERROR',
        'Request header fields too large',
        'The request headers are larger than this server accepts.',
        'Send fewer or shorter headers (cookies included).',
      );
    }
    const json = JSON.stringify(body);
    const reason = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' }[
      status
    ];
    if (socket.writable)
      socket.write(
        `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\n` +
          `content-length: ${Buffer.byteLength(json)}\r\ncache-control: no-store\r\nconnection: close\r\n${headers}\r\n${json}`,
      );
    socket.destroy(error);
  };
}
