import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSite } from '../../src/content/index.js';
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

describe('building pages in worker threads', () => {
  it('gives the same site and problems, in the same order, as building them on one thread', async () => {
    const root = contentFolder(files());
    folders.push(root);
    const here = await loadSite(root, { workers: 0 });
    const oneWorker = await loadSite(root, { workers: 1 });
    const threeWorkers = await loadSite(root, { workers: 3 });
    expect(here.site.pages.length).toBeGreaterThan(60);
    expect(here.problems.some((p) => p.file === 'broken.md' && p.severity === 'error')).toBe(true);
    expect(here.problems.some((p) => p.file === 'index.md' && p.message.includes('missing.md'))).toBe(true);
    expect(oneWorker).toEqual(here);
    expect(threeWorkers).toEqual(here);
  });
});
