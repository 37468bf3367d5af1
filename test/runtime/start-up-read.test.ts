import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readContent, stampsOf } from '../../src/content/index.js';
import type { KnownStamps } from '../../src/runtime/content-stamps.js';
import { readBesideSnapshot } from '../../src/runtime/start-up-read.js';
import { writeSnapshot } from '../../src/snapshot/index.js';
import { contentFolder } from '../support/files.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const keyOf = (contentHash: string) => ({ contentHash, engine: 7 });

async function setup() {
  const contentDir = contentFolder({ 'index.md': '# Home\n\nWelcome.\n', 'docs/a.md': '# A\n\nText.\n' });
  const dataDir = mkdtempSync(join(tmpdir(), 'frontdoor-data-'));
  folders.push(contentDir, dataDir);
  const snapshotFile = join(dataDir, 'snap.bin');
  // With no settle time the files just written are stamped at once.
  const content = await readContent(contentDir, { stampSettleMs: 0 });
  await writeSnapshot(snapshotFile, keyOf(content.hash), { pages: ['/', '/docs/a'] });
  const read = (minBytes = 0, known: KnownStamps | null = null) =>
    readBesideSnapshot(contentDir, snapshotFile, keyOf, 'contentHash', { known, minBytes, stampSettleMs: 0 });
  // The stamps a start keeps in DATA_DIR after reading `content`.
  const known: KnownStamps = {
    contentHash: content.hash,
    files: new Map(content.files.map((file) => [file.sourcePath, file])),
  };
  return { contentDir, snapshotFile, content, read, known };
}

describe('reading the content beside the snapshot (first load)', () => {
  it('uses the snapshot written for the same content, with the content summary', async () => {
    const { content, read } = await setup();
    const result = (await read())!;
    expect(result.stored).toMatchObject({ ok: true, value: { pages: ['/', '/docs/a'] } });
    const { files: _, ...summary } = content;
    expect(result.summary).toEqual({ ...summary, stamps: stampsOf(content) });
  });

  it('does not use it once the content changed, and gives the changed files to build from', async () => {
    const { contentDir, content, read } = await setup();
    writeFileSync(join(contentDir, 'docs/a.md'), '# A\n\nOther text.\n');
    const result = (await read())!;
    expect(result.stored).toEqual({
      ok: false,
      reason: 'stale',
      detail: `contentHash was "${content.hash}", now "${result.summary.hash}"`,
    });
    expect(await result.files()).toEqual(await readContent(contentDir, { stampSettleMs: 0 }));
  });

  it('with the stamps kept from the last read, stats the files instead of reading them, to the same hash', async () => {
    const { content, read, known } = await setup();
    const result = (await read(0, known))!;
    expect(result.stored.ok).toBe(true);
    expect(result.summary.hash).toBe(content.hash);
    expect(result.summary.unread.map((file) => file.sourcePath)).toEqual(['docs/a.md', 'index.md']);
    expect(result.summary.stamps).toEqual(stampsOf(content));
  });

  it('with stamps kept, reads a changed file and, the snapshot being stale, gives every file read', async () => {
    const { contentDir, read, known } = await setup();
    writeFileSync(join(contentDir, 'docs/a.md'), '# A\n\nText, changed.\n');
    const result = (await read(0, known))!;
    expect(result.stored).toMatchObject({ ok: false, reason: 'stale' });
    expect(result.summary.unread.map((file) => file.sourcePath)).toEqual(['index.md']);
    const files = await result.files();
    expect(files).toEqual(await readContent(contentDir, { stampSettleMs: 0 }));
    expect(files.unread).toEqual([]);
  });

  it('does not use one made by another engine, nor a truncated one', async () => {
    const { snapshotFile, content, read, known } = await setup();
    await writeSnapshot(snapshotFile, { ...keyOf(content.hash), engine: 6 }, { pages: [] });
    expect((await read())!.stored).toEqual({ ok: false, reason: 'stale', detail: 'engine was 6, now 7' });

    await writeSnapshot(snapshotFile, keyOf(content.hash), { pages: ['/'] });
    truncateSync(snapshotFile, readFileSync(snapshotFile).length - 2);
    const truncated = (await read())!;
    expect(truncated.stored).toMatchObject({ ok: false, reason: 'corrupt' });
    expect((await truncated.files()).hash).toBe(content.hash);
    // With stamps, the texts it did not read are read when asked for.
    const unread = (await read(0, known))!;
    expect(unread.stored).toMatchObject({ ok: false, reason: 'corrupt' });
    expect(await unread.files()).toEqual(content);
  });

  it('leaves the reading to the caller without a snapshot, or with one smaller than the bound', async () => {
    const { snapshotFile, read } = await setup();
    expect(await read(readFileSync(snapshotFile).length + 1)).toBeNull();
    rmSync(snapshotFile);
    expect(await read()).toBeNull();
  });
});
