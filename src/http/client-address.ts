import type { IncomingMessage } from 'node:http';

/**
 * The client's address as Fastify's `request.ip` gives it with `trustProxy: (_, hop) => hop <
 * hops`: walking from the socket back through X-Forwarded-For, the first address that was not
 * added by a trusted proxy (or the farthest one given). Used where the framework is not (the /ask
 * fast path), so both paths limit the same client.
 */
export function clientAddress(req: IncomingMessage, hops: number): string {
  const socketAddress = req.socket.remoteAddress ?? '';
  if (hops === 0) return socketAddress;
  const header = req.headers['x-forwarded-for'];
  if (header === undefined) return socketAddress;
  const forwarded = (Array.isArray(header) ? header.join(',') : header).split(',');
  // forwarded[length - 1] was added by the nearest proxy (hop 0's peer), and so on outwards.
  const index = forwarded.length - Math.min(hops, forwarded.length);
  return forwarded[index]!.trim();
}
