import type { FastifyRequest } from 'fastify';
import { quoted, type FieldProblem } from '../contract/index.js';

/**
 * A browser form post from another site is a CORS "simple" request: without this check any site
 * could make its visitors submit leads here. Requests without an Origin (servers, curl, agents)
 * are not browser cross-site posts and pass.
 */
export function crossSiteProblem(
  headers: FastifyRequest['headers'],
  publicBaseUrl: string,
): FieldProblem | null {
  const fix = `submit the form from ${new URL(publicBaseUrl).origin}, or call the API directly without an Origin header`;
  if (headers['sec-fetch-site'] === 'cross-site')
    return { field: 'Origin', message: 'is another site: cross-site form posts are refused', fix };
  const origin = headers.origin;
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
