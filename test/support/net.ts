import { request as httpRequest, type IncomingMessage } from 'node:http';
import { createServer } from 'node:net';

/**
 * A TCP port that was free a moment ago on 127.0.0.1. Used where the public base URL (and so every
 * absolute link built at start-up) must be known before the server listens, and for a peer that
 * must refuse connections first and listen later.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** One raw HTTP exchange over a real socket: status, headers and the whole body as text. */
export interface RawResponse {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

/** An HTTP request without fetch's own header handling (for exact bytes and headers on the wire). */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/**
 * Resolves once `check` returns a truthy value; fails with `what` after `timeoutMs`. For what a
 * real peer or another process does in its own time; code the test drives itself is stepped
 * explicitly instead (`deliverDue()`, fake timers).
 */
export async function waitFor<T>(
  what: string,
  check: () => T | Promise<T>,
  timeoutMs = 10_000,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
