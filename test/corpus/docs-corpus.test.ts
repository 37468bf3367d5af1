import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { htmlOf, loadSite, markdownOf } from '../../src/content/index.js';
import { BUNDLED_CONTENT, contentFolder, DOCS_CORPUS } from '../support/files.js';

function requireFolder(path: string, what: string): void {
  if (!existsSync(path)) throw new Error(`${what} is missing: expected it at ${path}`);
}

describe('real Markdown written by others', () => {
  beforeAll(() => requireFolder(DOCS_CORPUS, 'The shared docs corpus (../shared/data/docs-corpus)'));

  it('loads tldr pages: title from the heading, description from the quote', async () => {
    const copy = (path: string) => readFileSync(join(DOCS_CORPUS, 'tldr-pages', path), 'utf8');
    const root = contentFolder({
      'common/tar.md': copy('common/tar.md'),
      'common/%.md': copy('common/%.md'),
      'linux/apt.md': copy('linux/apt.md'),
    });
    const { site, problems } = await loadSite(root);
    expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
    const tar = site.byUrl.get('/common/tar')!;
    expect(tar.title).toBe('tar');
    expect(tar.description.startsWith('Archiving utility. Often combined with a compression method')).toBe(
      true,
    );
    expect(tar.description.length).toBeLessThanOrEqual(160);
    expect(htmlOf(tar)).not.toContain('<h1');
    expect(htmlOf(tar)).toContain('<code>tar cf {{path/to/target.tar}}');
    expect(tar.passages).toHaveLength(1);
    expect(tar.passages[0]!.text).toContain('tar xvf {{path/to/source.tar[.gz|.bz2|.xz]}}');
    expect(markdownOf(tar).startsWith('# tar\n\n> Archiving utility.\n')).toBe(true);
    expect(site.byUrl.get('/common/%')!.title).toBe('%');
  });

  it('loads OWASP cheat sheets: sections, anchors and links between sheets', async () => {
    const copy = (name: string) => readFileSync(join(DOCS_CORPUS, 'owasp-cheatsheets', name), 'utf8');
    const root = contentFolder({
      'Authentication_Cheat_Sheet.md': copy('Authentication_Cheat_Sheet.md'),
      'Session_Management_Cheat_Sheet.md': copy('Session_Management_Cheat_Sheet.md'),
      'Input_Validation_Cheat_Sheet.md': copy('Input_Validation_Cheat_Sheet.md'),
    });
    const { site, problems } = await loadSite(root);
    expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
    const auth = site.byUrl.get('/Authentication_Cheat_Sheet')!;
    expect(auth.title).toBe('Authentication Cheat Sheet');
    expect(auth.headings[0]).toEqual({ level: 2, text: 'Introduction', anchor: 'introduction' });
    expect(htmlOf(auth)).toContain(
      '<a href="/Session_Management_Cheat_Sheet">Session Management Cheat Sheet</a>',
    );
    const anchors = auth.headings.map((h) => h.anchor);
    expect(new Set(anchors).size).toBe(anchors.length);
    expect(auth.passages.length).toBeGreaterThan(10);
    expect(auth.passages.find((p) => p.anchor === 'user-ids')!.headingPath).toEqual([
      'Authentication Cheat Sheet',
      'Authentication General Guidelines',
      'User IDs',
    ]);
    // A link to a section of another sheet lands on an anchor that sheet really has.
    const validation = site.byUrl.get('/Input_Validation_Cheat_Sheet')!;
    expect(htmlOf(auth)).toContain('href="/Input_Validation_Cheat_Sheet#email-address-validation"');
    expect(validation.headings.some((h) => h.anchor === 'email-address-validation')).toBe(true);
    for (const passage of auth.passages) {
      expect(passage.text).not.toMatch(/\*\*|\]\(|^#+ /m);
      expect(passage.text).not.toBe('');
    }
  });

  it('loads the whole docs corpus (~7,500 files) with no errors', { timeout: 120_000 }, async () => {
    const started = performance.now();
    const { site, problems } = await loadSite(DOCS_CORPUS);
    const elapsedMs = performance.now() - started;
    const passageCount = site.pages.reduce((sum, page) => sum + page.passages.length, 0);
    // Printed for the record, not asserted: timing belongs to benchmarks, not to unit tests.
    console.log(
      `docs corpus: ${site.pages.length} pages, ${passageCount} passages loaded and rendered in ${Math.round(elapsedMs)} ms`,
    );
    expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
    expect(site.pages.length).toBeGreaterThan(7000);
    for (const page of site.pages) {
      expect(page.title).not.toBe('');
      expect(page.passages.length).toBeGreaterThan(0);
    }
    const keys = site.pages.flatMap((page) => page.passages.map((passage) => passage.key));
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('the bundled sample site', () => {
  beforeAll(() =>
    requireFolder(join(BUNDLED_CONTENT, 'index.md'), 'The bundled sample site (content/index.md)'),
  );

  it('loads with no problems at all, deterministically', async () => {
    const first = await loadSite(BUNDLED_CONTENT);
    expect(first.problems).toEqual([]);
    expect(first.site.byUrl.get('/')).toBeDefined();
    expect(first.site.info.name).not.toBe('');
    const second = await loadSite(BUNDLED_CONTENT);
    expect(second).toEqual(first);
  });

  it('links to sections of its pages only with anchors those pages have', async () => {
    const { site } = await loadSite(BUNDLED_CONTENT);
    for (const page of site.pages)
      for (const match of htmlOf(page).matchAll(/href="(\/[^"#?]*)(?:#([^"]*))?"/g)) {
        const target = site.byUrl.get(decodeURIComponent(match[1]!));
        // Links outside the pages (the API docs, discovery files) are served by other rooms.
        if (!target) continue;
        if (match[2])
          expect(
            target.headings.map((h) => h.anchor),
            `${page.sourcePath} → ${match[0]}`,
          ).toContain(match[2]);
      }
  });
});
