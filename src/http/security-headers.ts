import type { FastifyInstance } from 'fastify';

/**
 * Security headers on every response. The CSP allows only the site's own scripts, styles, images
 * and connections: pages carry no inline script or style.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "object-src 'none'",
].join('; ');

/** The headers of every response; hijacked responses (the /ask event stream) set them from here. */
export function securityHeaders(publicBaseUrl: string): Record<string, string> {
  return {
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    'content-security-policy': CONTENT_SECURITY_POLICY,
    ...(publicBaseUrl.startsWith('https://')
      ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' }
      : {}),
  };
}

export function registerSecurityHeaders(app: FastifyInstance, publicBaseUrl: string): void {
  const headers = Object.entries(securityHeaders(publicBaseUrl));
  // Callback style: this runs on every response, and an async hook costs a promise per request.
  app.addHook('onSend', (_request, reply, payload, done) => {
    for (const [name, value] of headers) {
      // A route may set its own CSP (e.g. a page that needs more); the others are fixed.
      if (name === 'content-security-policy' && reply.hasHeader(name)) continue;
      reply.header(name, value);
    }
    done(null, payload);
  });
}
