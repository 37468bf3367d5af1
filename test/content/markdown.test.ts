import type { default as MarkdownItConstructor } from 'markdown-it';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../bench/seeded-random.js';
import {
  encodePagePath,
  renderMarkdown,
  slugify,
  summarize,
  urlForSourcePath,
} from '../../src/content/index.js';
import { keepPlainUrlsAsWritten, passOverTextWithoutLinks } from '../../src/content/markdown.js';

describe('urlForSourcePath', () => {
  it('drops .md and lets index.md stand for its folder', () => {
    expect(urlForSourcePath('index.md')).toBe('/');
    expect(urlForSourcePath('solutions/index.md')).toBe('/solutions/');
    expect(urlForSourcePath('solutions/cros.md')).toBe('/solutions/cros');
    expect(urlForSourcePath('solutions/cros/study-start-up.md')).toBe('/solutions/cros/study-start-up');
    expect(urlForSourcePath('a/b/index.md')).toBe('/a/b/');
    // Only a whole segment named index is special.
    expect(urlForSourcePath('reindex.md')).toBe('/reindex');
  });

  it('normalises names to NFC', () => {
    expect(urlForSourcePath('cafe\u0301.md')).toBe('/caf\u00e9');
  });

  it('encodes each segment for an href', () => {
    expect(encodePagePath('/tldr/common/%')).toBe('/tldr/common/%25');
    expect(encodePagePath('/docs/a b?#')).toBe('/docs/a%20b%3F%23');
    expect(encodePagePath('/solutions/')).toBe('/solutions/');
  });
});

describe('slugify', () => {
  it('follows the GitHub rule with Unicode folding', () => {
    expect(slugify('Data residency & hosting')).toBe('data-residency--hosting');
    expect(slugify('Données à caractère personnel')).toBe('donnees-a-caractere-personnel');
    expect(slugify('Straße')).toBe('strasse');
    expect(slugify('ICH M11: the protocol')).toBe('ich-m11-the-protocol');
    expect(slugify('snake_case and-hyphen')).toBe('snake_case-and-hyphen');
    expect(slugify('Привет мир')).toBe('привет-мир');
    expect(slugify('!!!')).toBe('section');
  });
});

describe('summarize', () => {
  it('keeps short text and cuts long text on a word boundary', () => {
    expect(summarize('  Short   text. ')).toBe('Short text.');
    const long = 'word '.repeat(60).trim();
    const cut = summarize(long);
    expect(cut.length).toBeLessThanOrEqual(160);
    expect(cut.endsWith('word…')).toBe(true);
    expect(summarize('x'.repeat(300)).length).toBe(160);
  });
});

