import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/index.js';
import { DISCOVERY_PATHS, SKILL_NAME, skillPath } from '../../src/discovery/index.js';
import { PublishedContract } from '../support/openapi.js';
import { buildTestApp, TEST_BASE_URL, type TestApp } from '../support/servers.js';

/*
 * PAGES=off and CORS_ORIGINS (docs/beside-your-site.md): the server runs beside a site served
 * elsewhere at PUBLIC_BASE_URL (TEST_BASE_URL here), serving the API, the discovery documents and
 * the embed, and no page of its own.
 */

const SITE_DOCS = 'https://docs.example.test';
const OTHER_SITE = 'https://other.example.test';

let beside: TestApp;
let withPages: TestApp;
beforeAll(async () => {
  beside = await buildTestApp({ PAGES: 'off', CORS_ORIGINS: `${SITE_DOCS}, ${TEST_BASE_URL}` });
  withPages = await buildTestApp();
});
afterAll(async () => {
  await beside?.close();
  await withPages?.close();
});

const lead = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@sponsor.example',
  company: 'Example Therapeutics',
};

describe('PAGES=off: no page of its own', () => {
  // Every kind of page the server serves with PAGES=on: content, search, form routes, twins, assets.
  const pagePaths = [
    '/',
    '/solutions/cros',
    '/solutions/cros.md',
    '/search?q=protocol',
    '/demo',
    '/assets/site.css',
  ];

  it('serves those paths with PAGES=on (so the next test is about PAGES=off)', async () => {
    for (const url of pagePaths) {
      const response = await withPages.app.inject({ url, headers: { accept: 'text/html' } });
      expect(response.statusCode, url).toBe(200);
    }
  });

  it('answers them, the root included, with the 404 Error envelope, also to a browser', async () => {
    for (const url of [...pagePaths, '/docs', '/developers', '/no/such/page']) {
      const response = await beside.app.inject({ url, headers: { accept: 'text/html,*/*;q=0.8' } });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type'], url).toBe('application/json; charset=utf-8');
      expect(response.json(), url).toMatchObject({ ok: false, code: 'ENDPOINT_NOT_FOUND' });
    }
  });

  it('refuses the no-JavaScript form routes: there is no form page to return to', async () => {
    const response = await beside.app.inject({
      method: 'POST',
      url: '/forms/demo-request',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: TEST_BASE_URL },
      payload: new URLSearchParams(lead).toString(),
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'ENDPOINT_NOT_FOUND' });
  });

  it('serves /ask with results on the real site, health and readiness', async () => {
    const ask = await beside.app.inject({ url: '/ask?query=protocol+authoring' });
    expect(ask.statusCode).toBe(200);
    const urls = (ask.json().content as { type: string; resource?: { data: { url: string } } }[])
      .filter((item) => item.type === 'resource')
      .map((item) => item.resource!.data.url);
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(url.startsWith(`${TEST_BASE_URL}/`), url).toBe(true);
    const contract = new PublishedContract((await beside.app.inject({ url: '/openapi.json' })).json());
    contract.expectResponse('GET', '/ask', 200, String(ask.headers['content-type']), ask.json());
    for (const url of ['/healthz', '/readyz'])
      expect((await beside.app.inject({ url })).statusCode, url).toBe(200);
  });
});

