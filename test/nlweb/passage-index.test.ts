import { rmSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

import { loadSite } from '../../src/content/index.js';
import { buildPassageIndex, PASSAGE_ANALYSIS_STEP } from '../../src/nlweb/index.js';
import type { AnalysedDocuments } from '../../src/search/index.js';
import { contentFolder } from '../support/files.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** Guides of different lengths with sections, a link list, aliases, and two files claiming one URL. */
function files(): Record<string, string> {
  const out: Record<string, string> = {
    'index.md':
      '---\ntitle: Home\naliases: [Start page]\ntags: [welcome]\n---\n\nWelcome to e-mail and ICH-M11.\n',
    'related.md': '# Related\n\n## See also\n\n- [One](guides/g1.md)\n- [Two](guides/g2.md)\n',
    'caf\u00e9.md': '# Caf\u00e9 (NFC)\n\nComposed.\n',
    'cafe\u0301.md': '# Cafe\u0301 (NFD)\n\nDecomposed, same URL, skipped.\n',
  };
  for (let i = 0; i < 40; i++)
    out[`guides/g${i}.md`] =
      `# Guide ${i}\n\n${'Kettles boil water quickly. '.repeat(1 + ((i * 7) % 30))}\n\n## Part ${i}\n\nStep ${i}: descale it.\n`;
  return out;
}

describe('the passage analysis step', () => {
  it('runs in every thread that built pages, and the index built from its results is the same', async () => {
    const root = contentFolder(files());
    folders.push(root);
    const plain = await loadSite(root, { workers: 0 });
    const reference = buildPassageIndex(plain.site.pages);
    for (const workers of [0, 2]) {
      const built = await loadSite(root, { workers, pageStep: PASSAGE_ANALYSIS_STEP });
      expect(built.site).toEqual(plain.site);
      // One result per share: this thread's, then each worker's.
      expect(built.pageStepResults).toHaveLength(workers + 1);
      const results = built.pageStepResults as AnalysedDocuments[];
      expect(results.reduce((sum, batch) => sum + batch.keys.length, 0)).toBeGreaterThan(40);
      expect(
        isDeepStrictEqual(buildPassageIndex(built.site.pages, results), reference),
        `${workers} workers`,
      ).toBe(true);
    }
  });

  it('is left out unless asked for', async () => {
    const root = contentFolder(files());
    folders.push(root);
    expect((await loadSite(root, { workers: 1 })).pageStepResults).toBeUndefined();
  });
});