describe('renderMarkdown', () => {
  it('escapes raw HTML instead of passing it through', () => {
    const { html, sections } = renderMarkdown(
      'Hello <script>alert(1)</script> world\n\n<div onclick="x()">block</div>\n',
    );
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<div');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(sections[0]!.text).toContain('<script>alert(1)</script>');
  });

  it('refuses javascript: links', () => {
    const { html } = renderMarkdown('[click](javascript:alert(1))');
    expect(html).not.toContain('href="javascript:');
  });

  it('gives headings unique, stable anchors and demotes body h1 to h2', () => {
    const markdown =
      '# Intro\n\n## Usage\n\ntext\n\n## Usage\n\nmore\n\n### Usage 2\n\n## Usage\n\n## Café\n';
    const first = renderMarkdown(markdown);
    const second = renderMarkdown(markdown);
    expect(first.headings).toEqual([
      { level: 2, text: 'Intro', anchor: 'intro' },
      { level: 2, text: 'Usage', anchor: 'usage' },
      { level: 2, text: 'Usage', anchor: 'usage-2' },
      { level: 3, text: 'Usage 2', anchor: 'usage-2-2' },
      { level: 2, text: 'Usage', anchor: 'usage-3' },
      { level: 2, text: 'Café', anchor: 'cafe' },
    ]);
    expect(second).toEqual(first);
    expect(first.html).toContain('<h2 id="intro">Intro</h2>');
    expect(first.html).toContain('<h2 id="usage-2">Usage</h2>');
    expect(first.html).toContain('<h3 id="usage-2-2">Usage 2</h3>');
    expect(first.html).not.toContain('<h1');
  });

  it('skips an anchor another heading took when it hands out the next suffix (issue 37, finding 2)', () => {
    const markdown = '## Usage\n\n## Usage 3\n\n## Usage\n\n## Usage\n\n## Usage\n\n## Usage 3\n';
    expect(renderMarkdown(markdown).headings.map((heading) => heading.anchor)).toEqual([
      'usage',
      'usage-3',
      'usage-2',
      'usage-4',
      'usage-5',
      'usage-3-2',
    ]);
    // 20,000 repeats: every anchor unique, in order, the last one `same-20000`.
    const anchors = renderMarkdown('## Same\n\n'.repeat(20_000)).headings.map((heading) => heading.anchor);
    expect(new Set(anchors).size).toBe(20_000);
    expect(anchors.slice(0, 3)).toEqual(['same', 'same-2', 'same-3']);
    expect(anchors.at(-1)).toBe('same-20000');
  });

  it('takes the first h1 as the title when asked and leaves it out of the body', () => {
    const rendered = renderMarkdown(
      '\n# tar\n\n> Archiving utility.\n> Often combined with `gzip`.\n\n- list\n',
      {
        titleFromHeading: true,
      },
    );
    expect(rendered.headingTitle).toBe('tar');
    expect(rendered.headingTitleLines).toEqual([1, 2]);
    expect(rendered.html).not.toContain('tar</h');
    expect(rendered.leadParagraph).toBe('Archiving utility. Often combined with gzip.');
  });

  it('marks fenced code with its language and external links with rel=noopener', () => {
    const { html } = renderMarkdown(
      '```ts\nconst a = 1 < 2;\n```\n\nSee [docs](https://example.com/x), <https://example.org> and [home](/).\n',
    );
    expect(html).toContain('<pre><code class="language-ts">const a = 1 &lt; 2;\n</code></pre>');
    expect(html).toContain('<a href="https://example.com/x" rel="noopener">docs</a>');
    expect(html).toContain('<a href="https://example.org" rel="noopener">https://example.org</a>');
    expect(html).toContain('<a href="/">home</a>');
  });

  it('linkifies bare URLs', () => {
    expect(renderMarkdown('Visit https://example.com/page today.').html).toContain(
      '<a href="https://example.com/page" rel="noopener">https://example.com/page</a>',
    );
  });

  it('leaves names that only look like domains as text (fuzzy links off)', () => {
    const html = renderMarkdown('Set it in settings.py of an ASP.NET app, see www.example.com.').html;
    expect(html).toBe('<p>Set it in settings.py of an ASP.NET app, see www.example.com.</p>\n');
  });

  it('links the same text with and without the pass over blocks with no link sign', () => {
    const MarkdownIt = createRequire(import.meta.url)('markdown-it') as typeof MarkdownItConstructor;
    const parser = () => {
      const markdownIt = new MarkdownIt({ html: false, linkify: true, typographer: false });
      markdownIt.linkify.set({ fuzzyLink: false });
      return markdownIt;
    };
    const plain = parser();
    const passing = passOverTextWithoutLinks(parser());
    // Every link sign, in other cases and split by entities, escapes and inline markup, beside
    // text that only looks like a link; blocks of every kind that linkify reads.
    const pieces = [
      'http://a.example/x',
      'HTTPS://B.EXAMPLE/Y',
      'ftp://f.example',
      '//proto.example/p',
      'mailto:x@y.example',
      'MailTo:z@w.example',
      'me@example.com',
      'a&#64;b.example',
      'a\\@b.example',
      'h&#116;tp://e.example',
      'http&colon;//c.example',
      'http:/',
      '/',
      ':',
      '@',
      'www.example.com',
      'settings.py',
      'xhttp://q.example',
      '_http://u.example',
      '*http://em.example*',
      '`http://code.example`',
      '[label](http://l.example)',
      '<https://auto.example>',
      '&amp;',
      '\\*',
      ' ',
      ' ',
      '  \n',
      '\n',
      '\n\n',
      '# ',
      '- ',
      '> ',
      '| a | b |\n|---|---|\n| ',
    ];
    const random = seededRandom(11);
    let linked = 0;
    let passedOver = 0;
    for (let i = 0; i < 3000; i++) {
      let source = '';
      for (let n = 1 + Math.floor(random() * 8); n > 0; n--)
        source += pieces[Math.floor(random() * pieces.length)];
      const html = plain.render(source);
      expect(passing.render(source), source).toBe(html);
      if (html.includes('<a href')) linked++;
      if (!source.includes('//') && !source.includes('@')) passedOver++;
    }
    // The inputs exercise both sides: text that becomes links, and text the pass skips.
    expect(linked).toBeGreaterThan(500);
    expect(passedOver).toBeGreaterThan(300);
  });

  it('normalises link URLs and autolink texts as markdown-it does, plain URLs included', () => {
    const MarkdownIt = createRequire(import.meta.url)('markdown-it') as typeof MarkdownItConstructor;
    const plain = new MarkdownIt();
    const keeping = keepPlainUrlsAsWritten(new MarkdownIt());
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const random = seededRandom(7);
    const schemes = ['http://', 'https://', '//', 'HTTP://', 'ftp://', 'mailto:', 'https:/', ''];
    const labels = [
      'a',
      'example',
      'com',
      'x-y',
      'B',
      'a_b',
      'xn--bcher-kva',
      'bücher',
      '',
      '9',
      'l'.repeat(63),
      'l'.repeat(64),
    ];
    const ports = ['', '', ':8080', ':', ':8a'];
    const pathPieces = [
      '/',
      'a',
      'Z',
      '-._~',
      "!$&'()*+,;=",
      ':',
      '@',
      '?q=1',
      '#h',
      '%20',
      '%zz',
      '%',
      ' ',
      'é',
      '[]',
      '\\',
      '|',
      '"',
      '<>',
      '`^{}',
      '.md',
    ];
    let unchanged = 0;
    let changed = 0;
    for (let i = 0; i < 6000; i++) {
      let host = pick(labels);
      for (let n = Math.floor(random() * 3); n > 0; n--) host += `.${pick(labels)}`;
      let path = '';
      for (let n = Math.floor(random() * 6); n > 0; n--) path += pick(pathPieces);
      const url = `${pick(schemes)}${random() < 0.1 ? 'user@' : ''}${random() < 0.03 ? 'abcdefghij.'.repeat(26) + host : host}${pick(ports)}${path}`;
      const link = plain.normalizeLink(url);
      expect(keeping.normalizeLink(url), url).toBe(link);
      expect(keeping.normalizeLinkText(url), url).toBe(plain.normalizeLinkText(url));
      if (link === url) unchanged++;
      else changed++;
    }
    // Both kinds are well represented: URLs given back as written, and URLs normalisation changes.
    expect(unchanged).toBeGreaterThan(1000);
    expect(changed).toBeGreaterThan(1000);
  });

  it('rewrites relative .md links to page URLs, keeping the fragment', () => {
    const rendered = renderMarkdown(
      '[a](other.md#part) [b](../index.md) [c](sub/index.md) [d](../../outside.md) [e](/twin.md) [f](image.png) [g](My%20Page.md)\n',
      { sourcePath: 'guides/intro.md' },
    );
    expect(rendered.html).toContain('<a href="/guides/other#part">a</a>');
    expect(rendered.html).toContain('<a href="/">b</a>');
    expect(rendered.html).toContain('<a href="/guides/sub/">c</a>');
    // Outside the content folder, absolute (a Markdown twin) or not Markdown: left as written.
    expect(rendered.html).toContain('<a href="../../outside.md">d</a>');
    expect(rendered.html).toContain('<a href="/twin.md">e</a>');
    expect(rendered.html).toContain('<a href="image.png">f</a>');
    expect(rendered.html).toContain('<a href="/guides/My%20Page">g</a>');
    expect(rendered.links.map((link) => link.targetSourcePath)).toEqual([
      'guides/other.md',
      'index.md',
      'guides/sub/index.md',
      'guides/My Page.md',
    ]);
  });

  it('replaces table alignment styles with classes (the CSP forbids inline styles)', () => {
    const { html, sections } = renderMarkdown('| Visit | Day |\n|:--|--:|\n| Screening | -28 |\n');
    expect(html).not.toContain('style=');
    expect(html).toContain('<th class="align-left">Visit</th>');
    expect(html).toContain('<td class="align-right">-28</td>');
    expect(sections[0]!.text).toBe('Visit · Day\nScreening · -28');
  });

  it('splits sections at top-level h2 and h3 and keeps plain text without Markdown syntax', () => {
    const markdown = [
      'Lead with **bold**, `code` and a [link](https://example.com).',
      '',
      '## First',
      '',
      '- item one',
      '- item *two*',
      '',
      '#### Minor heading',
      '',
      '```sh',
      'echo hi',
      '```',
      '',
      '### Sub',
      '',
      '> quoted ![alt text](x.png)',
      '',
      '## Empty',
      '## Last',
      'end',
    ].join('\n');
    const { sections } = renderMarkdown(markdown);
    expect(sections).toEqual([
      { anchor: null, level: null, heading: null, text: 'Lead with bold, code and a link.' },
      { anchor: 'first', level: 2, heading: 'First', text: 'item one\nitem two\nMinor heading\necho hi' },
      { anchor: 'sub', level: 3, heading: 'Sub', text: 'quoted alt text' },
      { anchor: 'empty', level: 2, heading: 'Empty', text: '' },
      { anchor: 'last', level: 2, heading: 'Last', text: 'end' },
    ]);
  });

  it('does not take a paragraph in a list as the lead paragraph', () => {
    expect(renderMarkdown('- a list item\n\nThe first real paragraph.\n').leadParagraph).toBe(
      'The first real paragraph.',
    );
  });
});
