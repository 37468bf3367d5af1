import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISCOVERY_PATHS, skillPath, SKILL_NAME } from '../../src/discovery/index.js';
import { ifNoneMatchMatches } from '../../src/http-primitives/index.js';
import { get, startDiscoveryApp, type DiscoveryApp } from './harness.js';

/** Every companion the spec lists in part 1, plus the ones this room adds, with its media type. */
const DOCUMENTS: [string, string][] = [
  [DISCOVERY_PATHS.openApi, 'application/json; charset=utf-8'],
  [DISCOVERY_PATHS.agentsMd, 'text/markdown; charset=utf-8'],
  [DISCOVERY_PATHS.authMd, 'text/markdown; charset=utf-8'],
  [DISCOVERY_PATHS.apiMd, 'text/markdown; charset=utf-8'],
  [DISCOVERY_PATHS.llmsTxt, 'text/plain; charset=utf-8'],
  [DISCOVERY_PATHS.llmsFullTxt, 'text/plain; charset=utf-8'],
  [DISCOVERY_PATHS.robotsTxt, 'text/plain; charset=utf-8'],
  [DISCOVERY_PATHS.sitemap, 'application/xml; charset=utf-8'],
  [DISCOVERY_PATHS.docs, 'text/html; charset=utf-8'],
  [DISCOVERY_PATHS.developers, 'text/html; charset=utf-8'],
  [DISCOVERY_PATHS.skillsIndex, 'application/json; charset=utf-8'],
  [skillPath(SKILL_NAME), 'text/markdown; charset=utf-8'],
  [DISCOVERY_PATHS.ard, 'application/json; charset=utf-8'],
  [DISCOVERY_PATHS.aiCatalog, 'application/json; charset=utf-8'],
  [DISCOVERY_PATHS.apiCatalog, 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"'],
];

let served: DiscoveryApp;
beforeAll(async () => {
  served = await startDiscoveryApp();
});
afterAll(async () => {
  await served.close();
});

describe.each(DOCUMENTS)('%s', (path, contentType) => {
  it('answers GET with its media type, a strong sha256 ETag, open CORS and a public cache', async () => {
    const response = await get(served.app, path);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(contentType);
    const digest = createHash('sha256').update(response.rawPayload).digest('base64url');
    expect(response.headers.etag).toBe(`"${digest}"`);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['cache-control']).toBe('public, max-age=300');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.rawPayload.length).toBeGreaterThan(0);
  });

  it('answers HEAD with the same headers and no body', async () => {
    const full = await get(served.app, path);
    const head = await served.app.inject({ method: 'HEAD', url: path });
    expect(head.statusCode).toBe(200);
    expect(head.rawPayload.length).toBe(0);
    for (const name of ['content-type', 'etag', 'cache-control', 'access-control-allow-origin', 'link'])
      expect(head.headers[name], name).toEqual(full.headers[name]);
    expect(Number(head.headers['content-length'])).toBe(full.rawPayload.length);
  });

  it('answers 304 without a body to If-None-Match with its ETag (strong, weak, in a list, *)', async () => {
    const { headers } = await get(served.app, path);
    const etag = String(headers.etag);
    for (const condition of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const response = await get(served.app, path, { 'if-none-match': condition });
      expect(response.statusCode, condition).toBe(304);
      expect(response.rawPayload.length).toBe(0);
      expect(response.headers.etag).toBe(etag);
      expect(response.headers['cache-control']).toBe('public, max-age=300');
    }
    const changed = await get(served.app, path, { 'if-none-match': '"something-else"' });
    expect(changed.statusCode).toBe(200);
  });

  it('answers a CORS preflight', async () => {
    const response = await served.app.inject({
      method: 'OPTIONS',
      url: path,
      headers: { origin: 'https://agent.test', 'access-control-request-method': 'GET' },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(String(response.headers['access-control-allow-methods'])).toContain('HEAD');
  });

  it('refuses writes with 405 and an Allow header', async () => {
    const response = await served.app.inject({ method: 'POST', url: path, payload: {} });
    expect(response.statusCode).toBe(405);
    expect(String(response.headers.allow)).toContain('GET');
    expect(response.json()).toMatchObject({ ok: false, code: 'ENDPOINT_NOT_FOUND' });
  });
});

describe('documents are generated once and deterministically', () => {
  it('serves the same bytes on every request and from a second server over the same inputs', async () => {
    const second = await startDiscoveryApp();
    try {
      for (const [path] of DOCUMENTS) {
        const a = await get(served.app, path);
        const b = await get(second.app, path);
        expect(b.rawPayload.equals(a.rawPayload), path).toBe(true);
        expect(b.headers.etag).toBe(a.headers.etag);
      }
    } finally {
      await second.close();
    }
  });
});

describe('If-None-Match comparison', () => {
  it('uses the weak comparison of RFC 9110 and never matches another tag', () => {
    expect(ifNoneMatchMatches(undefined, '"a"')).toBe(false);
    expect(ifNoneMatchMatches('', '"a"')).toBe(false);
    expect(ifNoneMatchMatches('"a"', '"a"')).toBe(true);
    expect(ifNoneMatchMatches('W/"a"', '"a"')).toBe(true);
    expect(ifNoneMatchMatches('"b" , "a"', '"a"')).toBe(true);
    expect(ifNoneMatchMatches('"ab"', '"a"')).toBe(false);
    expect(ifNoneMatchMatches('*', '"a"')).toBe(true);
  });
});
