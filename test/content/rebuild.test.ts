import { appendFileSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  buildSite,
  filesToRebuild,
  readContent,
  readUnread,
  rebuildSite,
  type LoadedSite,
} from '../../src/content/index.js';
import { contentFolder } from '../support/files.js';
import { waitFor } from '../support/net.js';

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
  options: { stampSettleMs?: number } = {},
): Promise<{ content: Awaited<ReturnType<typeof readContent>>; loaded: LoadedSite }> {
  const content = await readContent(root, options);
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

  it('does not build again an unchanged file that had an error, and keeps reporting it with file and line', async () => {
    const root = contentFolder({ ...PAGES, 'docs/broken.md': '---\ntitle: [unclosed\n---\n\nText.\n' });
    folders.push(root);
    const before = await built(root);
    const errors = before.loaded.problems.filter((p) => p.severity === 'error');
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((p) => p.file === 'docs/broken.md' && p.line !== null)).toBe(true);
    writeFileSync(join(root, 'docs/kettle.md'), '# Solar kettle\n\nNow with a lid.\n');
    const content = await readContent(root);
    const previous = previousOf(before.content, before.loaded);
    expect(filesToRebuild(content, previous)!.map((file) => file.sourcePath)).toEqual(['docs/kettle.md']);
    const rebuilt = await rebuildSite(content, previous);
    expect(rebuilt.problems).toEqual((await buildSite(content)).problems);
    expect(rebuilt.problems.filter((p) => p.severity === 'error')).toEqual(errors);
  });
});

const STAMPED_PAGES = {
  'index.md': '---\ntitle: Home\n---\n\nSee [the kettle](docs/kettle.md).\n',
  'docs/kettle.md': '# Solar kettle\n\nBoils water with sunlight.\n',
  'docs/mirror.md': '# Mirror care\n\nPolish the mirror monthly.\n',
  'docs/broken.md': '---\ntitle: [unclosed\n---\n\nText.\n',
};

/** The files were just written: with no settle time their stamps are trusted at once. */
const NO_SETTLE = { stampSettleMs: 0 };

const knownOf = (loaded: LoadedSite) => new Map(loaded.files.map((file) => [file.sourcePath, file]));
const paths = (files: readonly { sourcePath: string }[]) => files.map((file) => file.sourcePath);

describe('reading a folder again: files whose stamp did not change are not read', () => {
  it('skips the unchanged files, with the same hash as reading them all', async () => {
    const root = contentFolder(STAMPED_PAGES);
    folders.push(root);
    const { loaded } = await built(root, NO_SETTLE);
    expect(loaded.files.every((file) => typeof file.stamp === 'string')).toBe(true);

    appendFileSync(join(root, 'docs/kettle.md'), '\nNow with a lid.\n');
    const again = await readContent(root, { ...NO_SETTLE, known: knownOf(loaded) });
    expect(paths(again.files)).toEqual(['docs/kettle.md']);
    expect(paths(again.unread)).toEqual(['docs/broken.md', 'docs/mirror.md', 'index.md']);
    expect(again.hash).toBe((await readContent(root)).hash);
  });

  it('reads a file rewritten with the same size and modification time (its change time moved)', async () => {
    const root = contentFolder(STAMPED_PAGES);
    folders.push(root);
    const file = join(root, 'docs/mirror.md');
    // A whole second, so that setting it again gives the very same nanoseconds.
    const day = new Date('2026-01-02T03:04:05Z');
    utimesSync(file, day, day);
    const { loaded } = await built(root, NO_SETTLE);
    const before = statSync(file, { bigint: true });
    // With no settle time, the test itself waits for the file system's clock to tick on.
    const probe = join(root, '_clock');
    await waitFor('the file system clock to tick', () => {
      writeFileSync(probe, '');
      return statSync(probe, { bigint: true }).ctimeNs > before.ctimeNs;
    });
    writeFileSync(file, '# Mirror care\n\nPolish the mirror nightly.\n');
    utimesSync(file, day, day);
    const after = statSync(file, { bigint: true });
    expect([after.size, after.mtimeNs, after.ino]).toEqual([before.size, before.mtimeNs, before.ino]);

    const again = await readContent(root, { ...NO_SETTLE, known: knownOf(loaded) });
    expect(paths(again.files)).toEqual(['docs/mirror.md']);
    expect(again.hash).toBe((await readContent(root)).hash);
  });

  it('gives no stamp to a file changed moments ago, so it is read every time until it settles', async () => {
    const root = contentFolder(STAMPED_PAGES);
    folders.push(root);
    const content = await readContent(root);
    expect(content.files.every((file) => file.stamp === undefined)).toBe(true);
    const loaded = await buildSite(content);
    const again = await readContent(root, { known: knownOf(loaded) });
    expect(again.unread).toEqual([]);
    expect(again.files).toHaveLength(4);
  });

  it('rebuilds from unread files as from read ones, reading only those it must parse', async () => {
    const root = contentFolder(STAMPED_PAGES);
    folders.push(root);
    const first = await built(root, NO_SETTLE);
    // kettle.md goes: index.md, unread, links to it and is built again (its link now leads nowhere).
    unlinkSync(join(root, 'docs/kettle.md'));
    writeFileSync(join(root, 'docs/mirror.md'), '# Mirror care\n\nPolish the mirror nightly.\n');
    const listed = await readContent(root, { ...NO_SETTLE, known: knownOf(first.loaded) });
    const previous = previousOf(first.content, first.loaded);
    // The page with an error, unchanged, is not: its problems are kept with its build.
    expect(paths(filesToRebuild(listed, previous)!)).toEqual(['docs/mirror.md', 'index.md']);
    await expect(rebuildSite(listed, previous)).rejects.toThrow(/readUnread/);
    await expect(buildSite(listed)).rejects.toThrow(/readUnread/);

    const needed = await readUnread(listed, NO_SETTLE, ['index.md']);
    expect(paths(needed.files)).toEqual(['docs/mirror.md', 'index.md']);
    expect(paths(needed.unread)).toEqual(['docs/broken.md']);
    expect(needed.hash).toBe(listed.hash);
    const rebuilt = await rebuildSite(needed, previous);
    const full = await buildSite(await readContent(root));
    expect(rebuilt.site).toEqual(full.site);
    expect(rebuilt.problems).toEqual(full.problems);
    expect(rebuilt.problems.some((problem) => problem.file === 'docs/broken.md')).toBe(true);
    // Unchanged builds keep their stamps.
    expect(rebuilt.files.find((file) => file.sourcePath === 'docs/broken.md')!.stamp).toBe(
      first.loaded.files.find((file) => file.sourcePath === 'docs/broken.md')!.stamp,
    );
  });

  it('reads the whole folder again when an unread file changed after the listing', async () => {
    const root = contentFolder(STAMPED_PAGES);
    folders.push(root);
    const { loaded } = await built(root, NO_SETTLE);
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
