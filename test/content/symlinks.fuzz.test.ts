import { mkdirSync, symlinkSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadSite } from '../../src/content/index.js';
import { addFile, contentFolder, SITE_YAML, tempDir } from '../support/files.js';

// Issue 37, finding 3's class: a link in the content folder, however it is written (absolute,
// relative with `..`, through a linked folder, a chain of links), publishes a file only when the
// file's real place is inside the folder.

const SECRET = 'hunter2-leaked-secret';

describe('symbolic links in the content folder', () => {
  it('publish what is inside it and never what is outside, however the link is written', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(), // the target is outside (a secret) or inside (a real page)
        fc.constantFrom('absolute', 'relative'),
        fc.constantFrom('leak.md', 'deep/er/leak.md'), // where the link stands
        fc.boolean(), // through a second link (a chain)
        fc.boolean(), // through a linked folder
        async (outside, form, at, chained, viaFolder) => {
          const away = tempDir('fd-away-');
          addFile(away, 'secret/prod.md', `# Production\n\n${SECRET}\n`);
          const root = contentFolder({ '_site.yaml': SITE_YAML, 'guide/real.md': '# Real\n\nKettles.\n' });
          const target = outside ? join(away, 'secret', 'prod.md') : join(root, 'guide', 'real.md');
          let pointed = target;
          if (viaFolder) {
            // A folder link inside the content folder that leads to the target's folder.
            symlinkSync(dirname(target), join(root, 'linked'));
            pointed = join(root, 'linked', outside ? 'prod.md' : 'real.md');
          }
          if (chained) {
            symlinkSync(pointed, join(root, 'hop.md'));
            pointed = join(root, 'hop.md');
          }
          const link = join(root, at);
          mkdirSync(dirname(link), { recursive: true });
          symlinkSync(form === 'absolute' ? pointed : relative(dirname(link), pointed), link);

          const { site } = await loadSite(root);
          const everything = JSON.stringify(
            site.pages.map((page) => [page.url, page.markdown, page.passages]),
          );
          if (outside) expect(everything).not.toContain(SECRET);
          else
            expect(
              site.pages.some((page) => page.sourcePath === at && page.markdown.includes('Kettles.')),
            ).toBe(true);
        },
      ),
      { numRuns: 40 },
    );
  });
});
