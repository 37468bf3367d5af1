import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markdownOf } from '../../src/content/index.js';
import { DISCOVERY_PATHS } from '../../src/discovery/index.js';
import { BASE, get, pathOf, startDiscoveryApp, type DiscoveryApp } from './harness.js';
import { LlmsParseError, parseLlmsTxt } from './llms-parser.js';

let served: DiscoveryApp;
beforeAll(async () => {
  served = await startDiscoveryApp();
});
afterAll(async () => {
  await served.close();
});

describe('the llms.txt parser', () => {
  it('reads the llmstxt.org layout', () => {
    const file = parseLlmsTxt(
      '# Name\n\n> Summary line.\n\nSome prose.\n\n## Docs\n\n- [A](https://a.test/a.md): note\n- [B](https://a.test/b)\n\n## Optional\n\n- [C](https://a.test/c): more\n',
    );
    expect(file.title).toBe('Name');
    expect(file.summary).toBe('Summary line.');
    expect(file.info).toBe('Some prose.');
    expect([...file.sections.keys()]).toEqual(['Docs', 'Optional']);
    expect(file.sections.get('Docs')).toEqual([
      { title: 'A', url: 'https://a.test/a.md', description: 'note' },
      { title: 'B', url: 'https://a.test/b', description: null },
    ]);
  });

  it('fails on what breaks the reference parser', () => {
    const bad = [
      'No heading\n\n## S\n\n- [A](https://a.test/)\n',
      '# Name\n\n> Summary\n\n## S\n\nA prose line under a section.\n',
      '# Name\n\n> Summary\n\n# A second H1 in the prose\n\n## S\n\n- [A](https://a.test/)\n',
      '# Name\n\n## S\n\n- [A \\] B](https://a.test/)\n',
    ];
    for (const text of bad) expect(() => parseLlmsTxt(text), text).toThrow(LlmsParseError);
  });
});

describe('/llms.txt', () => {
  it('follows the layout: H1, one summary line, prose, link-list sections, Optional last', async () => {
    const text = (await get(served.app, DISCOVERY_PATHS.llmsTxt)).body;
    const file = parseLlmsTxt(text);
    expect(file.title).toBe(served.site.info.name);
    expect(file.summary).not.toBeNull();
    expect(file.info).toMatch(/explicitly approved/);
    const names = [...file.sections.keys()];
    expect(names.at(-1)).toBe('Optional');
    expect(names[0]).toBe('API and agent guides');
    for (const links of file.sections.values())
      for (const link of links) {
        expect(link.url.startsWith(`${BASE}/`), link.url).toBe(true);
        expect(link.description, link.url).toBeTruthy();
      }
  });

  it('links every public page (to its Markdown twin) exactly once', async () => {
    const file = parseLlmsTxt((await get(served.app, DISCOVERY_PATHS.llmsTxt)).body);
    const urls = [...file.sections.values()].flat().map((link) => link.url);
    expect(new Set(urls).size).toBe(urls.length);
    for (const page of served.site.pages) {
      const twin = page.url.endsWith('/') ? `${page.url}index.md` : `${page.url}.md`;
      expect(urls, page.url).toContain(`${BASE}${encodeURI(twin)}`);
    }
    for (const path of [
      DISCOVERY_PATHS.openApi,
      DISCOVERY_PATHS.apiMd,
      DISCOVERY_PATHS.agentsMd,
      DISCOVERY_PATHS.llmsFullTxt,
    ])
      expect(urls).toContain(`${BASE}${path}`);
    for (const url of urls) expect(pathOf(url)).toMatch(/^\//);
  });
});

describe('/llms-full.txt', () => {
  it('holds every public page’s Markdown twin with its address', async () => {
    const text = (await get(served.app, DISCOVERY_PATHS.llmsFullTxt)).body;
    expect(text.startsWith(`# ${served.site.info.name}\n\n> `)).toBe(true);
    for (const page of served.site.pages) {
      expect(text, page.url).toContain(`Source: ${BASE}${encodeURI(page.url)}`);
      const body = markdownOf(page).split('\n').slice(1).join('\n').trim();
      if (body !== '') expect(text, page.url).toContain(body);
    }
  });
});
