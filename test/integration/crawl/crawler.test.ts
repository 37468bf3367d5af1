import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { Crawler, type Manifest } from '../../../src/crawl/index.js';
import { waitFor } from '../../support/net.js';
import {
  capturingLogger,
  crawlConfig,
  page,
  sitemapOf,
  startOrigin,
  type Origin,
} from '../../crawl/origin.js';

const open: { origins: Origin[]; crawlers: Crawler[] } = { origins: [], crawlers: [] };
afterEach(async () => {
  for (const crawler of open.crawlers.splice(0)) await crawler.close();
  for (const origin of open.origins.splice(0)) await origin.close();
});

async function origin(): Promise<Origin> {
  const started = await startOrigin();
  open.origins.push(started);
  return started;
}

function crawler(sitemapUrl: string, env: Record<string, string> = {}) {
  const { logger, records } = capturingLogger();
  const config = crawlConfig(sitemapUrl, env);
  const changes: string[] = [];
  const made = new Crawler({
    config,
    logger,
    onChange: async (reason) => {
      changes.push(reason);
      return { status: 'swapped' };
    },
  });
  open.crawlers.push(made);
  const file = (path: string) => join(config.siteDir, path);
  const manifest = () => JSON.parse(readFileSync(config.manifestFile, 'utf8')) as Manifest;
  return { crawler: made, config, records, changes, file, manifest };
}

/** Puts `paths` on the site as pages with ETags, and a sitemap listing them. */
function site(server: Origin, paths: string[], extra: string[] = []): void {
  for (const path of paths) server.routes.set(path, { body: page(`Page ${path}`), etag: `"${path}-1"` });
  server.routes.set('/sitemap.xml', {
    body: sitemapOf([...paths.map((path) => `${server.url}${path}`), ...extra]),
    contentType: 'application/xml',
    etag: '"map-1"',
  });
}

