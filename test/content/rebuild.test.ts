import { rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  buildSite,
  filesToRebuild,
  readContent,
  rebuildSite,
  type LoadedSite,
} from '../../src/content/index.js';
import { contentFolder } from '../support/files.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const PAGES = {
  'index.md': '---\ntitle: Home\n---\n\nSee [the kettle](docs/kettle.md) and [the stand](docs/stand.md).\n',
  'docs/kettle.md': '# Solar kettle\n\nBoils water with sunlight.\n\n## Cleaning\n\nRinse with vinegar.\n',
  'docs/mirror.md': '# Mirror care\n\nPolish the mirror monthly.\n',
  'docs/care.md': '# Care\n\nThe [mirror](mirror.md) needs polish.\n',
};

async function built(
  root: string,
): Promise<{ content: Awaited<ReturnType<typeof readContent>>; loaded: LoadedSite }> {
  const content = await readContent(root);
  return { content, loaded: await buildSite(content) };
}

/** The previous build, as the reloader keeps it. */
const previousOf = (content: Awaited<ReturnType<typeof readContent>>, loaded: LoadedSite) => ({
  site: loaded.site,
  files: loaded.files,
  sourcePaths: content.sourcePaths,
});

describe('rebuildSite: a reload parses only what changed', () => {
  it('equals a full build after a change, an addition and a removal, and shares the unchanged pages', async () => {
    const root = contentFolder(PAGES);
    folders.push(root);
    const before = await built(root);
    // index.md links to docs/stand.md, which does not exist yet: a warning that the addition removes.
    expect(before.loaded.problems.some((p) => p.file === 'index.md' && /leads nowhere/.test(p.message))).toBe(
      true,
    );

    writeFileSync(join(root, 'docs/kettle.md'), '# Sun kettle\n\nBoils water twice as fast.\n');
    writeFileSync(join(root, 'docs/stand.md'), '# Kettle stand\n\nHolds the kettle.\n');
    unlinkSync(join(root, 'docs/mirror.md'));
    const content = await readContent(root);
    const previous = previousOf(before.content, before.loaded);

    // The changed and the added file, and every page whose link target appeared or disappeared.
    expect(filesToRebuild(content, previous)!.map((file) => file.sourcePath)).toEqual([
      'docs/care.md',
      'docs/kettle.md',
      'docs/stand.md',
      'index.md',
    ]);
    const rebuilt = await rebuildSite(content, previous);
    const full = await buildSite(content);
    expect(rebuilt.site).toEqual(full.site);
    expect(rebuilt.problems).toEqual(full.problems);
    expect(rebuilt.files).toEqual(full.files);
    expect(rebuilt.problems.some((p) => p.file === 'index.md')).toBe(false);
    expect(rebuilt.problems.some((p) => p.file === 'docs/care.md' && /leads nowhere/.test(p.message))).toBe(
      true,
    );
  });

  it('rebuilds only the changed file and reuses the other Page objects as they are', async () => {
    const root = contentFolder(PAGES);
    folders.push(root);
    const before = await built(root);
    writeFileSync(join(root, 'docs/mirror.md'), '# Mirror care\n\nPolish with a soft cloth.\n');
    const content = await readContent(root);
    const previous = previousOf(before.content, before.loaded);
    expect(filesToRebuild(content, previous)!.map((file) => file.sourcePath)).toEqual(['docs/mirror.md']);

    const rebuilt = await rebuildSite(content, previous);
    expect(rebuilt.site).toEqual((await buildSite(content)).site);
    for (const url of ['/', '/docs/kettle', '/docs/care'])
      expect(rebuilt.site.byUrl.get(url)).toBe(before.loaded.site.byUrl.get(url));
    expect(rebuilt.site.byUrl.get('/docs/mirror')).not.toBe(before.loaded.site.byUrl.get('/docs/mirror'));
    expect(rebuilt.site.byUrl.get('/docs/mirror')!.description).toBe('Polish with a soft cloth.');
  });

  it('builds again a file that had an error, and keeps reporting it with file and line', async () => {
    const root = contentFolder({ ...PAGES, 'docs/broken.md': '---\ntitle: [unclosed\n---\n\nText.\n' });
    folders.push(root);
    const before = await built(root);
    const errors = before.loaded.problems.filter((p) => p.severity === 'error');
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((p) => p.file === 'docs/broken.md' && p.line !== null)).toBe(true);
    writeFileSync(join(root, 'docs/kettle.md'), '# Solar kettle\n\nNow with a lid.\n');
    const content = await readContent(root);
    const previous = previousOf(before.content, before.loaded);
    expect(filesToRebuild(content, previous)!.map((file) => file.sourcePath)).toEqual([
      'docs/broken.md',
      'docs/kettle.md',
    ]);
    const rebuilt = await rebuildSite(content, previous);
    expect(rebuilt.problems).toEqual((await buildSite(content)).problems);
    expect(rebuilt.problems.filter((p) => p.severity === 'error')).toEqual(errors);
  });
});
