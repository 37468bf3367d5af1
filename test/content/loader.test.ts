import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, symlinkSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  defaultBrand,
  htmlOf,
  loadSite,
  markdownOf,
  readContent,
  renderMarkdown,
  type ContentProblem,
} from '../../src/content/index.js';
import { contentFolder, SITE_YAML } from '../support/files.js';

const page = (frontMatter: string, body = 'Some text.\n') => `---\n${frontMatter}\n---\n${body}`;

/** Problems as `file:line: severity` plus the message, for readable assertions. */
function located(problems: ContentProblem[]): string[] {
  return problems.map(
    (problem) => `${problem.file}:${problem.line ?? '-'}: ${problem.severity}: ${problem.message}`,
  );
}

describe('htmlOf: the page HTML, rendered when asked for', () => {
  it('is the HTML of the file with the title heading left out, wherever the heading was', async () => {
    const bodies: Record<string, string> = {
      'first.md': '# First\n\nText with [a link](second.md).\n\n## Part\n\nMore.\n',
      // An ATX heading interrupts a paragraph: without it the two lines must not become one paragraph.
      'middle.md': 'Lead line.\n# Middle\nNext line.\n\n# Another h1\n\nEnd.\n',
      'setext.md': 'Setext title\n============\n\nBody.\n',
      'second.md': '---\ntitle: Second\n---\n# Second\n\nOnly the body.\n',
    };
    const root = contentFolder(bodies);
    const { site } = await loadSite(root);
    for (const page of site.pages) {
      const file = bodies[page.sourcePath]!.replace(/^---\n[^]*?\n---\n/, '');
      const expected = renderMarkdown(file, {
        sourcePath: page.sourcePath,
        titleFromHeading: page.sourcePath !== 'second.md',
        knownTitle: page.sourcePath === 'second.md' ? 'Second' : undefined,
      }).html;
      expect(htmlOf(page), page.sourcePath).toBe(expected);
    }
    expect(htmlOf(site.byUrl.get('/middle')!)).toBe(
      '<p>Lead line.</p>\n<p>Next line.</p>\n<h2 id="another-h1">Another h1</h2>\n<p>End.</p>\n',
    );
  });
});

