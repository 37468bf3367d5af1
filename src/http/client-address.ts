import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';

/**
 * The client's address as stored with a submission and counted by the limits: the address Fastify
 * derived through the trusted proxies, when it is an IP address. A trusted proxy passes on whatever
 * the client put in X-Forwarded-For; an entry that is not an address is not believed, and the
 * address of the connection (the proxy) is kept instead.
 */
export function clientAddress(request: FastifyRequest): string {
  if (isIP(request.ip) !== 0) return request.ip;
  request.log.info({ forwardedEntryLength: request.ip.length }, 'X-Forwarded-For entry is not an address');
  return request.socket.remoteAddress ?? 'unknown';
}

/**
 * The same address for the /ask fast path, which answers before Fastify builds a request: with
 * `trustProxy: (_, hop) => hop < trustedHops` (proxy-addr's rule), the socket's peer, then
 * X-Forwarded-For from the right, one trusted hop at a time; an entry that is not an address is
 * not believed (the peer is used, as `clientAddress` does).
 */
export function clientAddressOf(req: IncomingMessage, trustedHops: number): string {
  const peer = req.socket.remoteAddress ?? '';
  if (trustedHops === 0) return peer;
  const header = req.headers['x-forwarded-for'];
  if (header === undefined) return peer;
  const chain = [
    peer,
    ...(Array.isArray(header) ? header.join(',') : header)
      .split(',')
      .map((address) => address.trim())
      .filter((address) => address !== '')
      .reverse(),
  ];
  const address = chain[Math.min(trustedHops, chain.length - 1)]!;
  return isIP(address) !== 0 ? address : peer;
}
