import type { FastifyInstance, FastifyRequest } from 'fastify';
import { FORM_CORS_MAX_AGE_SECONDS, FORM_CORS_REQUEST_HEADERS } from '../contract/index.js';

/** Response headers a page's script may read besides the safelisted ones. */
const FORM_CORS_EXPOSED_HEADERS = 'Retry-After, RateLimit, RateLimit-Policy, X-Request-Id';

/**
 * CORS for the form APIs: a request whose Origin is listed in CORS_ORIGINS gets that origin back in
 * Access-Control-Allow-Origin (never `*`, never credentials), and every answer says `Vary: Origin`
 * so a shared cache does not hand one origin's answer to another. A preflight (`OPTIONS`) from a
 * listed origin is answered 204 with the methods and headers allowed; from any other origin it is
 * answered 204 without them, which the browser reads as a refusal. Nothing is registered when no
 * origin is listed: the form APIs then send no CORS headers at all, as before.
 */
export function registerFormCors(
  app: FastifyInstance,
  corsOrigins: readonly string[],
  paths: readonly string[],
): void {
  if (corsOrigins.length === 0) return;
  const allowedOrigin = (request: FastifyRequest): string | null => {
    const origin = request.headers.origin;
    return origin !== undefined && corsOrigins.includes(origin) ? origin : null;
  };
  app.addHook('onSend', (request, reply, payload, done) => {
    const vary = reply.getHeader('vary');
    reply.header('vary', typeof vary === 'string' && vary !== '' ? `${vary}, Origin` : 'Origin');
    const origin = allowedOrigin(request);
    if (origin !== null)
      reply
        .header('access-control-allow-origin', origin)
        .header('access-control-expose-headers', FORM_CORS_EXPOSED_HEADERS);
    done(null, payload);
  });
  for (const path of paths)
    app.options(path, (request, reply) => {
      reply.header('allow', 'POST, OPTIONS');
      if (allowedOrigin(request) !== null)
        reply.headers({
          'access-control-allow-methods': 'POST, OPTIONS',
          // The body's type, the answer wanted, a retry key and the forms' spam-trap signals.
          'access-control-allow-headers': FORM_CORS_REQUEST_HEADERS,
          'access-control-max-age': String(FORM_CORS_MAX_AGE_SECONDS),
        });
      return reply.code(204).send();
    });
}
