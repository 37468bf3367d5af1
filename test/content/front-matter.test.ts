import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSite, type ContentProblem } from '../../src/content/index.js';
import { contentFolder, SITE_YAML } from '../support/files.js';

const page = (frontMatter: string, body = 'Some text.\n') => `---\n${frontMatter}\n---\n${body}`;

function located(problems: ContentProblem[]): string[] {
  return problems.map(
    (problem) => `${problem.file}:${problem.line ?? '-'}: ${problem.severity}: ${problem.message}`,
  );
}

describe('front matter: repeated keys, found in linear time (issue 37, finding 2)', () => {
  it('reports a key repeated at the top level or in a nested mapping at its line, keeping the first', async () => {
    const root = contentFolder({
      '_site.yaml': SITE_YAML,
      'twice.md': page(
        ['title: First', 'owner:', '  name: A', '  name: B', 'title: Second', 'tags: [x]'].join('\n'),
      ),
    });
    const { site, problems } = await loadSite(root);
    expect(located(problems)).toEqual([
      'twice.md:5: error: front matter is not valid YAML: Map keys must be unique; `owner` is ignored',
      'twice.md:6: error: front matter is not valid YAML: Map keys must be unique; this second `title` is ignored',
    ]);
    expect(site.pages[0]!.title).toBe('First');
    expect(site.pages[0]!.tags).toEqual(['x']);
  });

  it('loads 20,000 distinct keys with no problem and lists the first 50 of 20,000 repeats of one key, then their count', async () => {
    const distinct = Array.from({ length: 20_000 }, (_, i) => `k${i}: ${i}`);
    const repeated = Array.from({ length: 20_000 }, (_, i) => `k: ${i}`);
    const root = contentFolder({
      'distinct.md': page(['title: Distinct', ...distinct].join('\n')),
      'repeated.md': page(['title: Repeated', ...repeated].join('\n')),
    });
    const { site, problems } = await loadSite(root);
    expect(problems.filter((problem) => problem.file === 'distinct.md')).toEqual([]);
    const repeatedProblems = problems.filter((problem) => problem.file === 'repeated.md');
    expect(
      repeatedProblems.filter((problem) => /Map keys must be unique/.test(problem.message)),
    ).toHaveLength(50);
    expect(repeatedProblems.filter((problem) => problem.line === null)).toEqual([
      {
        file: 'repeated.md',
        line: null,
        severity: 'error',
        message: 'and 19949 more problems in this file, not listed: correct the ones above and check again',
      },
    ]);
    expect(repeatedProblems).toHaveLength(51);
    expect(site.pages.map((p) => p.title)).toEqual(['Distinct', 'Repeated']);
  });
});

describe('front matter: one bad value does not take the page off the site', () => {
  it('loads a page whose aliases hold `- %` (not valid YAML) with the rest of its front matter and body', async () => {
    const root = contentFolder({
      '_site.yaml': SITE_YAML,
      'percent.md': page(
        [
          'title: The percent command',
          'description: Run a job in the background.',
          'aliases:',
          '- %',
          'tags: [shell, jobs]',
        ].join('\n'),
        '## Examples\n\nBring job 1 to the foreground.\n',
      ),
      'inline.md': page('title: Inline\naliases: - %\ndate: 2024-01-02'),
    });
    const { site, problems } = await loadSite(root);
    expect(located(problems)).toEqual([
      'inline.md:3: error: front matter is not valid YAML: Unexpected block-seq-ind on same line with key; `aliases` is ignored',
      'percent.md:5: error: front matter is not valid YAML: Plain value cannot start with directive indicator character %; `aliases` is ignored',
    ]);
    const percent = site.byUrl.get('/percent')!;
    expect(percent).toMatchObject({
      title: 'The percent command',
      description: 'Run a job in the background.',
      tags: ['shell', 'jobs'],
      aliases: [],
    });
    expect(percent.frontMatter).not.toHaveProperty('aliases');
    expect(percent.passages.map((passage) => [passage.headingPath, passage.text])).toEqual([
      [['The percent command', 'Examples'], 'Bring job 1 to the foreground.'],
    ]);
    expect(site.byUrl.get('/inline')).toMatchObject({
      title: 'Inline',
      date: '2024-01-02',
      lastModified: '2024-01-02',
    });
  });

  it('keeps comments, multi-line values and later keys around a broken one', async () => {
    const root = contentFolder({
      '_site.yaml': SITE_YAML,
      'mixed.md': page(
        [
          '# a comment',
          'title: Mixed',
          'description: >-',
          '  Two lines',
          '  folded.',
          'extra: {a: 1',
          'keywords:',
          '  - audit trail',
          '  - e-signature',
          'nav: 2',
        ].join('\n'),
      ),
    });
    const { site, problems } = await loadSite(root);
    expect(located(problems)).toEqual([
      'mixed.md:7: error: front matter is not valid YAML: Flow map in block collection must be sufficiently indented and end with a }; `extra` is ignored',
    ]);
    expect(site.byUrl.get('/mixed')).toMatchObject({
      title: 'Mixed',
      description: 'Two lines folded.',
      keywords: ['audit trail', 'e-signature'],
      nav: 2,
    });
  });
});

