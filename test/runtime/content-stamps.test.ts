import { readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readKnownStamps, saveKnownStamps, STAMPS_FILE } from '../../src/runtime/content-stamps.js';
import { tempDir } from '../support/files.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
const dataDir = (): string => {
  const folder = tempDir('frontdoor-data-');
  folders.push(folder);
  return folder;
};

const FILES = [
  { sourcePath: 'docs/a.md', digest: 'a'.repeat(64), stamp: '1:2:30:400:500' },
  // Too fresh to stamp when it was read: nothing to keep.
  { sourcePath: 'docs/b.md', digest: 'b'.repeat(64) },
  { sourcePath: 'index.md', digest: 'c'.repeat(64), stamp: '1:3:31:401:501' },
];

describe('the content files’ stamps kept in DATA_DIR', () => {
  it('are read back for the same content folder: the stamped files, and the hash they were kept with', async () => {
    const data = dataDir();
    await saveKnownStamps(data, '/srv/content', 'f'.repeat(64), FILES);
    const kept = await readKnownStamps(data, '/srv/content/');
    expect(kept).toEqual({
      contentHash: 'f'.repeat(64),
      files: new Map([
        ['docs/a.md', { digest: 'a'.repeat(64), stamp: '1:2:30:400:500' }],
        ['index.md', { digest: 'c'.repeat(64), stamp: '1:3:31:401:501' }],
      ]),
    });
  });

  it('are not used for another content folder, nor when missing, truncated or damaged', async () => {
    const data = dataDir();
    expect(await readKnownStamps(data, '/srv/content')).toBeNull();
    await saveKnownStamps(data, '/srv/content', 'f'.repeat(64), FILES);
    expect(await readKnownStamps(data, '/srv/other')).toBeNull();

    const file = join(data, STAMPS_FILE);
    const whole = readFileSync(file);
    truncateSync(file, whole.length - 1);
    expect(await readKnownStamps(data, '/srv/content')).toBeNull();
    const damaged = Buffer.from(whole);
    damaged[damaged.length - 5]! ^= 0xff;
    writeFileSync(file, damaged);
    expect(await readKnownStamps(data, '/srv/content')).toBeNull();
    writeFileSync(file, whole);
    expect(await readKnownStamps(data, '/srv/content')).not.toBeNull();
  });
});
