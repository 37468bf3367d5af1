import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { DISCOVERY_PATHS, buildDiscoveryBundle, skillPath, SKILL_NAME } from '../../src/discovery/index.js';
import { discoveryInputOf } from '../../src/http/surfaces/discovery.js';
import { addFile, contentFolder } from '../support/files.js';
import { BASE, get, page, SMALL_SITE, startDiscoveryApp, type DiscoveryApp } from './harness.js';
import { parseLlmsTxt } from './llms-parser.js';

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

async function documents(app: DiscoveryApp, paths: string[]): Promise<Map<string, string>> {
  const bodies = new Map<string, string>();
  for (const path of paths) bodies.set(path, (await get(app.app, path)).body);
  return bodies;
}

describe('the documents cannot go stale', () => {
  it('a page added to the content folder appears in the sitemap, llms.txt, llms-full.txt, /docs and the search', async () => {
    const folder = contentFolder(SMALL_SITE);
    folders.push(folder);
    const paths = [
      DISCOVERY_PATHS.sitemap,
      DISCOVERY_PATHS.llmsTxt,
      DISCOVERY_PATHS.llmsFullTxt,
      DISCOVERY_PATHS.docs,
    ];

    const before = await startDiscoveryApp({ contentDir: folder });
    const old = await documents(before, paths);
    await before.close();
    expect(old.get(DISCOVERY_PATHS.sitemap)).not.toContain('/docs/troubleshooting');

    addFile(
      folder,
      'docs/troubleshooting.md',
      page(
        'Troubleshooting readings',
        'What to do when a meter drifts.',
        'Recalibrate against the zyxquartz reference.',
        ['updated: 2025-05-06'],
      ),
    );
    const after = await startDiscoveryApp({ contentDir: folder });
    try {
      const fresh = await documents(after, paths);
      expect(fresh.get(DISCOVERY_PATHS.sitemap)).toContain(
        `<loc>${BASE}/docs/troubleshooting</loc><lastmod>2025-05-06</lastmod>`,
      );
      const llms = parseLlmsTxt(fresh.get(DISCOVERY_PATHS.llmsTxt)!);
      expect([...llms.sections.values()].flat()).toContainEqual({
        title: 'Troubleshooting readings',
        url: `${BASE}/docs/troubleshooting.md`,
        description: 'What to do when a meter drifts.',
      });
      expect(fresh.get(DISCOVERY_PATHS.llmsFullTxt)).toContain(
        'Recalibrate against the zyxquartz reference.',
      );
      expect(fresh.get(DISCOVERY_PATHS.docs)).toContain('href="/docs/troubleshooting"');
      const answer = after.context.ask.answer(
        { text: 'zyxquartz', maxResults: 5, conversationId: null },
        'x',
      );
      expect(JSON.stringify(answer)).toContain(`${BASE}/docs/troubleshooting`);
    } finally {
      await after.close();
    }
  });

  it('the site details flow into every document that names the company', async () => {
    const folder = contentFolder(SMALL_SITE);
    folders.push(folder);
    const app = await startDiscoveryApp({ contentDir: folder });
    try {
      for (const path of [
        DISCOVERY_PATHS.llmsTxt,
        DISCOVERY_PATHS.agentsMd,
        DISCOVERY_PATHS.apiMd,
        DISCOVERY_PATHS.ard,
        skillPath(SKILL_NAME),
      ])
        expect((await get(app.app, path)).body, path).toContain('Lumen Labs');
      const openApi = (await get(app.app, DISCOVERY_PATHS.openApi)).json() as {
        info: { title: string; contact: { email: string } };
      };
      expect(openApi.info).toMatchObject({
        title: 'Lumen Labs public website API',
        contact: { email: 'hello@lumen.test' },
      });
      // A bracket in a page title cannot break the llms.txt reference parser.
      const llms = parseLlmsTxt((await get(app.app, DISCOVERY_PATHS.llmsTxt)).body);
      expect([...llms.sections.values()].flat().map((link) => link.title)).toContain('Products (2025)');
    } finally {
      await app.close();
    }
  });

  it('a changed contract value changes /openapi.json, /api.md, the skill and its digest together', async () => {
    const folder = contentFolder(SMALL_SITE);
    folders.push(folder);
    const app = await startDiscoveryApp({ contentDir: folder });
    try {
      const input = discoveryInputOf(app.context);
      const a = buildDiscoveryBundle(input);
      const b = buildDiscoveryBundle({ ...input, bodyLimitBytes: input.bodyLimitBytes * 2 });
      const skill = skillPath(SKILL_NAME);
      for (const path of [
        DISCOVERY_PATHS.openApi,
        DISCOVERY_PATHS.apiMd,
        skill,
        DISCOVERY_PATHS.skillsIndex,
        DISCOVERY_PATHS.developers,
      ]) {
        expect(b.documents.get(path)!.etag, path).not.toBe(a.documents.get(path)!.etag);
        if (path !== DISCOVERY_PATHS.skillsIndex)
          expect(b.documents.get(path)!.body.toString('utf8'), path).toContain(
            String(input.bodyLimitBytes * 2),
          );
      }
      const index = JSON.parse(b.documents.get(DISCOVERY_PATHS.skillsIndex)!.body.toString('utf8')) as {
        skills: { digest: string }[];
      };
      expect(index.skills[0]!.digest).toBe(
        `sha256:${createHash('sha256').update(b.documents.get(skill)!.body).digest('hex')}`,
      );
    } finally {
      await app.close();
    }
  });
});
