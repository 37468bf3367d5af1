import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { loadConfig, type CrawlConfig } from '../../src/config/index.js';
import { tempDir } from '../support/files.js';

/**
 * A site for the crawler to crawl, on a real socket, with switchable faults: each path answers
 * what `routes` holds now (a page, with validators honoured as a static host does, or a handler of
 * its own). Every request is recorded, and the most requests in flight at once.
 */
export interface Origin {
  url: string;
  routes: Map<string, Route>;
  requests: { path: string; headers: IncomingHttpHeaders; startedAt: number }[];
  maxInFlight(): number;
  close(): Promise<void>;
}

export type Route =
  | {
      body: string | Buffer;
      contentType?: string;
      etag?: string;
      lastModified?: string;
      status?: number;
    }
  | ((res: ServerResponse, headers: IncomingHttpHeaders) => void);

export async function startOrigin(): Promise<Origin> {
  const routes = new Map<string, Route>();
  const requests: Origin['requests'] = [];
  let inFlight = 0;
  let most = 0;
  const server = createServer((req, res) => {
    inFlight += 1;
    most = Math.max(most, inFlight);
    res.once('close', () => (inFlight -= 1));
    const path = req.url ?? '/';
    requests.push({ path, headers: req.headers, startedAt: Date.now() });
    const route = routes.get(path);
    if (route === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    if (typeof route === 'function') return route(res, req.headers);
    const headers: Record<string, string> = {
      'content-type': route.contentType ?? 'text/html; charset=utf-8',
    };
    if (route.etag) headers.etag = route.etag;
    if (route.lastModified) headers['last-modified'] = route.lastModified;
    const fresh =
      (route.etag !== undefined && req.headers['if-none-match'] === route.etag) ||
      (route.etag === undefined &&
        route.lastModified !== undefined &&
        req.headers['if-modified-since'] === route.lastModified);
    if (fresh && (route.status ?? 200) === 200) {
      res.writeHead(304, headers).end();
      return;
    }
    res.writeHead(route.status ?? 200, headers).end(route.body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    routes,
    requests,
    maxInFlight: () => most,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** A sitemap listing `urls`. */
export function sitemapOf(urls: string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${urls.map((url) => `  <url><loc>${url.replace(/&/g, '&amp;')}</loc></url>`).join('\n')}
</urlset>
`;
}

/** A small HTML page naming itself. */
export const page = (title: string, canonical?: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${
    canonical ? `<link rel="canonical" href="${canonical}">` : ''
  }</head><body><main><h1>${title}</h1><p>About ${title}.</p></main></body></html>`;

/** The crawl settings for `sitemapUrl` as CONTENT_URL gives them, in a fresh DATA_DIR, no pauses. */
export function crawlConfig(sitemapUrl: string, env: Record<string, string> = {}): CrawlConfig {
  const config = loadConfig({
    DATA_DIR: tempDir('fd-crawl-'),
    CONTENT_URL: sitemapUrl,
    CRAWL_DELAY_MS: '0',
    CRAWL_INTERVAL_MS: '0',
    ...env,
  });
  return config.crawl!;
}

/** A logger whose records the test reads. */
export function capturingLogger(): { logger: pino.Logger; records: Record<string, unknown>[] } {
  const records: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'debug' },
    { write: (line: string) => void records.push(JSON.parse(line) as Record<string, unknown>) },
  );
  return { logger, records };
}