describe('PAGES=off: the discovery documents describe the real site', () => {
  const servedDocuments = [
    DISCOVERY_PATHS.openApi,
    DISCOVERY_PATHS.agentsMd,
    DISCOVERY_PATHS.authMd,
    DISCOVERY_PATHS.apiMd,
    DISCOVERY_PATHS.llmsTxt,
    DISCOVERY_PATHS.llmsFullTxt,
    DISCOVERY_PATHS.apiCatalog,
    DISCOVERY_PATHS.ard,
    DISCOVERY_PATHS.aiCatalog,
    DISCOVERY_PATHS.skillsIndex,
    skillPath(SKILL_NAME),
  ];
  // The site keeps its own robots.txt, sitemap and documentation pages.
  const siteOwn = [DISCOVERY_PATHS.robotsTxt, DISCOVERY_PATHS.sitemap, '/sitemaps/1.xml'];

  it('serves the API documents and not the site’s own (robots.txt, sitemap)', async () => {
    for (const url of servedDocuments) expect((await beside.app.inject({ url })).statusCode, url).toBe(200);
    for (const url of siteOwn) {
      const response = await beside.app.inject({ url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json(), url).toMatchObject({ code: 'ENDPOINT_NOT_FOUND' });
    }
  });

  it('links to nothing it does not serve: no sitemap, robots.txt, /docs or /developers', async () => {
    const unserved = [...siteOwn, '/docs', '/developers'].map((path) => `${TEST_BASE_URL}${path}`);
    const linksTo = (text: string, link: string) =>
      // A link is the address followed by its end (quote, bracket, space, line end).
      new RegExp(`${link.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(?=["')\\s>]|$)`, 'm').test(text);
    // With pages, the same documents do link to them (so the check below can fail).
    const withPagesLlms = (await withPages.app.inject({ url: DISCOVERY_PATHS.llmsTxt })).body;
    expect(linksTo(withPagesLlms, `${TEST_BASE_URL}${DISCOVERY_PATHS.sitemap}`)).toBe(true);
    expect(linksTo(withPagesLlms, `${TEST_BASE_URL}/developers`)).toBe(true);
    for (const url of servedDocuments) {
      const text = (await beside.app.inject({ url })).body;
      for (const link of unserved) expect(linksTo(text, link), `${url} links to ${link}`).toBe(false);
    }
  });

  it('every address on the site that the documents give is a content page or answered here', async () => {
    const pages = new Set(beside.context.site.pages.map((page) => page.url));
    const addresses = new Set<string>();
    for (const url of servedDocuments) {
      const text = (await beside.app.inject({ url })).body;
      for (const match of text.matchAll(/https:\/\/www\.example\.test(\/[^\s)"'>\]`\\]*)?/g))
        // Without the query, the fragment and a sentence's closing punctuation.
        addresses.add((match[1] ?? '/').split(/[?#]/)[0]!.replace(/[.,;:]+$/, ''));
    }
    expect(addresses.size).toBeGreaterThan(20);
    const dangling: string[] = [];
    for (const path of addresses) {
      if (pages.has(decodeURI(path))) continue;
      // The API's own paths answer something other than 404 to a GET (405, 400 or 200).
      const { statusCode } = await beside.app.inject({ url: path });
      if (statusCode === 404) dangling.push(path);
    }
    expect(dangling).toEqual([]);
  });

  it('llms.txt links every page to the site’s own page (not a Markdown twin) and says so', async () => {
    const text = (await beside.app.inject({ url: DISCOVERY_PATHS.llmsTxt })).body;
    expect(text).toContain('Every page below is linked to the page itself.');
    const pageLinks = [...text.matchAll(/\]\((https:\/\/www\.example\.test\/[^)]*)\)/g)].map((m) => m[1]!);
    const pages = pageLinks.filter((link) => !/\.(json|md|txt)$|\/\.well-known\//.test(link));
    expect(pages).toContain(`${TEST_BASE_URL}/solutions/cros`);
    expect(pageLinks.filter((link) => link.endsWith('/solutions/cros.md'))).toEqual([]);
    const withPagesText = (await withPages.app.inject({ url: DISCOVERY_PATHS.llmsTxt })).body;
    expect(withPagesText).toContain(`${TEST_BASE_URL}/solutions/cros.md`);
  });

  it('the api-catalog documents the API by its Markdown reference only, at PUBLIC_BASE_URL', async () => {
    const catalog = (await beside.app.inject({ url: DISCOVERY_PATHS.apiCatalog })).json() as {
      linkset: { anchor: string; 'service-doc'?: { href: string }[] }[];
    };
    expect(catalog.linkset[1]!.anchor).toBe(TEST_BASE_URL);
    expect(catalog.linkset[1]!['service-doc']!.map((link) => link.href)).toEqual([
      `${TEST_BASE_URL}${DISCOVERY_PATHS.apiMd}`,
    ]);
  });
});

describe('CORS_ORIGINS on the form APIs', () => {
  const preflight = (app: TestApp, origin: string) =>
    app.app.inject({
      method: 'OPTIONS',
      url: '/api/leads',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,idempotency-key,form-fill-ms',
      },
    });

  it('answers a listed origin’s preflight with the methods and headers the forms send', async () => {
    for (const url of ['/api/leads', '/api/document-suggestions']) {
      const response = await beside.app.inject({ method: 'OPTIONS', url, headers: { origin: SITE_DOCS } });
      expect(response.statusCode, url).toBe(204);
      expect(response.headers['access-control-allow-origin'], url).toBe(SITE_DOCS);
      expect(response.headers['access-control-allow-methods'], url).toBe('POST, OPTIONS');
      expect(response.headers['access-control-allow-headers'], url).toBe(
        'Content-Type, Accept, Idempotency-Key, Form-Honeypot, Form-Fill-Ms',
      );
      expect(response.headers['access-control-allow-credentials'], url).toBeUndefined();
      expect(response.headers.vary, url).toContain('Origin');
    }
  });

  it('gives any other origin’s preflight nothing to allow it with', async () => {
    const response = await preflight(beside, OTHER_SITE);
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    expect(response.headers['access-control-allow-headers']).toBeUndefined();
  });

  it('accepts a listed origin’s post even when the browser calls it cross-site, and names the origin', async () => {
    const response = await beside.app.inject({
      method: 'POST',
      url: '/api/leads',
      headers: {
        origin: SITE_DOCS,
        'sec-fetch-site': 'cross-site',
        'content-type': 'application/json',
        'idempotency-key': 'beside-1',
      },
      payload: lead,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe(SITE_DOCS);
    expect(response.headers.vary).toContain('Origin');
    // The page's script may read the rate-limit state and the request id of the answer.
    expect(response.headers['access-control-expose-headers']).toBe(
      'Retry-After, RateLimit, RateLimit-Policy, X-Request-Id',
    );
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
    const contract = new PublishedContract((await beside.app.inject({ url: '/openapi.json' })).json());
    contract.expectResponse(
      'POST',
      '/api/leads',
      200,
      String(response.headers['content-type']),
      response.json(),
    );
  });

  it('still refuses any other origin (cross-site or not), without CORS headers', async () => {
    for (const headers of [
      { origin: OTHER_SITE },
      { origin: OTHER_SITE, 'sec-fetch-site': 'cross-site' },
      { origin: 'null' },
      { origin: `${SITE_DOCS}.evil.test` },
      { 'sec-fetch-site': 'cross-site' },
    ]) {
      const response = await beside.app.inject({
        method: 'POST',
        url: '/api/leads',
        headers: { ...headers, 'content-type': 'application/json' },
        payload: lead,
      });
      expect(response.statusCode, JSON.stringify(headers)).toBe(400);
      expect(response.json().message, JSON.stringify(headers)).toContain('Origin');
      expect(response.headers['access-control-allow-origin'], JSON.stringify(headers)).toBeUndefined();
    }
  });

  it('puts the allowed origin on error answers too, so the page can show them', async () => {
    const response = await beside.app.inject({
      method: 'POST',
      url: '/api/leads',
      headers: { origin: SITE_DOCS, 'content-type': 'application/json' },
      payload: { email: 'not an address' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.headers['access-control-allow-origin']).toBe(SITE_DOCS);
  });

  it('without CORS_ORIGINS the form APIs send no CORS headers and have no preflight', async () => {
    const response = await preflight(withPages, TEST_BASE_URL);
    expect(response.statusCode).not.toBe(204);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    const post = await withPages.app.inject({
      method: 'POST',
      url: '/api/leads',
      headers: { origin: TEST_BASE_URL, 'content-type': 'application/json' },
      payload: { ...lead, email: 'grace@sponsor.example' },
    });
    expect(post.statusCode).toBe(200);
    expect(post.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('/openapi.json says which origins may call the forms, and says nothing of CORS without them', async () => {
    const listed = (await beside.app.inject({ url: '/openapi.json' })).json();
    const operation = listed.paths['/api/leads'].post;
    expect(operation.description).toContain(`pages on \`${SITE_DOCS}\`, \`${TEST_BASE_URL}\``);
    expect(operation.responses['200'].headers['Access-Control-Allow-Origin'].schema.enum).toEqual([
      SITE_DOCS,
      TEST_BASE_URL,
    ]);
    const plain = (await withPages.app.inject({ url: '/openapi.json' })).json();
    expect(plain.paths['/api/leads'].post.description).not.toContain('CORS');
    expect(
      plain.paths['/api/leads'].post.responses['200'].headers['Access-Control-Allow-Origin'],
    ).toBeUndefined();
  });
});

describe('the embed’s files and form markup', () => {
  it('serves frontdoor.js, its modules and frontdoor.css readable from any origin', async () => {
    for (const [name, type] of [
      ['frontdoor.js', 'text/javascript; charset=utf-8'],
      ['live-search.js', 'text/javascript; charset=utf-8'],
      ['form-enhance.js', 'text/javascript; charset=utf-8'],
      ['frontdoor.css', 'text/css; charset=utf-8'],
    ] as const) {
      const response = await beside.app.inject({ url: `/embed/${name}` });
      expect(response.statusCode, name).toBe(200);
      expect(response.headers['content-type'], name).toBe(type);
      expect(response.headers['access-control-allow-origin'], name).toBe('*');
    }
    // Only the embed lives there: the site's other assets do not.
    expect((await beside.app.inject({ url: '/embed/site.css' })).statusCode).toBe(404);
  });

  it('renders a form with the page it sits on as sourcePage where the contract allows it', async () => {
    const form = (kind: string, page: string) =>
      beside.app.inject({ url: `/embed/forms/${kind}?page=${encodeURIComponent(page)}` });
    const demo = await form('demo', '/pricing');
    expect(demo.statusCode).toBe(200);
    expect(demo.headers['access-control-allow-origin']).toBe('*');
    expect(demo.body).toContain('<input type="hidden" name="sourcePage" value="/pricing">');
    expect(demo.body).toContain('data-endpoint="/api/leads"');
    // Only ever sent by script: no route on the host site to post to.
    expect(demo.body).not.toMatch(/\saction=/);
    expect(demo.body).not.toMatch(/<script|\sstyle=/);
    const suggestion = await form('suggestion', '/solutions/cros');
    expect(suggestion.body).toContain('name="sourcePage" value="/solutions/cros"');
    // The suggestion's sourcePage must be a solution page; `//host` is never a path.
    expect((await form('suggestion', '/pricing')).body).not.toContain('name="sourcePage"');
    expect((await form('demo', '//evil.test/x')).body).not.toContain('name="sourcePage"');
    const unknown = await form('newsletter', '/');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'ENDPOINT_NOT_FOUND' });
  });
});

describe('PAGES and CORS_ORIGINS are validated at start-up', () => {
  const problemsOf = (env: Record<string, string>): string[] => {
    try {
      loadConfig(env);
    } catch (error) {
      if (error instanceof ConfigError) return error.problems;
      throw error;
    }
    return [];
  };

  it('names the variable and the fix', () => {
    expect(problemsOf({ PAGES: 'maybe' })).toEqual([
      expect.stringMatching(/^PAGES="maybe" .*use on .* or off/),
    ]);
    for (const entry of [
      '*',
      'https://x.example/path',
      'ftp://x.example',
      'https://u:p@x.example',
      'x.example',
      'https://x.example?a',
    ])
      expect(problemsOf({ CORS_ORIGINS: `https://ok.example, ${entry}` }), entry).toEqual([
        expect.stringMatching(/^CORS_ORIGINS entry ".*" is not an origin: write scheme, host and port only/),
      ]);
  });

  it('keeps each origin once, as a browser sends it', () => {
    const config = loadConfig({
      CORS_ORIGINS: 'https://A.example/, https://a.example:443,http://b.example:8080',
    });
    expect(config.corsOrigins).toEqual(['https://a.example', 'http://b.example:8080']);
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(loadConfig({}).pages).toBe(true);
  });
});
