import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../support/files.js';
import { waitFor } from '../../support/net.js';
import { spawnServe, type ServeProcess } from '../../support/process.js';
import { page, sitemapOf, startOrigin, type Origin } from '../../crawl/origin.js';

const children: ServeProcess[] = [];
const origins: Origin[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) {
    child.child.kill('SIGKILL');
    await child.exit;
  }
  for (const origin of origins.splice(0)) await origin.close();
});

const WAITING = 'the first crawl of CONTENT_URL has not finished';

/** The JSON log lines of `child` whose message starts with `prefix`. */
function lines(child: ServeProcess, prefix: string): Record<string, unknown>[] {
  return child
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((record) => typeof record.msg === 'string' && record.msg.startsWith(prefix));
}

async function readiness(url: string): Promise<{ status: number; reasons: string[] }> {
  const response = await fetch(`${url}/readyz`);
  const body = (await response.json()) as { reasons: string[] };
  return { status: response.status, reasons: body.reasons };
}

describe('frontdoor serve with CONTENT_URL', () => {
  it('is not ready until the first crawl ends, reloads when the mirror changed, re-crawls on SIGHUP with conditional requests', async () => {
    const origin = await startOrigin();
    origins.push(origin);
    const paths = ['/', '/docs/', '/about.html'];
    for (const path of paths) origin.routes.set(path, { body: page(`Page ${path}`), etag: `"${path}"` });
    const sitemap = { body: sitemapOf(paths.map((path) => `${origin.url}${path}`)), etag: '"map"' };
    // The sitemap is held back until the test has seen the server wait for it.
    let release: () => void = () => undefined;
    const holdSitemap = () => {
      const released = new Promise<void>((resolve) => (release = resolve));
      origin.routes.set('/sitemap.xml', (res, headers) => {
        void released.then(() => {
          if (headers['if-none-match'] === sitemap.etag) res.writeHead(304, { etag: sitemap.etag }).end();
          else
            res.writeHead(200, { 'content-type': 'application/xml', etag: sitemap.etag }).end(sitemap.body);
        });
      });
    };
    holdSitemap();
    const dataDir = tempDir('fd-crawl-serve-');
    const env = {
      DATA_DIR: dataDir,
      CONTENT_URL: `${origin.url}/sitemap.xml`,
      CRAWL_DELAY_MS: '0',
      CRAWL_INTERVAL_MS: '0',
    };
    const child = spawnServe(env);
    children.push(child);
    const url = await child.url;

    const waiting = await readiness(url);
    expect(waiting.status).toBe(503);
    expect(waiting.reasons.join(' ')).toContain(WAITING);

    release();
    const first = await waitFor('the first crawl', () => lines(child, 'crawl finished')[0]);
    expect(first).toMatchObject({
      msg: 'crawl finished: the site changed',
      reason: 'start-up',
      fetched: 3,
      pages: 3,
    });
    // The mirror changed, so the content was reloaded: the crawled pages are the site now.
    expect(first.reload).toBe('swapped');
    const siteDir = join(dataDir, 'crawl', `http_${new URL(origin.url).host.replace(':', '_')}`, 'site');
    expect(readFileSync(join(siteDir, 'docs', 'index.html'), 'utf8')).toBe(page('Page /docs/'));
    expect(existsSync(join(siteDir, 'about.html'))).toBe(true);
    // Readiness is cached for a second: polled until it no longer waits for the crawl.
    await waitFor(
      'readiness without the first crawl',
      async () => !(await readiness(url)).reasons.join(' ').includes(WAITING),
    );
    // Served as built and found by /ask, at the live site's own paths.
    const served = await fetch(`${url}/docs/`);
    expect([served.status, await served.text()]).toEqual([200, page('Page /docs/')]);
    const answer = (await (await fetch(`${url}/ask?query=${encodeURIComponent('Page about')}`)).json()) as {
      content: { type: string; resource?: { data: { url: string } } }[];
    };
    const found = answer.content.flatMap((item) => (item.resource ? [item.resource.data.url] : []));
    expect(found.map((address) => new URL(address).pathname).sort()).toEqual(['/', '/about.html', '/docs/']);

    const before = origin.requests.length;
    child.child.kill('SIGHUP');
    const again = await waitFor('the crawl SIGHUP asked for', () => lines(child, 'crawl finished')[1]);
    expect(again).toMatchObject({
      msg: 'crawl finished: nothing changed',
      reason: 'SIGHUP',
      notModified: 3,
      fetched: 0,
    });
    // Nothing changed: no reload was asked for.
    expect(again).not.toHaveProperty('reload');
    const asked = origin.requests.slice(before).filter((request) => request.path !== '/robots.txt');
    expect(asked.map((request) => request.path).sort()).toEqual([
      '/',
      '/about.html',
      '/docs/',
      '/sitemap.xml',
    ]);
    for (const request of asked) expect(request.headers['if-none-match']).toBeDefined();
    expect(
      origin.requests.every((request) => request.headers['user-agent']!.startsWith('FrontdoorBot/')),
    ).toBe(true);

    // A restart serves what the mirror holds while it crawls again: readiness does not wait for it.
    child.child.kill('SIGTERM');
    expect(await child.exit).toBe(0);
    holdSitemap();
    const restartedAt = origin.requests.length;
    const restarted = spawnServe(env);
    children.push(restarted);
    const restartedUrl = await restarted.url;
    await waitFor('the crawl to ask for the sitemap', () =>
      origin.requests.slice(restartedAt).some((request) => request.path === '/sitemap.xml'),
    );
    expect((await readiness(restartedUrl)).reasons.join(' ')).not.toContain(WAITING);
    expect(lines(restarted, 'crawl finished')).toHaveLength(0);
    release();
    await waitFor('the crawl after the restart', () => lines(restarted, 'crawl finished')[0]);
    expect(lines(restarted, 'crawl finished')[0]).toMatchObject({
      msg: 'crawl finished: nothing changed',
      notModified: 3,
    });
  });

  it('refuses CONTENT_URL beside CONTENT_DIR, naming both', async () => {
    const child = spawnServe({ CONTENT_URL: 'https://www.example.com/sitemap.xml', CONTENT_DIR: tempDir() });
    children.push(child);
    expect(await child.exit).toBe(78);
    expect(child.stderr()).toContain('CONTENT_DIR and CONTENT_URL are both set');
  });
});