describe('front matter: dates before the file time', () => {
  it('takes the last modification from updated, lastmod, ms.date … before date and before the mtime', async () => {
    const root = contentFolder({
      '_site.yaml': SITE_YAML,
      'hugo.md': page('title: Hugo\ndate: 2023-01-10\nlastmod: 2024-06-01T09:30:00+02:00'),
      'learn.md': page('title: Learn\nms.date: 03/15/2024'),
      'both.md': page('title: Both\nupdated: 2025-02-02\nlastmod: 2025-01-01\ndate: 2024-12-12'),
      'published.md': page('title: Published\npubDate: 2022-07-04'),
      'jekyll.md': page('title: Jekyll\nlast_modified_at: 2021-11-30 10:00:00 +0000'),
      'none.md': page('title: None'),
    });
    const mtime = new Date('2020-05-06T12:00:00Z');
    for (const file of ['hugo.md', 'learn.md', 'both.md', 'published.md', 'jekyll.md', 'none.md'])
      utimesSync(join(root, file), mtime, mtime);
    const { site, problems } = await loadSite(root);
    expect(problems).toEqual([]);
    const dates = Object.fromEntries(site.pages.map((p) => [p.url, [p.date, p.lastModified]]));
    expect(dates).toEqual({
      '/both': ['2024-12-12', '2025-02-02'],
      '/hugo': ['2023-01-10', '2024-06-01'],
      '/jekyll': [null, '2021-11-30'],
      '/learn': [null, '2024-03-15'],
      '/none': [null, '2020-05-06'],
      '/published': ['2022-07-04', '2022-07-04'],
    });
  });

  it('reports an unreadable date and falls back to the next key', async () => {
    const root = contentFolder({
      '_site.yaml': SITE_YAML,
      'bad.md': page('title: Bad\nms.date: 13/45/2024\nupdated: soon\nlastmod: 2024-02-30\ndate: 2024-01-01'),
      'early.md': page('title: Early\ndate: 2024-05-01\nlastmod: 2024-04-01'),
    });
    const { site, problems } = await loadSite(root);
    expect(located(problems)).toEqual([
      'bad.md:3: warning: `ms.date` must be a date written YYYY-MM-DD (or MM/DD/YYYY); it is ignored',
      'bad.md:4: warning: `updated` must be a date written YYYY-MM-DD (or MM/DD/YYYY); it is ignored',
      'bad.md:5: warning: `lastmod` must be a date written YYYY-MM-DD (or MM/DD/YYYY); it is ignored',
      'early.md:4: warning: `lastmod` (2024-04-01) is before `date` (2024-05-01)',
    ]);
    expect(site.byUrl.get('/bad')).toMatchObject({ date: '2024-01-01', lastModified: '2024-01-01' });
  });
});

describe('front matter: keywords, aliases and tags for search', () => {
  it('normalises lists and comma-separated text into trimmed, unique words', async () => {
    const root = contentFolder({
      '_site.yaml': SITE_YAML,
      'words.md': page(
        [
          'title: Words',
          'keywords: " audit   trail, e-signature,,Part 11 , audit trail"',
          'aliases: [/old/words, "Cafe\u0301", 21 CFR]',
          'tags: [security, " hosting ", security, 2025]',
        ].join('\n'),
      ),
      'single.md': page('title: Single\ntags: security\nkeywords: [ok, [nested]]'),
    });
    const { site, problems } = await loadSite(root);
    expect(located(problems)).toEqual([
      'single.md:4: warning: `keywords` must be a list of words; non-text items are ignored',
    ]);
    expect(site.byUrl.get('/words')).toMatchObject({
      keywords: ['audit trail', 'e-signature', 'Part 11'],
      aliases: ['/old/words', 'Café', '21 CFR'],
      tags: ['security', 'hosting', '2025'],
    });
    expect(site.byUrl.get('/single')).toMatchObject({ tags: ['security'], keywords: ['ok'], aliases: [] });
  });
});
