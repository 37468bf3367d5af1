import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { watchContentFolder, type ContentWatcher } from '../../src/content/index.js';
import { addFile, contentFolder } from '../support/files.js';
import { waitFor } from '../support/net.js';

// inotify reports in its own time: these tests wait for the call back (waitFor), never a fixed sleep.
const FAST = { debounceMs: 10, maxWaitMs: 100 };

describe('watchContentFolder', () => {
  let watcher: ContentWatcher | null = null;
  afterEach(() => watcher?.close());

  const site = () =>
    contentFolder({
      'index.md': '# Home\n',
      'docs/a.md': '# A\n',
      'docs/guides/b.md': '# B\n',
      'blog/c.md': '# C\n',
      '_drafts/d.md': '# Draft\n',
      '.git/HEAD': 'ref: refs/heads/main\n',
    });

  it('watches one folder per content folder, not one per file, skipping `_` and `.` folders', () => {
    const root = site();
    for (let i = 0; i < 50; i++) addFile(root, `docs/page-${i}.md`, `# Page ${i}\n`);
    watcher = watchContentFolder(root, () => {}, FAST);
    expect([...watcher.folders].sort()).toEqual(
      [root, join(root, 'blog'), join(root, 'docs'), join(root, 'docs/guides')].sort(),
    );
  });

  it('calls back once for a burst of changes in any folder', async () => {
    const root = site();
    let calls = 0;
    watcher = watchContentFolder(root, () => (calls += 1), { debounceMs: 50, maxWaitMs: 2000 });
    writeFileSync(join(root, 'docs/guides/b.md'), '# B changed\n');
    writeFileSync(join(root, 'index.md'), '# Home changed\n');
    addFile(root, 'blog/new.md', '# New\n');
    await waitFor('a call back', () => calls > 0);
    // A burst settles into one call back; nothing more comes without another change.
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(calls).toBe(1);
  });

  it('watches a folder created later, and lets a removed one go', async () => {
    const root = site();
    let calls = 0;
    watcher = watchContentFolder(root, () => (calls += 1), FAST);
    mkdirSync(join(root, 'news'));
    addFile(root, 'news/first.md', '# First\n');
    await waitFor('the new folder to be watched', () => watcher!.folders.includes(join(root, 'news')));
    const before = calls;
    // A file written into the new folder after its watch exists is reported on its own.
    writeFileSync(join(root, 'news/second.md'), '# Second\n');
    await waitFor('a change in the new folder', () => calls > before);

    rmSync(join(root, 'docs'), { recursive: true });
    await waitFor(
      'the removed folders to be let go',
      () => !watcher!.folders.some((f) => f.includes('docs')),
    );
    expect([...watcher.folders].sort()).toEqual([root, join(root, 'blog'), join(root, 'news')].sort());
  });

  it('ignores changes in `_` and `.` folders but not `_site.yaml`', async () => {
    const root = site();
    let calls = 0;
    watcher = watchContentFolder(root, () => (calls += 1), FAST);
    writeFileSync(join(root, '_drafts/d.md'), '# Draft changed\n');
    writeFileSync(join(root, '.git/HEAD'), 'ref: refs/heads/other\n');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(calls).toBe(0);
    writeFileSync(join(root, '_site.yaml'), 'name: Changed\n');
    await waitFor('the site file change', () => calls > 0);
  });

  it('reports an error and closes when the content folder itself is removed', async () => {
    const root = site();
    const errors: Error[] = [];
    watcher = watchContentFolder(root, () => {}, { ...FAST, onError: (error) => errors.push(error) });
    rmSync(root, { recursive: true });
    await waitFor('the error', () => errors.length > 0);
    expect((errors[0] as NodeJS.ErrnoException).code).toBe('ENOENT');
    expect(watcher.folders).toEqual([]);
  });

  it('throws when the folder cannot be watched at all', () => {
    expect(() => watchContentFolder(join(site(), 'missing'), () => {})).toThrow(/ENOENT/);
  });
});
