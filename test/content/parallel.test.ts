import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSite } from '../../src/content/index.js';
import { spareParseWorkerCount, splitByLength, startParseWorkers } from '../../src/content/parallel.js';
import type { SourceFile } from '../../src/content/page.js';
import { contentFolder } from '../support/files.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** Pages of different lengths, links between them (one broken), a bad one and a duplicate URL. */
function files(): Record<string, string> {
  const out: Record<string, string> = {
    'index.md': '---\ntitle: Home\n---\n\nSee [the first guide](guides/g0.md) and [nothing](missing.md).\n',
    'broken.md': '---\ntitle: [oops\n---\n\nText.\n',
    'guides/g1/index.md': '# Folder index\n\nThe folder page.\n',
    'guides/g1.md': '# Same URL as the folder index?\n\nNo: /guides/g1 and /guides/g1/ differ.\n',
  };
  for (let i = 0; i < 60; i++)
    out[`guides/g${i}.md`] =
      `# Guide ${i}\n\n${'Some words about kettles. '.repeat(1 + ((i * 7) % 40))}\n\n## Part ${i}\n\nSee [next](g${i + 1}.md).\n`;
  return out;
}

// Every load stamps every file: with the default settle time, a file written just now is stamped
// by a later load and not an earlier one, and the loads compared would differ by the clock alone.
const settled = { stampSettleMs: 0 };

describe('building pages in worker threads', () => {
  it('gives the same site and problems, in the same order, as building them on one thread', async () => {
    const root = contentFolder(files());
    folders.push(root);
    const here = await loadSite(root, { ...settled, workers: 0 });
    const oneWorker = await loadSite(root, { ...settled, workers: 1 });
    const threeWorkers = await loadSite(root, { ...settled, workers: 3 });
    expect(here.site.pages.length).toBeGreaterThan(60);
    expect(here.problems.some((p) => p.file === 'broken.md' && p.severity === 'error')).toBe(true);
    expect(here.problems.some((p) => p.file === 'index.md' && p.message.includes('missing.md'))).toBe(true);
    expect(oneWorker).toEqual(here);
    expect(threeWorkers).toEqual(here);
  });

  it('uses workers started ahead, and ends those it does not use', async () => {
    const root = contentFolder(files());
    folders.push(root);
    const here = await loadSite(root, { ...settled, workers: 0 });
    startParseWorkers(3);
    expect(spareParseWorkerCount()).toBe(3);
    expect(await loadSite(root, { ...settled, workers: 1 })).toEqual(here);
    expect(spareParseWorkerCount()).toBe(0);
    startParseWorkers(1);
    expect(await loadSite(root, { ...settled, workers: 0 })).toEqual(here);
    expect(spareParseWorkerCount()).toBe(0);
  });
});

describe('splitting files into shares', () => {
  const file = (name: string, length: number): SourceFile => ({
    sourcePath: name,
    text: 'x'.repeat(length),
    modifiedDay: '2026-01-01',
    digest: name,
  });
  const names = (shares: SourceFile[][]) => shares.map((share) => share.map((f) => f.sourcePath));

  it('gives contiguous shares in file order, with text lengths in proportion to the weights', () => {
    const tenFiles = Array.from({ length: 10 }, (_, i) => file(`f${i}`, 800));
    const shares = splitByLength(tenFiles, [1.5, 1]);
    expect(shares.map((share) => share.length)).toEqual([6, 4]);
    expect(shares.flat()).toEqual(tenFiles);
    expect(splitByLength(tenFiles, [1, 1]).map((share) => share.length)).toEqual([5, 5]);
    expect(splitByLength(tenFiles, [1.5, 1, 1]).map((share) => share.length)).toEqual([5, 3, 2]);
  });

  it('weighs long files by their length, and leaves shares empty when files run out', () => {
    const long = [file('big', 9000), file('a', 800), file('b', 800)];
    expect(names(splitByLength(long, [1, 1]))).toEqual([['big'], ['a', 'b']]);
    expect(names(splitByLength([file('only', 10)], [1.5, 1, 1]))).toEqual([['only'], [], []]);
  });
});