describe('the crawler mirrors a site by its sitemap', () => {
  it('lays the pages out as a static host serves them, with a manifest, politely', async () => {
    const server = await origin();
    site(
      server,
      ['/', '/docs/', '/docs/intro.html', '/clean', '/private/secret.html'],
      ['https://other.example/page/', `${server.url}/search?q=1`],
    );
    const named = page('Named', 'https://www.example.com/canonical');
    server.routes.set('/canonical', { body: named, lastModified: 'Wed, 21 Oct 2026 07:28:00 GMT' });
    server.routes.get('/sitemap.xml')!;
    site(
      server,
      ['/', '/docs/', '/docs/intro.html', '/clean', '/private/secret.html'],
      ['https://other.example/page/', `${server.url}/search?q=1`, `${server.url}/canonical`],
    );
    server.routes.set('/robots.txt', {
      body: 'User-agent: *\nDisallow: /\n\nUser-agent: FrontdoorBot\nDisallow: /private/\n',
      contentType: 'text/plain',
    });
    const { crawler: c, file, manifest, changes, config } = crawler(`${server.url}/sitemap.xml`);
    const outcome = await c.start();
    expect(outcome).toMatchObject({ status: 'crawled', changed: true, fetched: 5, failed: 0, pages: 5 });
    expect(changes).toEqual(['crawl of CONTENT_URL (start-up)']);
    expect(readFileSync(file('index.html'), 'utf8')).toBe(page('Page /'));
    expect(readFileSync(file('docs/index.html'), 'utf8')).toBe(page('Page /docs/'));
    expect(readFileSync(file('docs/intro.html'), 'utf8')).toBe(page('Page /docs/intro.html'));
    // `/clean` is kept as clean.html: a canonical link keeps its URL; a page naming its own is kept as served.
    expect(readFileSync(file('clean.html'), 'utf8')).toContain('<head><link rel="canonical" href="/clean">');
    expect(readFileSync(file('canonical.html'), 'utf8')).toBe(named);
    // robots.txt's FrontdoorBot group applies (not the `*` one), and was read before anything else.
    expect(existsSync(file('private/secret.html'))).toBe(false);
    expect(server.requests.map((r) => r.path)).not.toContain('/private/secret.html');
    expect(server.requests.map((r) => r.path)).not.toContain('/search?q=1');
    expect(server.requests[0]!.path).toBe('/robots.txt');
    expect(server.requests[1]!.path).toBe('/sitemap.xml');
    for (const request of server.requests) expect(request.headers['user-agent']).toBe(config.userAgent);
    expect(config.userAgent).toMatch(/^FrontdoorBot\/\d+\.\d+ \(\+https?:\/\/.+\)$/);
    const kept = manifest();
    expect(Object.keys(kept.pages)).toEqual(
      ['/', '/canonical', '/clean', '/docs/', '/docs/intro.html'].map((path) => `${server.url}${path}`),
    );
    expect(kept.pages[`${server.url}/docs/`]).toMatchObject({
      file: 'docs/index.html',
      etag: '"/docs/-1"',
      failures: 0,
      lastError: null,
    });
    expect(kept.pages[`${server.url}/canonical`]).toMatchObject({
      etag: null,
      lastModified: 'Wed, 21 Oct 2026 07:28:00 GMT',
    });
    expect(Date.parse(kept.pages[`${server.url}/`]!.lastGoodAt!)).not.toBeNaN();
    expect(kept.sitemaps[`${server.url}/sitemap.xml`]).toMatchObject({ kind: 'urlset', etag: '"map-1"' });
  });

  it('re-crawls an unchanged 1,000-page site with conditional requests only, and changes nothing', async () => {
    const server = await origin();
    const paths = Array.from({ length: 1000 }, (_, i) => `/p/${i}/`);
    site(server, paths);
    server.routes.set('/robots.txt', {
      body: 'User-agent: *\nAllow: /\n',
      contentType: 'text/plain',
      etag: '"r"',
    });
    const { crawler: c, changes } = crawler(`${server.url}/sitemap.xml`, { CRAWL_CONCURRENCY: '4' });
    expect(await c.start()).toMatchObject({ changed: true, fetched: 1000, pages: 1000 });
    const first = server.requests.length;
    expect(first).toBe(1002);

    const again = await c.crawl('SIGHUP');
    expect(again).toMatchObject({
      status: 'crawled',
      changed: false,
      fetched: 0,
      notModified: 1000,
      failed: 0,
    });
    const second = server.requests.slice(first);
    expect(second).toHaveLength(1002);
    for (const request of second) expect(request.headers['if-none-match']).toBeDefined();
    expect(changes).toHaveLength(1);
    expect(server.maxInFlight()).toBeLessThanOrEqual(4);
  });

  it('keeps the last good copy of a page that fails, drops one that is gone, and retries the failed ones', async () => {
    const server = await origin();
    const paths = ['/', '/slow/', '/error/', '/gone/', '/loop/', '/huge/', '/pdf/', '/moved/', '/changes/'];
    site(server, paths);
    const {
      crawler: c,
      file,
      manifest,
    } = crawler(`${server.url}/sitemap.xml`, {
      CRAWL_TIMEOUT_MS: '1000',
      CRAWL_MAX_PAGE_BYTES: '4096',
      CRAWL_RETRY_MS: '1000',
    });
    expect(await c.start()).toMatchObject({ fetched: 9, pages: 9 });

    server.routes.set('/slow/', () => undefined); // never answers
    server.routes.set('/error/', { body: 'down', status: 500 });
    server.routes.delete('/gone/');
    server.routes.set('/loop/', (res) => res.writeHead(302, { location: '/loop2/' }).end());
    server.routes.set('/loop2/', (res) => res.writeHead(301, { location: `${server.url}/loop/` }).end());
    server.routes.set('/huge/', (res) => {
      // No Content-Length: the cap is on the bytes that arrive.
      res.writeHead(200, { 'content-type': 'text/html' });
      for (let i = 0; i < 64; i += 1) res.write('<p>'.padEnd(1024, 'x'));
      res.end();
    });
    server.routes.set('/pdf/', { body: '%PDF-1.7', contentType: 'application/pdf' });
    server.routes.set('/moved/', (res) =>
      res.writeHead(301, { location: 'https://other.example/moved/' }).end(),
    );
    server.routes.set('/changes/', { body: page('Changed'), etag: '"changes-2"' });

    const outcome = await c.crawl('test');
    expect(outcome).toMatchObject({
      status: 'crawled',
      changed: true,
      notModified: 1,
      fetched: 1,
      removed: 3,
      failed: 4,
    });
    for (const kept of ['slow', 'error', 'loop', 'huge'])
      expect(readFileSync(file(`${kept}/index.html`), 'utf8')).toBe(page(`Page /${kept}/`));
    for (const dropped of ['gone', 'pdf', 'moved'])
      expect(existsSync(file(`${dropped}/index.html`))).toBe(false);
    expect(readFileSync(file('changes/index.html'), 'utf8')).toBe(page('Changed'));
    const pages = manifest().pages;
    const error = (path: string) => pages[`${server.url}${path}`]!.lastError;
    expect(error('/slow/')).toBe('no complete answer within 1000 ms');
    expect(error('/error/')).toBe('answered 500');
    expect(error('/loop/')).toBe('redirect loop');
    expect(error('/huge/')).toBe('larger than 4096 bytes');
    expect(pages[`${server.url}/error/`]).toMatchObject({ failures: 1, file: 'error/index.html' });
    expect(Object.keys(pages)).not.toContain(`${server.url}/gone/`);

    // The retry (CRAWL_RETRY_MS later) asks for the failed pages only.
    server.routes.set('/error/', { body: page('Back'), etag: '"error-2"' });
    const before = server.requests.length;
    await waitFor(
      'the retry of the failed pages',
      () => manifest().pages[`${server.url}/error/`]!.failures === 0,
    );
    const retried = new Set(server.requests.slice(before).map((request) => request.path));
    expect([...retried].sort()).toEqual(['/error/', '/huge/', '/loop/', '/loop2/', '/slow/']);
    expect(readFileSync(file('error/index.html'), 'utf8')).toBe(page('Back'));
  });

  it('spaces its requests by CRAWL_DELAY_MS and keeps at most CRAWL_CONCURRENCY in flight', async () => {
    const server = await origin();
    site(server, ['/a/', '/b/', '/c/', '/d/', '/e/']);
    const { crawler: c } = crawler(`${server.url}/sitemap.xml`, {
      CRAWL_DELAY_MS: '60',
      CRAWL_CONCURRENCY: '2',
    });
    await c.start();
    const starts = server.requests.map((request) => request.startedAt);
    expect(starts).toHaveLength(7);
    // Measured where the requests arrive, late by however long the loaded machine takes: the
    // spacing itself is checked exactly with a stepped clock (units.test.ts).
    expect(starts.at(-1)! - starts[0]!).toBeGreaterThanOrEqual(5 * 60);
    expect(server.maxInFlight()).toBeLessThanOrEqual(2);
  });

  it("reads a sitemap index and gzipped sitemaps, never another origin's", async () => {
    const server = await origin();
    server.routes.set('/a/', { body: page('A') });
    server.routes.set('/b/', { body: page('B') });
    server.routes.set('/index.xml', {
      contentType: 'application/xml',
      body: `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>${server.url}/one.xml</loc></sitemap>
<sitemap><loc>${server.url}/two.xml.gz</loc></sitemap>
<sitemap><loc>https://other.example/three.xml</loc></sitemap></sitemapindex>`,
    });
    server.routes.set('/one.xml', { body: sitemapOf([`${server.url}/a/`]), contentType: 'text/xml' });
    server.routes.set('/two.xml.gz', {
      body: gzipSync(sitemapOf([`${server.url}/b/`, 'https://other.example/c/'])),
      contentType: 'application/gzip',
    });
    const { crawler: c, file, records } = crawler(`${server.url}/index.xml`);
    expect(await c.start()).toMatchObject({ status: 'crawled', pages: 2 });
    expect(readFileSync(file('a/index.html'), 'utf8')).toBe(page('A'));
    expect(readFileSync(file('b/index.html'), 'utf8')).toBe(page('B'));
    expect(records.some((r) => r.reason === 'another origin' && r.pages === 2)).toBe(true);
  });

  it('crawls nothing while robots.txt is unreachable, and keeps the mirror when the sitemap fails', async () => {
    const server = await origin();
    site(server, ['/a/']);
    server.routes.set('/robots.txt', { body: 'busy', status: 503, contentType: 'text/plain' });
    const { crawler: c, file } = crawler(`${server.url}/sitemap.xml`);
    const refused = await c.start();
    expect(refused).toMatchObject({ status: 'failed', changed: false });
    expect(refused.error).toContain('robots.txt unreachable (answered 503)');
    expect(server.requests.map((r) => r.path)).toEqual(['/robots.txt']);
    expect(c.waiting()).toContain('no crawl of CONTENT_URL has succeeded yet (robots.txt unreachable');

    server.routes.delete('/robots.txt'); // 404: everything allowed
    expect(await c.crawl('again')).toMatchObject({ status: 'crawled', pages: 1 });
    expect(c.waiting()).toBeNull();
    server.routes.set('/sitemap.xml', { body: '<html>not a sitemap</html>', contentType: 'text/html' });
    const broken = await c.crawl('broken sitemap');
    expect(broken.status).toBe('failed');
    expect(broken.error).toContain('the root element is <html>');
    expect(readFileSync(file('a/index.html'), 'utf8')).toBe(page('Page /a/'));
  });

  it('stops asking when the server answers 429, and tries those pages again later', async () => {
    const server = await origin();
    const paths = ['/a/', '/b/', '/c/', '/d/'];
    site(server, paths);
    server.routes.set('/b/', (res) => res.writeHead(429, { 'retry-after': '1' }).end());
    const { crawler: c, manifest } = crawler(`${server.url}/sitemap.xml`, { CRAWL_CONCURRENCY: '1' });
    expect(await c.start()).toMatchObject({ fetched: 1, failed: 3 });
    expect(server.requests.map((r) => r.path)).toEqual(['/robots.txt', '/sitemap.xml', '/a/', '/b/']);
    expect(manifest().pages[`${server.url}/d/`]).toMatchObject({
      file: null,
      failures: 1,
      lastError: 'not asked: the server asked to slow down',
    });
  });

  it('keeps a redirected page under its final URL, unless another listed page stands there', async () => {
    const server = await origin();
    site(server, ['/new/']);
    server.routes.set('/sitemap.xml', {
      body: sitemapOf(['/old/', '/new/', '/short'].map((path) => `${server.url}${path}`)),
      contentType: 'application/xml',
    });
    server.routes.set('/old/', (res) => res.writeHead(301, { location: '/new/' }).end());
    server.routes.set('/short', (res) => res.writeHead(302, { location: '/long/' }).end());
    server.routes.set('/long/', { body: page('Long') });
    const { crawler: c, file, manifest } = crawler(`${server.url}/sitemap.xml`, { CRAWL_CONCURRENCY: '1' });
    expect(await c.start()).toMatchObject({ fetched: 3, pages: 2 });
    expect(readFileSync(file('new/index.html'), 'utf8')).toBe(page('Page /new/'));
    expect(readFileSync(file('long/index.html'), 'utf8')).toBe(page('Long'));
    expect(existsSync(file('short.html'))).toBe(false);
    const pages = manifest().pages;
    expect(pages[`${server.url}/short`]).toMatchObject({
      file: 'long/index.html',
      finalUrl: `${server.url}/long/`,
    });
    expect(Object.keys(pages)).not.toContain(`${server.url}/old/`);
  });

  it('crawls again by itself every CRAWL_INTERVAL_MS, conditionally', async () => {
    const server = await origin();
    site(server, ['/a/']);
    const { crawler: c, records } = crawler(`${server.url}/sitemap.xml`, { CRAWL_INTERVAL_MS: '1000' });
    await c.start();
    const first = server.requests.length;
    await waitFor('the scheduled crawl', () => c.crawls >= 2);
    expect(
      records.filter((r) => r.reason === 'schedule' && r.msg === 'crawl finished: nothing changed'),
    ).toHaveLength(1);
    const scheduled = server.requests.slice(first).filter((request) => request.path !== '/robots.txt');
    expect(scheduled.map((request) => request.headers['if-none-match'])).toEqual(['"map-1"', '"/a/-1"']);
  });

  it('bounds a page by its declared length and by its decompressed bytes', async () => {
    const server = await origin();
    site(server, ['/small/']);
    server.routes.set('/sitemap.xml', {
      body: sitemapOf(['/small/', '/declared/', '/bomb/'].map((path) => `${server.url}${path}`)),
      contentType: 'application/xml',
    });
    server.routes.set('/declared/', { body: 'x'.repeat(8192) });
    // 1 MiB of HTML that travels as about 1 KiB.
    server.routes.set('/bomb/', (res) =>
      res
        .writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' })
        .end(gzipSync(Buffer.alloc(1 << 20, 'a'))),
    );
    const { crawler: c, manifest } = crawler(`${server.url}/sitemap.xml`, { CRAWL_MAX_PAGE_BYTES: '4096' });
    expect(await c.start()).toMatchObject({ fetched: 1, failed: 2, pages: 1 });
    const pages = manifest().pages;
    for (const path of ['/declared/', '/bomb/'])
      expect(pages[`${server.url}${path}`]).toMatchObject({
        file: null,
        lastError: 'larger than 4096 bytes',
      });
  });
});

