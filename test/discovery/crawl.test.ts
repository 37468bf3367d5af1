import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISCOVERY_PATHS } from '../../src/discovery/index.js';
import { BASE, get, pathOf, startDiscoveryApp, type DiscoveryApp } from './harness.js';
import { parseLlmsTxt } from './llms-parser.js';

/**
 * An agent arriving with nothing but the address: every link in the sitemap, llms.txt, the API
 * catalog, the skills index and the ARD catalog must answer 2xx from the whole application.
 */
let served: DiscoveryApp;
beforeAll(async () => {
  served = await startDiscoveryApp({ routes: 'full' });
});
afterAll(async () => {
  await served.close();
});

async function linksOf(): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const add = (source: string, url: string) => {
    if (!found.has(url)) found.set(url, source);
  };
  const sitemap = (await get(served.app, DISCOVERY_PATHS.sitemap)).body;
  for (const [, loc] of sitemap.matchAll(/<loc>([^<]*)<\/loc>/g))
    add('sitemap.xml', loc!.replace(/&amp;/g, '&'));
  const llms = parseLlmsTxt((await get(served.app, DISCOVERY_PATHS.llmsTxt)).body);
  for (const link of [...llms.sections.values()].flat()) add('llms.txt', link.url);
  const catalog = (await get(served.app, DISCOVERY_PATHS.apiCatalog)).json() as {
    linkset: Record<string, { href: string }[] | string>[];
  };
  for (const context of catalog.linkset)
    for (const [relation, targets] of Object.entries(context))
      if (relation !== 'anchor')
        for (const target of targets as { href: string }[]) add('api-catalog', target.href);
  const skills = (await get(served.app, DISCOVERY_PATHS.skillsIndex)).json() as { skills: { url: string }[] };
  for (const skill of skills.skills)
    add('agent-skills', new URL(skill.url, `${BASE}${DISCOVERY_PATHS.skillsIndex}`).href);
  const ard = (await get(served.app, DISCOVERY_PATHS.ard)).json() as { entries: { url: string }[] };
  // The /ask entry names the endpoint; it is followed with a question, as an agent would call it.
  for (const entry of ard.entries)
    add('ard.json', entry.url.endsWith('/ask') ? `${entry.url}?query=demo` : entry.url);
  return found;
}

describe('crawl from the discovery documents', () => {
  it('every linked URL answers 2xx', async () => {
    const links = await linksOf();
    expect(links.size).toBeGreaterThan(served.site.pages.length);
    const failures: string[] = [];
    for (const [url, source] of links) {
      const response = await served.app.inject({ method: 'GET', url: pathOf(url) });
      if (response.statusCode < 200 || response.statusCode > 299)
        failures.push(`${response.statusCode} ${url} (from ${source})`);
    }
    expect(failures).toEqual([]);
  });

  it('the home page carries the RFC 9727 api-catalog Link header', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      const response = await served.app.inject({ method, url: '/' });
      expect(response.statusCode).toBe(200);
      expect(String(response.headers.link)).toContain(`<${BASE}/.well-known/api-catalog>; rel="api-catalog"`);
    }
  });

  it('the site’s pages announce the agent catalogs in their head', async () => {
    const html = (await get(served.app, '/')).body;
    expect(html).toMatch(/<link rel="ard" href="[^"]*\/\.well-known\/ard\.json"/);
    expect(html).toMatch(/<link rel="api-catalog" href="[^"]*\/\.well-known\/api-catalog"/);
  });
});
