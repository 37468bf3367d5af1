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
 * How a route answers its errors. The marketing routes use the spec's Error envelope; /ask answers
 * with an NLWeb body; HTML routes render a page. A route picks its shape with `config.errorShape`
 * and, for shapes other than `envelope`, a renderer registered here.
 */
export type ErrorShape = 'envelope' | 'nlweb' | 'html';

export interface ErrorRenderer {
  (request: FastifyRequest, reply: FastifyReply, status: number, body: ErrorBody): unknown;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    errorShape?: ErrorShape;
    /** Content types the route accepts, named in the error for any other. */
    accepts?: readonly string[];
  }
}

const renderers = new WeakMap<FastifyInstance, Partial<Record<ErrorShape, ErrorRenderer>>>();

export function setErrorRenderer(
  app: FastifyInstance,
  shape: Exclude<ErrorShape, 'envelope'>,
  render: ErrorRenderer,
) {
  const map = renderers.get(app) ?? {};
  map[shape] = render;
  renderers.set(app, map);
}

/** Sends an error in the shape the route asked for. */
export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  body: ErrorBody,
): unknown {
  const shape = request.routeOptions.config?.errorShape ?? 'envelope';
  const render = shape === 'envelope' ? undefined : renderers.get(request.server)?.[shape];
  if (render) return render(request, reply, status, body);
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

/** Paths registered with a fixed URL, and their methods: to tell "wrong method" from "no such path". */
const knownMethods = new WeakMap<FastifyInstance, Map<string, Set<string>>>();

export function registerErrorHandling(app: FastifyInstance, bodyLimitBytes: number): void {
  const methods = new Map<string, Set<string>>();
  knownMethods.set(app, methods);
  app.addHook('onRoute', (route) => {
    if (route.url.includes('*') || route.url.includes(':')) return;
    const set = methods.get(route.url) ?? new Set<string>();
    for (const method of [route.method].flat()) set.add(method);
    methods.set(route.url, set);
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const accepted = request.routeOptions.config?.accepts ?? [JSON_TYPE, FORM_TYPE];
    if (error instanceof InvalidJsonError)
      return sendError(request, reply, 400, invalidJsonBody(error.message));
    if (error instanceof BodyRefusedError)
      return sendError(request, reply, 400, validationErrorBody([error.problem]));
    switch (error.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return sendError(request, reply, 413, payloadTooLargeBody(bodyLimitBytes));
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return sendError(
          request,
          reply,
          400,
          unsupportedMediaTypeBody(request.headers['content-type'], accepted),
        );
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return sendError(request, reply, 400, invalidJsonBody('the body is empty'));
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return sendError(
          request,
          reply,
          400,
          validationErrorBody([
            {
              field: 'Content-Length',
              message: 'does not match the body',
              fix: 'send a Content-Length equal to the body size',
            },
          ]),
        );
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      request.log.info({ err: { code: error.code, message: error.message } }, 'request refused');
      return sendError(
        request,
        reply,
        status === 413 ? 413 : 400,
        validationErrorBody([{ field: 'request', message: error.message, fix: 'see /openapi.json' }]),
      );
    }
    request.log.error({ err: error }, 'request failed');
    return sendError(request, reply, 500, internalErrorBody(request.id));
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = [...(methods.get(path) ?? [])].sort();
    if (allowed.length > 0) {
      reply.header('allow', allowed.join(', '));
      return reply
        .code(405)
        .type('application/json; charset=utf-8')
        .send(endpointNotFoundBody(request.method, path, allowed));
    }
    const render = renderers.get(app)?.html;
    if (render && wantsHtml(request))
      return render(request, reply, 404, endpointNotFoundBody(request.method, path));
    return reply
      .code(404)
      .type('application/json; charset=utf-8')
      .send(endpointNotFoundBody(request.method, path));
  });
}

/** A browser navigating to a page (GET/HEAD, HTML preferred, not an API path). */
export function wantsHtml(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const path = request.url.split('?')[0]!;
  if (path.startsWith('/api/') || path === '/ask') return false;
  const accept = request.headers.accept ?? '';
  return accept.includes('text/html');
}

export { SHUTDOWN_RETRY_AFTER_SECONDS };

export function shuttingDownBody(): ErrorBody {
  return errorBody(
    'INTERNAL_ERROR',
    'Service unavailable',
    'This server is shutting down and did not handle the request; nothing was stored.',
    `Send the request again in ${SHUTDOWN_RETRY_AFTER_SECONDS} seconds.`,
  );
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
    return sendError(request, reply, 400, validationErrorBody([problem]));
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
