import type { IncomingMessage } from 'node:http';

/**
 * The client's address as Fastify's `request.ip` gives it with `trustProxy: (_, hop) => hop <
 * trustedHops` (proxy-addr's rule): the socket's peer, then X-Forwarded-For from the right, one
 * trusted hop at a time. For the /ask fast path, which answers before Fastify builds a request.
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
  return chain[Math.min(trustedHops, chain.length - 1)]!;
}
