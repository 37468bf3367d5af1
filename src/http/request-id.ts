import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** What an incoming X-Request-Id may look like to be kept: a proxy's id, not arbitrary text for the logs. */
const REQUEST_ID = /^[A-Za-z0-9._:@+=/-]{8,128}$/;

/**
 * The request's id: the X-Request-Id a trusted proxy sent (only when TRUST_PROXY_HOPS > 0, since
 * without a proxy the header is the client's own text), when it is 8 to 128 characters of letters,
 * digits and `._:@+=/-`; otherwise a new UUID. It is echoed in the X-Request-Id response header, and
 * names the request in every log line and in /ask's `_meta.request_id`.
 */
export function requestIdOf(req: IncomingMessage, trustProxyHops: number): string {
  if (trustProxyHops > 0) {
    const sent = req.headers['x-request-id'];
    if (typeof sent === 'string' && REQUEST_ID.test(sent)) return sent;
  }
  return randomUUID();
}
