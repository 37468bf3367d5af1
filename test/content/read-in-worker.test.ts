import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readContent, readContentInWorker, stampsOf } from '../../src/content/index.js';
import { contentFolder } from '../support/files.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
function folder(files: Record<string, string | Uint8Array>): string {
  const root = contentFolder(files);
  folders.push(root);
  return root;
}

/** No file is stamped however slowly the test runs: reads compared at different moments agree. */
const unstamped = { stampSettleMs: 3_600_000 };

describe('reading the content folder in a worker', () => {
  it('gives what readContent gives: the summary first, then the files when asked', async () => {
    const root = folder({
      'index.md': '# Home\n\nWelcome.\n',
      'docs/a.md': '# A\n\nText of a.\n',
      'docs/b.markdown': '# Misnamed\n',
      'docs/bad.md': new Uint8Array([0x23, 0x20, 0xff, 0x0a]),
    });
    const here = await readContent(root, unstamped);
    const reading = readContentInWorker(root, unstamped);
    const { files, ...summary } = here;
    expect(await reading.summary).toEqual({ ...summary, stamps: new Map() });
    expect(summary.problems.length).toBeGreaterThan(1);
    expect(await reading.files()).toEqual(here);
    expect(files).toHaveLength(2);
  });

  it('sends the stamps of the files it read with the summary, not their text', async () => {
    const root = folder({ 'index.md': '# Home\n\nWelcome.\n', 'docs/a.md': '# A\n\nText of a.\n' });
    // The files were just written: with no settle time their stamps are given at once.
    const here = await readContent(root, { stampSettleMs: 0 });
    const reading = readContentInWorker(root, { stampSettleMs: 0 });
    const { stamps } = await reading.summary;
    expect([...stamps!.keys()]).toEqual(['docs/a.md', 'index.md']);
    expect(stamps).toEqual(stampsOf(here));
    expect(await reading.files()).toEqual(here);
  });

  it('with known stamps, reads only what changed, and the rest when the files are asked for', async () => {
    const root = folder({ 'index.md': '# Home\n\nWelcome.\n', 'docs/a.md': '# A\n\nText of a.\n' });
    const before = await readContent(root, { stampSettleMs: 0 });
    const known = new Map(before.files.map((file) => [file.sourcePath, file]));
    // The snapshot read meanwhile matches (same hash): the texts wait until they are asked for.
    const reading = readContentInWorker(root, { stampSettleMs: 0, known }, before.hash);
    const summary = await reading.summary;
    expect(summary.hash).toBe(before.hash);
    expect(summary.unread.map((file) => file.sourcePath)).toEqual(['docs/a.md', 'index.md']);
    // A file that changes after the summary is not given with its old digest: the folder is read again.
    writeFileSync(join(root, 'docs/a.md'), '# A\n\nText of a, longer now.\n');
    const files = await reading.files();
    expect(files).toEqual(await readContent(root, { stampSettleMs: 0 }));
    expect(files.hash).not.toBe(before.hash);
  });

  it('carries an unusable _site.yaml across (it is hashed as such)', async () => {
    const root = folder({ 'index.md': '# Home\n', '_site.yaml': new Uint8Array([0x6e, 0x3a, 0xff]) });
    const here = await readContent(root, unstamped);
    expect(typeof here.siteInfoText).toBe('symbol');
    const reading = readContentInWorker(root, unstamped);
    expect(await reading.summary).toMatchObject({ hash: here.hash, siteInfoText: here.siteInfoText });
    expect(await reading.files()).toEqual(here);
  });

  it('is told the files are not needed, and then cannot give them', async () => {
    const root = folder({ 'index.md': '# Home\n' });
    const reading = readContentInWorker(root);
    expect((await reading.summary).hash).toBe((await readContent(root)).hash);
    reading.close();
    await expect(reading.files()).rejects.toThrow(/exited/);
  });

  it('reports a missing folder as readContent does', async () => {
    const reading = readContentInWorker('/nonexistent/frontdoor-content');
    const summary = await reading.summary;
    expect(summary.exists).toBe(false);
    expect(summary.hash).toBe((await readContent('/nonexistent/frontdoor-content')).hash);
    reading.close();
  });
});
