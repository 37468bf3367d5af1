import { appendFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  buildSite,
  filesToRebuild,
  readContent,
  readUnread,
  rebuildSite,
  type ContentFiles,
  type LoadedSite,
} from '../../src/content/index.js';
import { contentFolder } from '../support/files.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const PAGES = {
  'index.md': '---\ntitle: Home\n---\n\nSee [the kettle](docs/kettle.md).\n',
  'docs/kettle.md': '# Solar kettle\n\nBoils water with sunlight.\n',
  'docs/mirror.md': '# Mirror care\n\nPolish the mirror monthly.\n',
  'docs/broken.md': '---\ntitle: [unclosed\n---\n\nText.\n',
};

/** The files were just written: with no settle time their stamps are trusted at once. */
const NO_SETTLE = { stampSettleMs: 0 };

async function firstBuild(root: string): Promise<{ content: ContentFiles; loaded: LoadedSite }> {
  const content = await readContent(root, NO_SETTLE);
  return { content, loaded: await buildSite(content) };
}

const knownOf = (loaded: LoadedSite) => new Map(loaded.files.map((file) => [file.sourcePath, file]));
const previousOf = (content: ContentFiles, loaded: LoadedSite) => ({
  site: loaded.site,
  files: loaded.files,
  sourcePaths: content.sourcePaths,
});
const paths = (files: readonly { sourcePath: string }[]) => files.map((file) => file.sourcePath);

describe('reading a folder again: files whose stamp did not change are not read', () => {
  it('skips the unchanged files, with the same hash as reading them all', async () => {
    const root = contentFolder(PAGES);
    folders.push(root);
    const { loaded } = await firstBuild(root);
    expect(loaded.files.every((file) => typeof file.stamp === 'string')).toBe(true);

    appendFileSync(join(root, 'docs/kettle.md'), '\nNow with a lid.\n');
    const again = await readContent(root, { ...NO_SETTLE, known: knownOf(loaded) });
    expect(paths(again.files)).toEqual(['docs/kettle.md']);
    expect(paths(again.unread)).toEqual(['docs/broken.md', 'docs/mirror.md', 'index.md']);
    expect(again.hash).toBe((await readContent(root)).hash);
  });

  it('reads a file rewritten with the same size and modification time (its change time moved)', async () => {
    const root = contentFolder(PAGES);
    folders.push(root);
    const file = join(root, 'docs/mirror.md');
    // A whole second, so that setting it again gives the very same nanoseconds.
    const day = new Date('2026-01-02T03:04:05Z');
    utimesSync(file, day, day);
    const { loaded } = await firstBuild(root);
    const before = statSync(file, { bigint: true });
    // With no settle time, the test itself waits for the file system's clock to tick on.
    await new Promise((resolve) => setTimeout(resolve, 50));
    writeFileSync(file, '# Mirror care\n\nPolish the mirror nightly.\n');
    utimesSync(file, day, day);
    const after = statSync(file, { bigint: true });
    expect([after.size, after.mtimeNs, after.ino]).toEqual([before.size, before.mtimeNs, before.ino]);

    const again = await readContent(root, { ...NO_SETTLE, known: knownOf(loaded) });
    expect(paths(again.files)).toEqual(['docs/mirror.md']);
    expect(again.hash).toBe((await readContent(root)).hash);
  });

  it('gives no stamp to a file changed moments ago, so it is read every time until it settles', async () => {
    const root = contentFolder(PAGES);
    folders.push(root);
    const content = await readContent(root);
    expect(content.files.every((file) => file.stamp === undefined)).toBe(true);
    const loaded = await buildSite(content);
    const again = await readContent(root, { known: knownOf(loaded) });
    expect(again.unread).toEqual([]);
    expect(again.files).toHaveLength(4);
  });

  it('rebuilds from unread files as from read ones, reading only those it must parse', async () => {
    const root = contentFolder(PAGES);
    folders.push(root);
    const first = await firstBuild(root);
    writeFileSync(join(root, 'docs/kettle.md'), '# Sun kettle\n\nBoils water twice as fast.\n');
    const listed = await readContent(root, { ...NO_SETTLE, known: knownOf(first.loaded) });
    const previous = previousOf(first.content, first.loaded);
    // The page with an error is built again every time (unread here), the changed one too.
    expect(paths(filesToRebuild(listed, previous)!)).toEqual(['docs/broken.md', 'docs/kettle.md']);
    await expect(rebuildSite(listed, previous)).rejects.toThrow(/readUnread/);
    await expect(buildSite(listed)).rejects.toThrow(/readUnread/);

    const needed = await readUnread(listed, NO_SETTLE, ['docs/broken.md']);
    expect(paths(needed.files)).toEqual(['docs/broken.md', 'docs/kettle.md']);
    expect(paths(needed.unread)).toEqual(['docs/mirror.md', 'index.md']);
    expect(needed.hash).toBe(listed.hash);
    const rebuilt = await rebuildSite(needed, previous);
    const full = await buildSite(await readContent(root));
    expect(rebuilt.site).toEqual(full.site);
    expect(rebuilt.problems).toEqual(full.problems);
    // Unchanged pages are the very objects of the previous build, and keep their stamps.
    expect(rebuilt.site.byUrl.get('/docs/mirror')).toBe(first.loaded.site.byUrl.get('/docs/mirror'));
    expect(rebuilt.files.find((file) => file.sourcePath === 'index.md')!.stamp).toBe(
      first.loaded.files.find((file) => file.sourcePath === 'index.md')!.stamp,
    );
  });

  it('reads the whole folder again when an unread file changed after the listing', async () => {
    const root = contentFolder(PAGES);
    folders.push(root);
    const { loaded } = await firstBuild(root);
    const listed = await readContent(root, { ...NO_SETTLE, known: knownOf(loaded) });
    expect(listed.files).toEqual([]);
    appendFileSync(join(root, 'index.md'), '\nA late change.\n');
    const completed = await readUnread(listed, NO_SETTLE);
    expect(completed.unread).toEqual([]);
    expect(completed.files).toHaveLength(4);
    expect(completed.hash).not.toBe(listed.hash);
    expect(completed.hash).toBe((await readContent(root)).hash);
  });
});
