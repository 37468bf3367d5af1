import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ABANDONED_TEMPORARY_MS,
  readSnapshot,
  snapshotKeyDifference,
  writeSnapshot,
} from '../../src/snapshot/index.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
function snapshotFile(): string {
  const folder = mkdtempSync(join(tmpdir(), 'frontdoor-snapshot-'));
  folders.push(folder);
  return join(folder, 'nested', 'snap.bin');
}

const KEY = { contentHash: 'abc', searchEngineVersion: 3 };

/** Plain data of the kinds an index holds, including a field this module knows nothing about. */
const value = () => ({
  keys: ['a', 'b#x', 'é'],
  termIds: new Map([
    ['alpha', 0],
    ['beta', 1],
  ]),
  postDoc: new Uint32Array([0, 2, 1]),
  postWeight: new Float32Array([0.5, 1.25]),
  words: new Uint16Array([1, 0, 1]),
  nested: { avg: new Float64Array([1.5, 2]), fieldAddedLater: { prefixes: ['al', 'be'] } },
});

describe('snapshot files', () => {
  it('reads back what was written, typed arrays, Maps and unknown fields included', async () => {
    const file = snapshotFile();
    const bytes = await writeSnapshot(file, KEY, value());
    const read = await readSnapshot<ReturnType<typeof value>>(file, { ...KEY });
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.bytes).toBe(bytes);
    expect(read.value).toEqual(value());
    expect(read.value.postDoc).toBeInstanceOf(Uint32Array);
    expect(read.value.nested.avg).toBeInstanceOf(Float64Array);
  });

  it("stores text deflated, and rejects a header whose inflated length is not the payload's", async () => {
    const file = snapshotFile();
    const text = Array.from({ length: 20_000 }, (_, i) => `passage ${i % 97} of a page`).join('\n');
    const bytes = await writeSnapshot(file, KEY, { text });
    expect(bytes).toBeLessThan(text.length / 4);
    const read = await readSnapshot<{ text: string }>(file, KEY);
    expect(read.ok && read.value.text).toBe(text);
    const whole = readFileSync(file);
    const headerStart = whole.indexOf('{');
    const headerLength = whole.readUInt32BE(headerStart - 4);
    const header = JSON.parse(whole.subarray(headerStart, headerStart + headerLength).toString('utf8'));
    for (const inflatedBytes of [header.inflatedBytes - 1, header.inflatedBytes + 1, -1, 'many']) {
      const lying = Buffer.from(JSON.stringify({ ...header, inflatedBytes }), 'utf8');
      const length = Buffer.alloc(4);
      length.writeUInt32BE(lying.length);
      writeFileSync(
        file,
        Buffer.concat([
          whole.subarray(0, headerStart - 4),
          length,
          lying,
          whole.subarray(headerStart + headerLength),
        ]),
      );
      expect(await readSnapshot(file, KEY)).toMatchObject({ ok: false, reason: 'corrupt' });
    }
  });

  it('says "missing" when there is no file', async () => {
    expect(await readSnapshot(snapshotFile(), KEY)).toMatchObject({ ok: false, reason: 'missing' });
  });

  it('rejects another key, naming the field that differs', async () => {
    const file = snapshotFile();
    await writeSnapshot(file, KEY, value());
    expect(await readSnapshot(file, { ...KEY, searchEngineVersion: 4 })).toEqual({
      ok: false,
      reason: 'stale',
      detail: 'searchEngineVersion was 3, now 4',
    });
    expect(await readSnapshot(file, { ...KEY, contentHash: 'abd' })).toMatchObject({
      reason: 'stale',
      detail: 'contentHash was "abc", now "abd"',
    });
    expect(await readSnapshot(file, { ...KEY, extra: 'x' })).toMatchObject({ reason: 'stale' });
  });

  it('rejects a truncated file, a changed byte and a file that is not a snapshot', async () => {
    const file = snapshotFile();
    const size = await writeSnapshot(file, KEY, value());
    const whole = readFileSync(file);

    truncateSync(file, size - 1);
    expect(await readSnapshot(file, KEY)).toMatchObject({ ok: false, reason: 'corrupt' });
    truncateSync(file, 25);
    expect(await readSnapshot(file, KEY)).toMatchObject({ ok: false, reason: 'corrupt' });

    const flipped = Buffer.from(whole);
    flipped[flipped.length - 3]! ^= 0x40;
    writeFileSync(file, flipped);
    expect(await readSnapshot(file, KEY)).toEqual({
      ok: false,
      reason: 'corrupt',
      detail: 'the payload checksum does not match',
    });

    writeFileSync(file, 'hello');
    expect(await readSnapshot(file, KEY)).toMatchObject({ ok: false, reason: 'corrupt' });
    writeFileSync(file, whole);
    expect(await readSnapshot(file, KEY)).toMatchObject({ ok: true });
  });

  it('replaces the file whole and leaves no temporary file behind', async () => {
    const file = snapshotFile();
    await writeSnapshot(file, KEY, value());
    await writeSnapshot(file, { ...KEY, contentHash: 'new' }, { other: true });
    expect(await readSnapshot(file, { ...KEY, contentHash: 'new' })).toMatchObject({
      ok: true,
      value: { other: true },
    });
    const { readdirSync } = await import('node:fs');
    expect(readdirSync(join(file, '..'))).toEqual(['snap.bin']);
  });

  it("removes the temporary files a killed writer left, and no one else's", async () => {
    const file = snapshotFile();
    const folder = join(file, '..');
    mkdirSync(folder, { recursive: true });
    const abandoned = `${file}.0123456789ab.tmp`;
    const inFlight = `${file}.ba9876543210.tmp`;
    const otherFile = join(folder, 'other.bin.0123456789ab.tmp');
    const notOurs = `${file}.notes.tmp`;
    for (const path of [abandoned, inFlight, otherFile, notOurs]) writeFileSync(path, 'half a snapshot');
    const old = (Date.now() - ABANDONED_TEMPORARY_MS - 60_000) / 1000;
    for (const path of [abandoned, otherFile, notOurs]) utimesSync(path, old, old);
    await writeSnapshot(file, KEY, value());
    // Only this snapshot's own temporary file from before the limit goes; one being written by
    // another process (recent), another snapshot's and a file of another pattern stay.
    expect(readdirSync(folder).sort()).toEqual(
      ['other.bin.0123456789ab.tmp', 'snap.bin', 'snap.bin.ba9876543210.tmp', 'snap.bin.notes.tmp'].sort(),
    );
    expect(await readSnapshot(file, KEY)).toMatchObject({ ok: true });
  });

  it('leaves deferred key fields to the caller, with the key it was written with', async () => {
    const file = snapshotFile();
    await writeSnapshot(file, KEY, value());
    const read = await readSnapshot(file, { ...KEY, contentHash: '' }, { deferredFields: ['contentHash'] });
    expect(read).toMatchObject({ ok: true, key: KEY });
    if (!read.ok) return;
    expect(snapshotKeyDifference(read.key, KEY)).toBeNull();
    expect(snapshotKeyDifference(read.key, { ...KEY, contentHash: 'abd' })).toBe(
      'contentHash was "abc", now "abd"',
    );
    // The other fields are still compared, and a damaged file is still refused.
    expect(
      await readSnapshot(
        file,
        { ...KEY, contentHash: '', searchEngineVersion: 4 },
        { deferredFields: ['contentHash'] },
      ),
    ).toEqual({ ok: false, reason: 'stale', detail: 'searchEngineVersion was 3, now 4' });
    truncateSync(file, readFileSync(file).length - 1);
    expect(await readSnapshot(file, KEY, { deferredFields: ['contentHash'] })).toMatchObject({
      reason: 'corrupt',
    });
  });

  it('reads a large payload back more than once (its buffer is freed after reading)', async () => {
    const file = snapshotFile();
    const big = { text: 'x'.repeat(3_000_000), numbers: new Float64Array(100_000).fill(0.5) };
    await writeSnapshot(file, KEY, big);
    for (let i = 0; i < 2; i++) {
      const read = await readSnapshot<typeof big>(file, KEY);
      expect(read.ok && read.value).toEqual(big);
    }
    // A small payload sits in Node's shared buffer pool, which must stay usable.
    await writeSnapshot(file, KEY, { small: 1 });
    expect(await readSnapshot(file, KEY)).toMatchObject({ ok: true, value: { small: 1 } });
    expect(Buffer.from('still usable').toString()).toBe('still usable');
  });
});
