import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/index.js';
import { Pacer } from '../../src/crawl/fetch.js';
import { mirrorPath, withCanonical } from '../../src/crawl/mirror.js';
import { MAX_SITEMAP_BYTES, parseSitemap } from '../../src/crawl/sitemap.js';

const problemsOf = (env: Record<string, string>): string[] => {
  try {
    loadConfig({ DATA_DIR: '/tmp/fd-data', ...env }, '/srv');
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};

describe('CONTENT_URL and CRAWL_* configuration', () => {
  it('mirrors into DATA_DIR/crawl/<origin>/site, which becomes the content folder, unwatched', () => {
    const config = loadConfig(
      {
        DATA_DIR: '/tmp/fd-data',
        CONTENT_URL: 'https://Docs.Example.com:8443/sitemap.xml',
        PUBLIC_BASE_URL: 'https://www.example.com',
      },
      '/srv',
    );
    expect(config.crawl).toMatchObject({
      sitemapUrl: 'https://docs.example.com:8443/sitemap.xml',
      siteDir: '/tmp/fd-data/crawl/https_docs.example.com_8443/site',
      manifestFile: '/tmp/fd-data/crawl/https_docs.example.com_8443/manifest.json',
      intervalMs: 3_600_000,
      concurrency: 2,
      delayMs: 500,
      maxRedirects: 5,
      userAgent: 'FrontdoorBot/1.0 (+https://www.example.com)',
    });
    expect(config.contentDir).toBe(config.crawl!.siteDir);
    expect(config.contentWatch).toBe(false);
    expect(loadConfig({ DATA_DIR: '/tmp/fd-data' }).crawl).toBeNull();
  });

  it('names the variable and the fix for each wrong value', () => {
    expect(problemsOf({ CONTENT_URL: 'https://a.example/sitemap.xml', CONTENT_DIR: 'site' })).toEqual([
      expect.stringContaining('CONTENT_DIR and CONTENT_URL are both set: unset one'),
    ]);
    expect(problemsOf({ CONTENT_URL: 'sitemap.xml' })[0]).toContain(
      'CONTENT_URL="sitemap.xml" is not an absolute URL',
    );
    expect(problemsOf({ CONTENT_URL: 'ftp://a.example/sitemap.xml' })[0]).toContain(
      'CONTENT_URL must start with https://',
    );
    const secret = problemsOf({ CONTENT_URL: 'https://user:hunter2@a.example/sitemap.xml' });
    expect(secret[0]).toContain('must not contain a user name or password');
    expect(secret.join(' ')).not.toContain('hunter2');
    const url = { CONTENT_URL: 'https://a.example/sitemap.xml' };
    expect(problemsOf({ ...url, CRAWL_CONCURRENCY: '9' })[0]).toBe(
      'CRAWL_CONCURRENCY="9" is not valid: set it to a whole number from 1 to 8.',
    );
    expect(problemsOf({ ...url, CRAWL_DELAY_MS: 'fast' })[0]).toContain('CRAWL_DELAY_MS="fast" is not valid');
    expect(problemsOf({ ...url, CRAWL_INTERVAL_MS: '500' })[0]).toContain(
      'CRAWL_INTERVAL_MS="500" is too short',
    );
    expect(problemsOf({ ...url, CRAWL_INTERVAL_MS: '0' })).toEqual([]);
  });
});

describe('sitemaps', () => {
  const urlset = (body: string) =>
    Buffer.from(
      `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${body}</urlset>`,
    );

  it('reads the locs of a urlset and of an index, with entities, CDATA and prefixes', () => {
    expect(
      parseSitemap(
        urlset(
          '<url><loc> https://a.example/x?a=1&amp;b=2 </loc><lastmod>2026-01-01</lastmod></url>' +
            '<url><loc><![CDATA[https://a.example/y/]]></loc></url><url><loc>https://a.example/z/</loc><image:image><image:loc>https://a.example/i.png</image:loc></image:image></url>',
        ),
      ),
    ).toEqual({
      kind: 'urlset',
      locs: ['https://a.example/x?a=1&b=2', 'https://a.example/y/', 'https://a.example/z/'],
    });
    const index = Buffer.from(
      '<sm:sitemapindex xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:sitemap><sm:loc>https://a.example/1.xml</sm:loc></sm:sitemap></sm:sitemapindex>',
    );
    expect(parseSitemap(gzipSync(index))).toEqual({
      kind: 'sitemapindex',
      locs: ['https://a.example/1.xml'],
    });
  });

  it('refuses what is not a sitemap, entities it does not know, and more than the limits', () => {
    expect(() => parseSitemap(Buffer.from('<html><body/></html>'))).toThrow('the root element is <html>');
    expect(() => parseSitemap(Buffer.from('<urlset><url><loc>x</url></urlset>'))).toThrow(
      'not well-formed XML',
    );
    const laughs =
      '<?xml version="1.0"?><!DOCTYPE urlset [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]>' +
      '<urlset><url><loc>&b;</loc></url></urlset>';
    expect(() => parseSitemap(Buffer.from(laughs))).toThrow('not well-formed XML');
    expect(() => parseSitemap(gzipSync(Buffer.alloc(MAX_SITEMAP_BYTES + 1, 32)))).toThrow('once inflated');
    expect(() => parseSitemap(urlset('<url><loc>https://a.example/</loc></url>'.repeat(50_001)))).toThrow(
      'more than 50000 entries',
    );
  });
});

describe('the mirror layout', () => {
  const at = (url: string) => mirrorPath(new URL(url));

  it('keeps each URL where a static host would serve it from', () => {
    expect(at('https://a.example/')).toEqual({ file: 'index.html', canonical: false });
    expect(at('https://a.example/docs/')).toEqual({ file: 'docs/index.html', canonical: false });
    expect(at('https://a.example/docs/a.html')).toEqual({ file: 'docs/a.html', canonical: false });
    expect(at('https://a.example/docs/a')).toEqual({ file: 'docs/a.html', canonical: true });
    expect(at('https://a.example/caf%C3%A9/')).toEqual({ file: 'café/index.html', canonical: false });
  });

  it('has no file for a query, a hidden or escaping segment', () => {
    expect(at('https://a.example/search?q=1')).toBeNull();
    expect(at('https://a.example/.git/config')).toBeNull();
    expect(at('https://a.example/a%2F..%2F..%2Fetc/')).toBeNull();
    expect(at('https://a.example/a%00b/')).toBeNull();
  });

  it('adds a canonical link only to a page that has none', () => {
    expect(withCanonical(Buffer.from('<html><head><title>T</title></head></html>'), '/a').toString()).toBe(
      '<html><head><link rel="canonical" href="/a"><title>T</title></head></html>',
    );
    const own = Buffer.from('<head><link href="https://a.example/b" rel=canonical></head>');
    expect(withCanonical(own, '/a')).toBe(own);
  });
});

describe('the pace of requests', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('starts requests CRAWL_DELAY_MS apart, however many workers ask at once, and Crawl-delay raises it', async () => {
    vi.useFakeTimers({ now: 0 });
    const pacer = new Pacer(100, new AbortController().signal);
    const started: number[] = [];
    const worker = async (turns: number) => {
      for (let i = 0; i < turns; i += 1) {
        await pacer.turn();
        started.push(Date.now());
      }
    };
    const workers = Promise.all([worker(3), worker(3)]);
    await vi.runAllTimersAsync();
    await workers;
    expect(started).toEqual([0, 100, 200, 300, 400, 500]);
    pacer.atLeast(1000);
    pacer.atLeast(10);
    expect(pacer.spacingMs).toBe(1000);
    const next = worker(2);
    await vi.runAllTimersAsync();
    await next;
    expect(started.slice(6)).toEqual([600, 1600]);
  });
});