describe('loadSite: URLs and pages', () => {
  it('maps files to URLs, index.md to its folder, and sorts pages by URL byte order', async () => {
    const root = contentFolder({
      '_site.yaml': SITE_YAML,
      'index.md': '# Home\n\nWelcome.\n',
      'solutions/index.md': '# Solutions\n\nAll of them.\n',
      'solutions/cros.md': '# CROs\n\nFor CROs.\n',
      'solutions/cros/study-start-up.md': '# Study start-up\n\nFast.\n',
      'Zeta.md': '# Zeta\n\nUpper case sorts first.\n',
      'émoji.md': '# Accent\n\nAfter ASCII.\n',
      '_drafts/secret.md': '# Secret\n\nNot a page.\n',
      '_partial.md': '# Partial\n\nNot a page.\n',
      '.hidden/page.md': '# Hidden\n\nNot a page.\n',
      'notes.txt': 'ignored',
      'logo.svg': '<svg/>',
    });
    const { site, problems } = await loadSite(root);
    expect(problems).toEqual([]);
    expect(site.pages.map((p) => p.url)).toEqual([
      '/',
      '/Zeta',
      '/solutions/',
      '/solutions/cros',
      '/solutions/cros/study-start-up',
      '/émoji',
    ]);
    expect(site.pages.map((p) => p.sourcePath)).toEqual([
      'index.md',
      'Zeta.md',
      'solutions/index.md',
      'solutions/cros.md',
      'solutions/cros/study-start-up.md',
      'émoji.md',
    ]);
    expect([...site.byUrl.keys()]).toEqual(site.pages.map((p) => p.url));
    expect(site.byUrl.get('/solutions/cros')?.title).toBe('CROs');
    expect(site.info.name).toBe('Example');
    expect(site.info.sameAs).toEqual(['https://www.linkedin.com/company/example']);
    expect(site.info.foundingYear).toBe(2019);
  });

  it('reads every front matter key and keeps the unknown ones', async () => {
    const root = contentFolder({
      '_site.yaml': SITE_YAML,
      'security.md': page(
        [
          'title: "Security at Example"',
          'description: >-',
          '  How we keep',
          '  data safe.',
          'date: 2025-03-03',
          'updated: 2026-01-15',
          'tags: [security, hosting, security]',
          'nav: 3',
          'order: 1.5',
          'form: demo',
          'hero: shield.svg',
        ].join('\n'),
        '# Also a heading\n\nBody text.\n',
      ),
    });
    const { site, problems } = await loadSite(root);
    expect(problems).toEqual([]);
    const security = site.byUrl.get('/security')!;
    expect(security).toMatchObject({
      title: 'Security at Example',
      description: 'How we keep data safe.',
      date: '2025-03-03',
      lastModified: '2026-01-15',
      tags: ['security', 'hosting'],
      nav: 3,
      order: 1.5,
      form: 'demo',
    });
    expect(security.frontMatter.hero).toBe('shield.svg');
    // With a front-matter title, a body h1 stays, as a section heading.
    expect(security.headings).toEqual([{ level: 2, text: 'Also a heading', anchor: 'also-a-heading' }]);
    expect(htmlOf(security)).toContain('<h2 id="also-a-heading">Also a heading</h2>');
    expect(security.markdown).toBe('# Also a heading\n\nBody text.\n');
  });

  it('leaves out a body h1 that only repeats the front-matter title', async () => {
    const root = contentFolder({
      '_site.yaml': SITE_YAML,
      'pricing.md': page('title: Pricing', '\n# Pricing\n\nPlans.\n\n## Team\n\nFor teams.\n'),
    });
    const { site } = await loadSite(root);
    const pricing = site.byUrl.get('/pricing')!;
    expect(pricing.headings).toEqual([{ level: 2, text: 'Team', anchor: 'team' }]);
    expect(htmlOf(pricing)).toBe('<p>Plans.</p>\n<h2 id="team">Team</h2>\n<p>For teams.</p>\n');
    expect(pricing.markdown).toBe('Plans.\n\n## Team\n\nFor teams.\n');
    expect(markdownOf(pricing)).toBe('# Pricing\n\nPlans.\n\n## Team\n\nFor teams.\n');
  });

  it('takes lastModified from updated, else date, else the file time (UTC day)', async () => {
    const root = contentFolder({
      '_site.yaml': SITE_YAML,
      'dated.md': page('title: Dated\ndate: 2024-02-29'),
      'plain.md': '# Plain\n\nNo dates.\n',
    });
    utimesSync(join(root, 'plain.md'), new Date('2023-05-06T23:30:00Z'), new Date('2023-05-06T23:30:00Z'));
    const { site } = await loadSite(root);
    expect(site.byUrl.get('/dated')).toMatchObject({ date: '2024-02-29', lastModified: '2024-02-29' });
    expect(site.byUrl.get('/plain')).toMatchObject({ date: null, lastModified: '2023-05-06' });
  });

  it('derives title and description from the body when there is no front matter', async () => {
    const root = contentFolder({
      '_site.yaml': SITE_YAML,
      'tools/grep.md':
        '# grep\n\n> Find patterns in files.\n> More information: <https://example.com/grep>.\n\n- Search a file:\n\n`grep {{pattern}} {{path}}`\n',
    });
    const { site, problems } = await loadSite(root);
    expect(problems).toEqual([]);
    const grep = site.byUrl.get('/tools/grep')!;
    expect(grep.title).toBe('grep');
    expect(grep.description).toBe('Find patterns in files. More information: https://example.com/grep.');
    expect(grep.markdown.startsWith('> Find patterns')).toBe(true);
    expect(htmlOf(grep)).not.toContain('<h1');
    expect(htmlOf(grep)).not.toContain('>grep</h');
    // The description came from the body, so the twin does not repeat it.
    expect(markdownOf(grep)).toBe(
      '# grep\n\n> Find patterns in files.\n> More information: <https://example.com/grep>.\n\n- Search a file:\n\n`grep {{pattern}} {{path}}`\n',
    );
  });

  it('builds the Markdown twin with the front-matter description as a quote', async () => {
    const root = contentFolder({
      '_site.yaml': SITE_YAML,
      'a.md': page('title: A page\ndescription: What A is about.', '\n\nBody of A.\n\n## Part\n\nMore.\n\n'),
      'b.md': page('title: B page\ndescription: Only a title and a description.', ''),
    });
    const { site } = await loadSite(root);
    expect(markdownOf(site.byUrl.get('/a')!)).toBe(
      '# A page\n\n> What A is about.\n\nBody of A.\n\n## Part\n\nMore.\n',
    );
    expect(markdownOf(site.byUrl.get('/b')!)).toBe('# B page\n\n> Only a title and a description.\n');
  });

  it('splits pages into passages with keys and heading paths, keeping one for an empty page', async () => {
    const root = contentFolder({
      '_site.yaml': SITE_YAML,
      'guide.md': page(
        'title: Guide\ndescription: The guide.',
        [
          'Lead text.',
          '',
          '# Body h1',
          '',
          'Under the h1.',
          '',
          '## Setup',
          '### Install',
          '',
          'Run `npm install`.',
          '',
          '#### Detail',
          '',
          'Fine print.',
          '',
          '## Setup',
          '',
          'Second setup.',
          '',
        ].join('\n'),
      ),
      'empty.md': page('title: Empty\ndescription: Nothing but this.', ''),
    });
    const { site } = await loadSite(root);
    expect(site.byUrl.get('/guide')!.passages).toEqual([
      { key: '/guide', pageUrl: '/guide', anchor: null, headingPath: ['Guide'], text: 'Lead text.' },
      {
        key: '/guide#body-h1',
        pageUrl: '/guide',
        anchor: 'body-h1',
        headingPath: ['Guide', 'Body h1'],
        text: 'Under the h1.',
      },
      {
        key: '/guide#install',
        pageUrl: '/guide',
        anchor: 'install',
        headingPath: ['Guide', 'Setup', 'Install'],
        text: 'Run npm install. Detail Fine print.',
      },
      {
        key: '/guide#setup-2',
        pageUrl: '/guide',
        anchor: 'setup-2',
        headingPath: ['Guide', 'Setup'],
        text: 'Second setup.',
      },
    ]);
    expect(site.byUrl.get('/empty')!.passages).toEqual([
      { key: '/empty', pageUrl: '/empty', anchor: null, headingPath: ['Empty'], text: 'Nothing but this.' },
    ]);
  });

  it('keeps heading anchors clear of ids the layout reserves', async () => {
    const root = contentFolder({
      '_site.yaml': SITE_YAML,
      'a.md': '# A\n\n## Main\n\nx\n\n## Demo form\n\ny\n',
    });
    const { site } = await loadSite(root, { reservedAnchors: ['main', 'demo-form'] });
    expect(site.byUrl.get('/a')!.headings.map((h) => h.anchor)).toEqual(['main-2', 'demo-form-2']);
    const plain = await loadSite(root);
    expect(plain.site.byUrl.get('/a')!.headings.map((h) => h.anchor)).toEqual(['main', 'demo-form']);
  });

  it('tells a caller the pages it found before reading them, without changing the hash', async () => {
    const root = contentFolder({
      'index.md': '# Home\n\nHello.\n',
      'b.md': page('title: B'),
      '_draft.md': '# D\n',
    });
    const listed: (readonly string[])[] = [];
    const read = await readContent(root, { onListed: (paths) => listed.push([...paths]) });
    expect(listed).toEqual([['b.md', 'index.md']]);
    expect(read.hash).toBe((await readContent(root)).hash);
  });

  it('is deterministic: loading twice gives equal sites', async () => {
    const root = contentFolder({
      '_site.yaml': SITE_YAML,
      'index.md': '# Home\n\nHello.\n',
      'b.md': page('title: B\ntags: x'),
      'a/index.md': '# A\n\n## Part\n\ntext\n',
    });
    const first = await loadSite(root);
    const second = await loadSite(root);
    expect(second).toEqual(first);
    expect(JSON.stringify(second.site.pages)).toBe(JSON.stringify(first.site.pages));
  });

  it('rewrites links between pages and warns about links to missing pages', async () => {
    const root = contentFolder({
      '_site.yaml': SITE_YAML,
      'docs/index.md': '# Docs\n\nSee [setup](setup.md#install).\n\nAnd [gone](missing.md).\n',
      'docs/setup.md': '# Setup\n\n## Install\n\nRun it.\n',
    });
    const { site, problems } = await loadSite(root);
    expect(htmlOf(site.byUrl.get('/docs/')!)).toContain('<a href="/docs/setup#install">setup</a>');
    expect(located(problems)).toEqual([
      'docs/index.md:5: warning: the link to docs/missing.md leads nowhere: there is no such page in the content folder',
    ]);
  });
});

