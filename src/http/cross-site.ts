import type { FastifyRequest } from 'fastify';
import { quoted, type FieldProblem } from '../contract/index.js';

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
  return { field: 'Origin', message: `${quoted(origin)} is not this site`, fix };
}
