import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  endpointNotFoundBody,
  internalErrorBody,
  invalidJsonBody,
  payloadTooLargeBody,
  unsupportedMediaTypeBody,
  validationErrorBody,
  type ErrorBody,
} from '../contract/index.js';
import { BodyRefusedError, FORM_TYPE, InvalidJsonError, JSON_TYPE } from './body-parsers.js';

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