describe('readContent: text and digests', () => {
  it('drops a byte order mark, and digests the text with the modification day, empty files too', async () => {
    const root = contentFolder({
      'bom.md': '\uFEFF# With a mark\n\nText é.\n',
      'plain.md': '# With a mark\n\nText é.\n',
      'empty.md': '',
    });
    for (const name of ['bom.md', 'plain.md', 'empty.md'])
      utimesSync(join(root, name), new Date('2026-03-04T05:06:07Z'), new Date('2026-03-04T05:06:07Z'));
    const content = await readContent(root);
    const digest = (text: string) => createHash('sha256').update(`2026-03-04\n${text}`).digest('hex');
    expect(content.files.map(({ sourcePath, text, digest }) => ({ sourcePath, text, digest }))).toEqual([
      {
        sourcePath: 'bom.md',
        text: '# With a mark\n\nText é.\n',
        digest: digest('# With a mark\n\nText é.\n'),
      },
      { sourcePath: 'empty.md', text: '', digest: digest('') },
      {
        sourcePath: 'plain.md',
        text: '# With a mark\n\nText é.\n',
        digest: digest('# With a mark\n\nText é.\n'),
      },
    ]);
  });
});

describe('loadSite: problems with file and line', () => {
  it('reports a YAML error at its line in the file and loads the page without that key', async () => {
    const root = contentFolder({
      '_site.yaml': SITE_YAML,
      'broken.md': '---\ntitle: Fine\ndescription: also fine\ntags: [a, b\nnav: 1\n---\n# Body\n',
      'ok.md': '# OK\n\nLoaded.\n',
    });
    const { site, problems } = await loadSite(root);
    expect(site.pages.map((p) => p.url)).toEqual(['/broken', '/ok']);
    // The bracket opened on line 4 never closes: the problem points there, not where YAML gave up.
    expect(located(problems)).toEqual([
      'broken.md:4: error: front matter is not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]; `tags` is ignored',
    ]);
    expect(site.byUrl.get('/broken')).toMatchObject({
      title: 'Fine',
      description: 'also fine',
      tags: [],
      nav: 1,
    });
    expect(site.byUrl.get('/broken')!.headings).toEqual([{ level: 2, text: 'Body', anchor: 'body' }]);
  });

  it('points at the key whose quote never closes, and at a tab used as indentation', async () => {
    const root = contentFolder({
      '_site.yaml': SITE_YAML,
      'quote.md': '---\ndescription: fine\ntitle: "unterminated\nnav: 1\n---\ntext\n',
      'tab.md': '---\ntitle: x\n\tnav: 1\n---\ntext\n',
    });
    const { site, problems } = await loadSite(root);
    // The title is the broken value and the body has no heading: no title, so no page.
    expect(site.pages).toEqual([]);
    expect(located(problems)).toEqual([
      'quote.md:1: error: the page has no title: add "title: …" to the front matter or start the text with a "# Title" heading. The page is skipped',
      'quote.md:3: error: front matter is not valid YAML: Missing closing "quote; `title` is ignored',
      'tab.md:1: error: the page has no title: add "title: …" to the front matter or start the text with a "# Title" heading. The page is skipped',
      'tab.md:3: error: front matter is not valid YAML: Tabs are not allowed as indentation; `title` is ignored',
    ]);
  });

  it('reports duplicate keys in front matter at the second key and keeps the first', async () => {
    const root = contentFolder({
      '_site.yaml': SITE_YAML,
      'dup.md': '---\ntitle: One\ndescription: d\ntitle: Two\n---\ntext\n',
    });
    const { site, problems } = await loadSite(root);
    expect(site.pages.map((p) => [p.title, p.description])).toEqual([['One', 'd']]);
    expect(located(problems)).toEqual([
      'dup.md:4: error: front matter is not valid YAML: Map keys must be unique; this second `title` is ignored',
    ]);
  });

  it('reports front matter that is not a mapping, or never closed', async () => {
    const root = contentFolder({
      '_site.yaml': SITE_YAML,
      'list.md': '---\n- a\n- b\n---\n# List\n',
      'scalar.md': '---\njust text\n---\n# Scalar\n',
      'open.md': '---\ntitle: Open\n\n# Open\n\nNo closing fence.\n',
    });
    const { site, problems } = await loadSite(root);
    expect(site.pages).toEqual([]);
    expect(located(problems)).toEqual([
      'list.md:2: error: front matter must be a mapping of keys to values, one "key: value" per line',
      'open.md:1: error: the front matter that starts here is never closed: end it with a line holding only ---',
      'scalar.md:2: error: front matter must be a mapping of keys to values, one "key: value" per line',
    ]);
  });

  it('warns about values of the wrong type at their key line and still loads the page', async () => {
    const root = contentFolder({
      '_site.yaml': SITE_YAML,
      'types.md': page(
        [
          'title: Types',
          'description: 42',
          'date: 2025-02-30',
          'updated: yesterday',
          'tags: security',
          'nav: first',
          'order: [1]',
          'form: Contact us!',
        ].join('\n'),
      ),
      'tags.md': page('title: Tags\ntags: [ok, {a: 1}]\ndate: 2025-05-01\nupdated: 2025-04-01'),
    });
    const { site, problems } = await loadSite(root);
    expect(located(problems)).toEqual([
      'tags.md:3: warning: `tags` must be a list of words; non-text items are ignored',
      'tags.md:5: warning: `updated` (2025-04-01) is before `date` (2025-05-01)',
      'types.md:3: warning: `description` must be text; it is ignored',
      'types.md:4: warning: `date` must be a date written YYYY-MM-DD (or MM/DD/YYYY); it is ignored',
      'types.md:5: warning: `updated` must be a date written YYYY-MM-DD (or MM/DD/YYYY); it is ignored',
      'types.md:7: warning: `nav` must be a number; it is ignored',
      'types.md:8: warning: `order` must be a number; it is ignored',
      'types.md:9: warning: `form` must be the key of one of the site’s forms, such as demo; it is ignored',
    ]);
    expect(site.byUrl.get('/types')).toMatchObject({
      description: 'Some text.',
      date: null,
      tags: ['security'],
      nav: null,
      order: null,
      form: null,
    });
    expect(site.byUrl.get('/tags')!.tags).toEqual(['ok']);
  });

  it('skips a page with neither a title nor a # heading', async () => {
    const root = contentFolder({
      '_site.yaml': SITE_YAML,
      'untitled.md': page('description: No title here.', '## Only a section\n\nText.\n'),
      'bare.md': 'Just a paragraph.\n',
    });
    const { site, problems } = await loadSite(root);
    expect(site.pages).toEqual([]);
    expect(problems.map((p) => `${p.file}:${p.line}: ${p.severity}`)).toEqual([
      'bare.md:1: error',
      'untitled.md:1: error',
    ]);
    expect(problems[0]!.message).toMatch(/has no title/);
  });

  it('reports two files that give the same URL and keeps the first', async () => {
    // The same visible name in NFC and in NFD: two files on Linux, one URL.
    const root = contentFolder({
      '_site.yaml': SITE_YAML,
      'caf\u00e9.md': '# NFC\n\ntext\n',
      'cafe\u0301.md': '# NFD\n\ntext\n',
    });
    const { site, problems } = await loadSite(root);
    expect(site.pages.map((p) => [p.url, p.title])).toEqual([['/caf\u00e9', 'NFD']]);
    expect(located(problems)).toEqual([
      'caf\u00e9.md:-: error: has the same URL /caf\u00e9 as cafe\u0301.md; this page is skipped: rename one of the files',
    ]);
  });

  it('warns about URLs that differ only by case or a final slash, loading both', async () => {
    const root = contentFolder({
      '_site.yaml': SITE_YAML,
      'Guide.md': '# Upper\n\ntext\n',
      'guide.md': '# Lower\n\ntext\n',
      'team.md': '# Team\n\ntext\n',
      'team/index.md': '# Team index\n\ntext\n',
    });
    const { site, problems } = await loadSite(root);
    expect(site.pages.map((p) => p.url)).toEqual(['/Guide', '/guide', '/team', '/team/']);
    expect(located(problems)).toEqual([
      'guide.md:-: warning: its URL /guide differs from /Guide (Guide.md) only by letter case or a final slash; rename one so each address is clearly distinct',
      'team/index.md:-: warning: its URL /team/ differs from /team (team.md) only by letter case or a final slash; rename one so each address is clearly distinct',
    ]);
  });

  it('reports unreadable files, invalid UTF-8 and misnamed Markdown files', async () => {
    const root = contentFolder({
      '_site.yaml': SITE_YAML,
      'latin1.md': Buffer.concat([
        Buffer.from('# Caf\n\nline two\ncaf'),
        Buffer.from([0xe9]),
        Buffer.from('\n'),
      ]),
      'notes.markdown': '# Notes\n',
      'README.MD': '# Readme\n',
      'fine.md': '# Fine\n\ntext\n',
    });
    symlinkSync(join(root, 'does-not-exist.md'), join(root, 'dangling.md'));
    mkdirSync(join(root, 'real'));
    symlinkSync(join(root, 'real'), join(root, 'loop'));
    const { site, problems } = await loadSite(root);
    expect(site.pages.map((p) => p.url)).toEqual(['/fine']);
    expect(located(problems)).toEqual([
      'README.MD:-: warning: not loaded: only files ending in .md are pages; rename it to README.md',
      'dangling.md:-: error: the file cannot be read (ENOENT); the page is skipped',
      'latin1.md:4: error: the file is not valid UTF-8 text; save it as UTF-8. The page is skipped',
      'loop:-: warning: a symbolic link to a folder is not followed (it could loop); copy or move the folder instead',
      'notes.markdown:-: warning: not loaded: only files ending in .md are pages; rename it to notes.md',
    ]);
  });

  it.skipIf(process.getuid?.() === 0)('reports a file without read permission', async () => {
    const root = contentFolder({ '_site.yaml': SITE_YAML, 'secret.md': '# Secret\n' });
    chmodSync(join(root, 'secret.md'), 0o000);
    const { problems } = await loadSite(root);
    expect(located(problems)).toEqual([
      'secret.md:-: error: the file cannot be read (EACCES); the page is skipped',
    ]);
  });

  it('reports a missing content folder instead of throwing', async () => {
    const root = join(contentFolder({}), 'nope');
    const { site, problems } = await loadSite(root);
    expect(site.pages).toEqual([]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ file: '.', line: null, severity: 'error' });
  });
});

