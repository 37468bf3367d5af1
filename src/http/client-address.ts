import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';

/**
 * The client's address as stored with a submission: the address Fastify derived through the
 * trusted proxies, when it is an IP address. A trusted proxy passes on whatever the client put in
 * X-Forwarded-For; an entry that is not an address is not believed, and the address of the
 * connection (the proxy) is kept instead.
 */
export function clientAddress(request: FastifyRequest): string {
  if (isIP(request.ip) !== 0) return request.ip;
  request.log.info({ forwardedEntryLength: request.ip.length }, 'X-Forwarded-For entry is not an address');
  return request.socket.remoteAddress ?? 'unknown';
}
