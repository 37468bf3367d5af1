import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadSite, markdownOf, type ContentProblem, type Page, type Site } from '../../src/content/index.js';
import { contentFolder } from '../support/files.js';

/** Small built sites, one per generator, written as each generator writes its pages. */
const SITES = fileURLToPath(new URL('./html-sites/', import.meta.url));

async function load(style: string): Promise<{ site: Site; problems: ContentProblem[] }> {
  const { site, problems } = await loadSite(join(SITES, style));
  return { site, problems: problems.filter((problem) => problem.file !== '_site.yaml') };
}

const page = (site: Site, url: string): Page => {
  const found = site.byUrl.get(url);
  if (!found) throw new Error(`no page at ${url}; pages: ${site.pages.map((p) => p.url).join(', ')}`);
  return found;
};

/** Every word any passage of the site holds, for "never this text" checks. */
const allText = (site: Site): string =>
  site.pages
    .flatMap((p) => [p.title, p.description, ...p.passages.map((x) => x.text), p.markdown])
    .join('\n');

/** The element ids of a file, as a browser would reach them with #fragment (ids and <a name>). */
function idsIn(html: string): Set<string> {
  return new Set([...html.matchAll(/\s(?:id|name)="([^"]+)"/g)].map((m) => m[1]!));
}

describe('built HTML: addresses as a static host serves them', () => {
  it('a/index.html is /a/, index.html is /, a.html is /a.html (Sphinx)', async () => {
    const mkdocs = await load('mkdocs');
    expect(mkdocs.site.pages.map((p) => [p.sourcePath, p.url])).toEqual([
      ['index.html', '/'],
      ['guide/install/index.html', '/guide/install/'],
    ]);
    const sphinx = await load('sphinx');
    expect(sphinx.site.pages.map((p) => p.url)).toEqual(['/install.html']);
  });

  it('a.html is /a when the site links its pages without the extension (VitePress cleanUrls)', async () => {
    const { site } = await load('vitepress');
    expect(site.pages.map((p) => [p.sourcePath, p.url])).toEqual([
      ['guide/setup.html', '/guide/setup'],
      ['guide/usage.html', '/guide/usage'],
    ]);
  });

  it('<link rel="canonical"> wins over the file path', async () => {
    const root = contentFolder({
      'out/page-7.html':
        '<title>Pricing</title><link rel="canonical" href="https://example.com/pricing/"><main><p>Plans.</p></main>',
    });
    const { site } = await loadSite(root);
    expect(site.pages.map((p) => [p.sourcePath, p.url])).toEqual([['out/page-7.html', '/pricing/']]);
  });

  it('.md and .html pages load side by side', async () => {
    const root = contentFolder({
      'index.md': '# Home\n\nWelcome.\n',
      'legacy/old.html':
        '<title>Old page | Site</title><main><h1>Old page</h1><p>Kept from the old site.</p></main>',
    });
    const { site, problems } = await loadSite(root);
    expect(site.pages.map((p) => [p.url, p.title])).toEqual([
      ['/', 'Home'],
      ['/legacy/old.html', 'Old page'],
    ]);
    expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
  });
});

describe('built HTML: title, description, dates, language', () => {
  it('removes the site name from <title> for every generator style', async () => {
    const titles: Record<string, string> = {};
    for (const style of ['mkdocs', 'docusaurus', 'vitepress', 'hugo', 'sphinx'])
      for (const p of (await load(style)).site.pages) titles[`${style}${p.url}`] = p.title;
    expect(titles).toEqual({
      'mkdocs/': 'Acme Docs',
      'mkdocs/guide/install/': 'Installing Acme', // "Installing Acme - Acme Docs"
      'docusaurus/docs/intro/': 'Getting started', // "Getting started | Beacon Docs"
      'vitepress/guide/setup': 'Einrichtung', // "Einrichtung | Kompass"
      'vitepress/guide/usage': 'Benutzung',
      'hugo/': 'Field Notes',
      'hugo/posts/first-post/': 'Bird counts in spring', // "… · Field Notes"
      'sphinx/install.html': 'Installation', // "Installation — Quarry 2.1 documentation"
    });
  });

  it('strips og:site_name when the h1 differs, and takes the first <h1> without a <title>', async () => {
    const root = contentFolder({
      'a.html':
        '<head><title>Plans and prices | Acme</title><meta property="og:site_name" content="Acme"></head><main><h1>Pricing</h1></main>',
      'b.html': '<main><h1>Only a heading</h1><p>Text.</p></main>',
      'c.html': '<title>A | B | C</title><main><p>No heading and no site name: kept whole.</p></main>',
    });
    const { site } = await loadSite(root);
    expect(site.pages.map((p) => p.title)).toEqual(['Plans and prices', 'Only a heading', 'A | B | C']);
  });

  it('description from meta description, else og:description, else the first paragraph', async () => {
    const docusaurus = (await load('docusaurus')).site;
    expect(page(docusaurus, '/docs/intro/').description).toBe(
      'Set up Beacon and send your first event in five minutes.',
    );
    const hugo = (await load('hugo')).site;
    expect(page(hugo, '/posts/first-post/').description).toBe(
      'How we counted warblers along the river in April.',
    );
    const mkdocs = (await load('mkdocs')).site;
    expect(page(mkdocs, '/guide/install/').description).toBe(
      'Download the installer for your system and run it.',
    );
  });

  it('dates from article:*_time, JSON-LD and <time>', async () => {
    const hugo = page((await load('hugo')).site, '/posts/first-post/');
    expect([hugo.date, hugo.lastModified]).toEqual(['2026-04-02', '2026-04-20']);
    // Docusaurus: <time itemprop="dateModified"> in its "Last updated" line.
    expect(page((await load('docusaurus')).site, '/docs/intro/').lastModified).toBe('2026-03-14');
    // VitePress: <time> inside its .last-updated block.
    expect(page((await load('vitepress')).site, '/guide/setup').lastModified).toBe('2026-02-01');
    const root = contentFolder({
      'x.html':
        '<title>X</title><script type="application/ld+json">{"@context":"https://schema.org","@type":"Article","datePublished":"2025-05-01","dateModified":"2025-06-30T10:00:00Z"}</script><main><p>x</p></main>',
    });
    const x = (await loadSite(root)).site.pages[0]!;
    expect([x.date, x.lastModified]).toEqual(['2025-05-01', '2025-06-30']);
  });

  it('language from <html lang>, detected when the page gives none', async () => {
    const declared = page((await load('vitepress')).site, '/guide/setup');
    expect([declared.lang, declared.detectedLang]).toEqual(['de-DE', null]);
    expect(page((await load('hugo')).site, '/').lang).toBe('en-US');
    const silent = page((await load('broken')).site, '/empty.html');
    expect(silent.detectedLang).not.toBeNull();
    expect(silent.lang).toBe(silent.detectedLang);
  });
});

describe('built HTML: the text is the main content only', () => {
  it('leaves out navigation, headers, footers, sidebars, tables of contents, banners, forms and code buttons', async () => {
    const text = ['mkdocs', 'docusaurus', 'vitepress', 'hugo', 'sphinx'];
    for (const style of text) {
      const all = allText((await load(style)).site);
      for (const chrome of [
        /footer/i, // every fixture's footer says "… Footer …" / "Fußzeile"
        /Fußzeile/,
        /sidebar|Seitenleiste/i,
        /Toc .* entry/,
        /crumb/i,
        /Skip to/,
        /Edit this page|Seite bearbeiten/,
        /Next page label|Nächste Seite/,
        /Copy button text/,
        /cookies/,
        /Search modal/,
        /subscribers/,
        /Template text|Svg label/,
        /Share this post/, // data-frontdoor-ignore
        /localStorage|hljs|__VP_HASH_MAP__/, // scripts
        /¶/,
      ])
        expect(all, `${style}: ${chrome}`).not.toMatch(chrome);
    }
  });

  it('keeps the content: paragraphs, list items, code blocks', async () => {
    const install = page((await load('mkdocs')).site, '/guide/install/');
    expect(install.passages.map((p) => p.text).join(' ')).toContain(
      'export HTTPS_PROXY=http://proxy.internal:3128 acme start',
    );
    const home = page((await load('mkdocs')).site, '/');
    expect(home.passages.find((p) => p.anchor === 'features')?.text).toBe(
      'Live charts from any spreadsheet Sharing with one link',
    );
  });

  it('uses [data-frontdoor-body] first, then an owner-set selector, then <main>', async () => {
    const html =
      '<title>T</title><body><main><p>Main text.</p><div class="prose"><p>Prose text.</p></div></main>' +
      '<div data-frontdoor-body><p>Marked text.</p></div></body>';
    const marked = (await loadSite(contentFolder({ 'a.html': html }))).site.pages[0]!;
    expect(marked.passages.map((p) => p.text)).toEqual(['Marked text.']);
    const plain = html.replace(' data-frontdoor-body', '');
    const bySelector = (await loadSite(contentFolder({ 'a.html': plain }), { htmlBodySelector: 'div.prose' }))
      .site.pages[0]!;
    expect(bySelector.passages.map((p) => p.text)).toEqual(['Prose text.']);
    const byMain = (await loadSite(contentFolder({ 'a.html': plain }))).site.pages[0]!;
    expect(byMain.passages.map((p) => p.text)).toEqual(['Main text. Prose text.']);
  });

  it('reports a selector it cannot read once for the site, and reads the pages without it', async () => {
    const { site, problems } = await loadSite(
      contentFolder({
        'a.html': '<title>A</title><main>a</main>',
        'b.html': '<title>B</title><main>b</main>',
      }),
      { htmlBodySelector: 'main > p' },
    );
    expect(problems.filter((p) => p.severity === 'error')).toEqual([
      {
        file: '.',
        line: null,
        severity: 'error',
        message: expect.stringMatching(/^CONTENT_HTML_BODY: "main > p" is not a selector/),
      },
    ]);
    expect(site.pages.map((p) => p.passages[0]!.text)).toEqual(['a', 'b']);
  });
});

describe('built HTML: sections link to anchors that exist', () => {
  it('every passage anchor and heading anchor is an element id of its file', async () => {
    for (const style of ['mkdocs', 'docusaurus', 'vitepress', 'hugo', 'sphinx', 'broken']) {
      const { site } = await load(style);
      for (const p of site.pages) {
        const ids = idsIn(readFileSync(join(SITES, style, p.sourcePath), 'utf8'));
        for (const anchor of [...p.passages.map((x) => x.anchor), ...p.headings.map((h) => h.anchor)])
          if (anchor !== null) expect(ids, `${style}/${p.sourcePath}#${anchor}`).toContain(anchor);
      }
    }
  });

  it("takes the heading's id, else the id just before it (Sphinx <section id>, <span id>)", async () => {
    const sphinx = page((await load('sphinx')).site, '/install.html');
    // "Offline machines" has no id and its permalink points at an id that does not exist: the
    // <span id="target-offline"> right before it is the anchor.
    expect(sphinx.passages.map((p) => p.key)).toEqual([
      '/install.html',
      '/install.html#from-pypi',
      '/install.html#from-source',
      '/install.html#target-offline',
    ]);
  });

  it('a heading with no anchor at all stays in the section before it', async () => {
    const post = page((await load('hugo')).site, '/posts/first-post/');
    expect(post.passages.map((p) => p.anchor)).toEqual([null, 'method', 'results']);
    expect(post.passages.at(-1)!.text).toContain('Unanchored notes Weather was mild and dry.');
  });
});

describe('built HTML: pages that are not indexed', () => {
  it('skips noindex pages, redirect stubs and the host 404 page, without a problem', async () => {
    const { site, problems } = await load('docusaurus');
    expect(site.pages.map((p) => p.sourcePath)).toEqual(['docs/intro/index.html']);
    expect(problems).toEqual([]);
    const mkdocs = await load('mkdocs');
    expect(mkdocs.site.pages.map((p) => p.sourcePath)).not.toContain('404.html');
  });
});

describe('built HTML: schema.org JSON-LD', () => {
  it('keeps valid schema.org objects and reports a block that is not JSON', async () => {
    const { site, problems } = await load('hugo');
    expect(page(site, '/posts/first-post/').schemaOrg).toEqual([
      {
        '@context': 'https://schema.org',
        '@type': 'BlogPosting',
        headline: 'Bird counts in spring',
        datePublished: '2026-04-02',
        author: { '@type': 'Person', name: 'Ada Fielding' },
      },
    ]);
    expect(problems.map((p) => `${p.file}: ${p.severity}`)).toEqual(['posts/first-post/index.html: warning']);
    expect(problems[0]!.message).toMatch(/JSON-LD block is not valid JSON/);
  });

  it('bounds its size and leaves out JSON-LD that is not schema.org', async () => {
    const big = { '@context': 'https://schema.org', '@type': 'Thing', description: 'x'.repeat(9000) };
    const root = contentFolder({
      'a.html': `<title>A</title><script type="application/ld+json">${JSON.stringify([
        { '@context': 'https://schema.org', '@type': 'WebPage', name: 'A' },
        big,
      ])}</script><script type="application/ld+json">{"@context":"https://example.org/vocab","x":1}</script><main>a</main>`,
    });
    const { site, problems } = await loadSite(root);
    expect(site.pages[0]!.schemaOrg).toEqual([
      { '@context': 'https://schema.org', '@type': 'WebPage', name: 'A' },
    ]);
    expect(problems.map((p) => p.message)).toContainEqual(expect.stringContaining('longer than 8192'));
  });
});

describe('built HTML: broken markup', () => {
  it('is read as a browser reads it, reported with file and reason, and never stops the load', async () => {
    const { site, problems } = await load('broken');
    expect(site.pages.map((p) => p.sourcePath)).toEqual([
      'comment.html',
      'empty.html',
      'truncated.html',
      'unclosed.html',
    ]);
    expect(problems.map((p) => `${p.file}: ${p.severity}: ${p.message.replace(/\(.*\)/, '(…)')}`)).toEqual([
      'comment.html: warning: the HTML is malformed (…); it was read as a browser reads it, check that the page shows what you meant',
      'fragment.html: warning: not indexed: the HTML has no <title> and no <h1>; add one of them',
      'plain.html: warning: not indexed: the HTML has no <title> and no <h1>; add one of them',
      'truncated.html: warning: the HTML is malformed (…); it was read as a browser reads it, check that the page shows what you meant',
    ]);
    expect([problems[0]!.line, problems[0]!.message]).toEqual([6, expect.stringContaining('eof-in-comment')]); // where the file ends, inside the comment;
    expect(problems[3]!.message).toContain('eof-in-tag');
    // What a browser hides inside the open comment is not text.
    expect(page(site, '/comment.html').passages.map((p) => p.text)).toEqual(['Visible text.']);
    // An unclosed <h2> holds what follows it, as in a browser.
    expect(page(site, '/unclosed.html').headings[0]!.text).toBe(
      'First part Text in a paragraph that never closes cell one cell two',
    );
  });
});

describe('built HTML: the Markdown twin', () => {
  it('has the title, description, headings, list items and fenced code', async () => {
    const install = page((await load('mkdocs')).site, '/guide/install/');
    expect(markdownOf(install)).toBe(
      [
        '# Installing Acme',
        'Download the installer for your system and run it.',
        '## Requirements',
        'A computer with 4 GB of memory and a recent browser.',
        '### Proxy settings',
        'Set HTTPS_PROXY before the first start.',
        '```\nexport HTTPS_PROXY=http://proxy.internal:3128\nacme start\n```',
        'Verifying',
        'Open the status page to check the connection.',
      ].join('\n\n') + '\n',
    );
    const home = page((await load('mkdocs')).site, '/');
    expect(markdownOf(home)).toContain('- Live charts from any spreadsheet\n\n- Sharing with one link');
  });
});