describe('loadSite: _site.yaml', () => {
  it('derives defaults from the home page and warns when the file is missing', async () => {
    const root = contentFolder({ 'index.md': page('title: Acme Widgets\ndescription: Widgets for all.') });
    const { site, problems } = await loadSite(root);
    expect(site.info).toEqual({
      name: 'Acme Widgets',
      legalName: 'Acme Widgets',
      tagline: '',
      description: 'Widgets for all.',
      contactEmail: '',
      salesEmail: '',
      address: '',
      foundingYear: null,
      sameAs: [],
      language: null,
      brand: defaultBrand(),
      navigation: null,
      footer: null,
    });
    expect(located(problems)).toEqual([
      expect.stringMatching(/^_site\.yaml:-: warning: there is no _site\.yaml/),
    ]);
  });

  it('warns about missing and invalid keys at their lines', async () => {
    const root = contentFolder({
      '_site.yaml': [
        'name: Acme',
        'tagline: Widgets.',
        'contactEmail: not-an-address',
        'foundingYear: "2019"',
        'sameAs: [ftp://example.com, https://example.com/acme]',
        'colour: blue',
      ].join('\n'),
      'index.md': page('title: Home\ndescription: Home of Acme.'),
    });
    const { site, problems } = await loadSite(root);
    expect(site.info).toMatchObject({
      name: 'Acme',
      legalName: 'Acme',
      tagline: 'Widgets.',
      description: 'Home of Acme.',
      contactEmail: '',
      foundingYear: null,
      sameAs: ['https://example.com/acme'],
    });
    expect(located(problems)).toEqual([
      '_site.yaml:-: warning: `address` is missing: it is left empty',
      '_site.yaml:-: warning: `description` is missing: "Home of Acme." is used',
      '_site.yaml:-: warning: `legalName` is missing: "Home" is used',
      '_site.yaml:-: warning: `salesEmail` is missing: it is left empty',
      '_site.yaml:3: warning: `contactEmail` "not-an-address" is not an e-mail address; it is ignored',
      '_site.yaml:4: warning: `foundingYear` must be a four-digit year such as 2019; it is ignored',
      '_site.yaml:5: warning: `sameAs` entry "ftp://example.com" is not a web address (https://…); it is ignored',
      '_site.yaml:6: warning: unknown key `colour` is ignored (known keys: name, legalName, tagline, description, contactEmail, salesEmail, address, foundingYear, sameAs, language, brand, navigation, footer, forms)',
    ]);
  });

  it('reports broken YAML as an error and uses defaults', async () => {
    const root = contentFolder({ '_site.yaml': 'name: Acme\nsameAs: [a\n', 'index.md': '# Home\n\nHi.\n' });
    const { site, problems } = await loadSite(root);
    expect(site.info.name).toBe('Home');
    expect(problems[0]).toMatchObject({ file: '_site.yaml', severity: 'error' });
    expect(problems[0]!.line).toBeGreaterThanOrEqual(2);
  });
});
