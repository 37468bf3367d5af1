import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NlWebResponse } from '../../../src/contract/index.js';
import { startAskServer, type AskApp } from '../../support/servers.js';
import { FILES, resultsOf } from '../../nlweb/multilingual-site.js';

describe('Accept-Language over HTTP', () => {
  let server: AskApp;
  beforeAll(async () => {
    server = await startAskServer(FILES, { cacheSize: 10 });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('publishes the header for GET and POST /ask in /openapi.json', async () => {
    const document = (await server.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
    };
    for (const method of ['get', 'post']) {
      const parameters = document.paths['/ask']![method]!.parameters ?? [];
      expect(parameters.some((p) => p.name === 'Accept-Language' && p.in === 'header')).toBe(true);
    }
  });

  it('answers in the asker’s language on the route and on the fast path alike, valid against /openapi.json', async () => {
    const viaRoute = await server.app.inject({
      method: 'POST',
      url: '/ask',
      headers: { 'content-type': 'application/json', 'accept-language': 'fr;q=0.9, en;q=0.1' },
      payload: JSON.stringify({ query: { text: 'archive' } }),
    });
    expect(viaRoute.statusCode).toBe(200);
    expect(viaRoute.headers.vary).toContain('Accept-Language');
    const routeBody = viaRoute.json() as NlWebResponse;
    server.contract.expectResponse('POST', '/ask', 200, 'application/json', routeBody);
    const routeResults = resultsOf(routeBody);
    expect(routeResults.length).toBeGreaterThan(0);
    for (const result of routeResults) expect(result.inLanguage).toBe('fr');

    // A real GET goes through the fast path (src/http/ask-fast-path.ts).
    for (const [header, lang] of [
      ['de', 'de'],
      ['fr', 'fr'],
      ['de', 'de'],
    ] as const) {
      const response = await fetch(`${server.url}/ask?query=archiv`, {
        headers: { 'accept-language': header },
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as NlWebResponse;
      server.contract.expectResponse('GET', '/ask', 200, 'application/json', body);
      const results = resultsOf(body);
      expect(results.length).toBeGreaterThan(0);
      for (const result of results) expect(result.inLanguage).toBe(lang);
    }
  });
});
