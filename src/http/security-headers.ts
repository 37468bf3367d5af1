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

export function registerSecurityHeaders(app: FastifyInstance, publicBaseUrl: string): void {
  const https = publicBaseUrl.startsWith('https://');
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    reply.header('x-frame-options', 'DENY');
    reply.header('cross-origin-opener-policy', 'same-origin');
    if (!reply.hasHeader('content-security-policy'))
      reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
    if (https) reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    return payload;
  });
}
