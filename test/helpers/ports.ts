import { createServer } from 'node:net';

/**
 * A TCP port that was free a moment ago on 127.0.0.1. Used where the public base URL (and so every
 * absolute link built at start-up) must be known before the server listens.
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
