import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  FORM_CORS_MAX_AGE_SECONDS,
  FORM_CORS_REQUEST_HEADERS,
  type FieldProblem,
} from '../contract/index.js';

/**
 * A browser form post from another site is a CORS "simple" request: without this check any site
 * could make its visitors submit leads here. Requests without an Origin (servers, curl, agents)
 * are not browser cross-site posts and pass. The origins in CORS_ORIGINS (`corsOrigins`) are the
 * site's own pages served elsewhere (docs/beside-your-site.md): exactly those pass too, whatever
 * Sec-Fetch-Site says (another registrable domain is cross-site to the browser).
 */
export function crossSiteProblem(
  headers: FastifyRequest['headers'],
  publicBaseUrl: string,
  corsOrigins: readonly string[] = [],
): FieldProblem | null {
  const origin = headers.origin;
  if (origin !== undefined && corsOrigins.includes(origin)) return null;
  const fix = `submit the form from ${new URL(publicBaseUrl).origin}, or call the API directly without an Origin header`;
  if (headers['sec-fetch-site'] === 'cross-site')
    return { field: 'Origin', message: 'is another site: cross-site form posts are refused', fix };
  if (origin === undefined) return null;
  let sent: string | null = null;
  try {
    sent = new URL(origin).origin;
  } catch {
    sent = null;
  }
  if (sent !== null && sent !== 'null' && sent === new URL(publicBaseUrl).origin) return null;
  return { field: 'Origin', message: `"${origin.slice(0, 100)}" is not this site`, fix };
}

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