describe('pages the file system cannot keep', () => {
  it('fail alone, and the rest of the crawl is kept: a file where a folder must be, a name too long', async () => {
    const server = await origin();
    const long = `/${'n'.repeat(300)}`;
    site(server, ['/', '/x.html', '/x.html/', long]);
    const { crawler: c, file, manifest } = crawler(`${server.url}/sitemap.xml`);
    const outcome = await c.start();
    // `/x.html` is a file, so `/x.html/` (x.html/index.html) cannot be; the long name is not mirrored.
    expect(outcome).toMatchObject({ status: 'crawled', changed: true, failed: 1 });
    expect(readFileSync(file('index.html'), 'utf8')).toBe(page('Page /'));
    expect(readFileSync(file('x.html'), 'utf8')).toBe(page('Page /x.html'));
    const pages = manifest().pages;
    expect(pages[`${server.url}/x.html/`]?.lastError).toMatch(/not written to the mirror/);
    expect(Object.keys(pages).some((url) => url.endsWith(long))).toBe(false);
  });

  it('keep the first listed of a file and a folder that need the same path, whichever answers first', async () => {
    const server = await origin();
    site(server, ['/x.html/', '/x.html']);
    const { crawler: c, file, manifest } = crawler(`${server.url}/sitemap.xml`);
    expect(await c.start()).toMatchObject({ status: 'crawled', failed: 1 });
    expect(readFileSync(file('x.html/index.html'), 'utf8')).toBe(page('Page /x.html/'));
    expect(manifest().pages[`${server.url}/x.html`]?.lastError).toMatch(
      /not written to the mirror: x\.html is a folder of other pages/,
    );
    // The page that lost is not asked for.
    expect(server.requests.map((request) => request.path)).not.toContain('/x.html');
  });
});
