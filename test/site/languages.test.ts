import { describe, expect, it } from 'vitest';
import { loadSite, type Site } from '../../src/content/index.js';
import type { ErrorBody } from '../../src/contract/index.js';
import {
  renderContentPage,
  renderLayout,
  renderErrorPage,
  renderNotFoundPage,
  renderSearchPage,
  searchForPage,
} from '../../src/site/index.js';
import { createAskService } from '../../src/nlweb/index.js';
import { contentFolder } from '../support/files.js';

const BASE = 'https://example.test';

async function site(files: Record<string, string> = {}): Promise<Site> {
  const { site } = await loadSite(
    contentFolder({
      '_site.yaml': 'name: Example\nlanguage: en\n',
      'guide.md': '# Guide\n\nHow to make an archive.\n',
      'de/guide.md': '# Anleitung\n\nSo erstellen Sie ein Archiv.\n',
      'ja/guide.md': '# ガイド\n\nアーカイブの作り方。\n',
      'about.md': '# About\n\nWho we are.\n',
      'ko-notes.md': '---\nlang: ko\n---\n# 메모\n\n압축 방법.\n',
      ...files,
    }),
  );
  return site;
}

function pageHtml(s: Site, url: string): string {
  const page = s.byUrl.get(url)!;
  return renderLayout({
    site: s,
    publicBaseUrl: BASE,
    title: page.title,
    description: page.description,
    canonicalPath: page.url,
    lang: page.lang,
    bodyHtml: '<p>x</p>',
    dateModified: '2026-10-14',
  });
}

/** The JSON-LD graph of a page. */
function graphOf(html: string): Record<string, unknown>[] {
  const json = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)![1]!;
  return (JSON.parse(json) as { '@graph': Record<string, unknown>[] })['@graph'];
}

describe('language switch', () => {
  it('links each translation in its own language, with lang and hreflang, the current one marked', async () => {
    const s = await site();
    const html = pageHtml(s, '/de/guide');
    const nav = /<nav class="language-switch" aria-label="Sprachen">(.*?)<\/nav>/.exec(html)?.[1];
    expect(nav).toBe(
      '<ul>' +
        '<li><a href="/de/guide" lang="de" hreflang="de" aria-current="page">Deutsch</a></li>' +
        '<li><a href="/guide" lang="en" hreflang="en">English</a></li>' +
        '<li><a href="/ja/guide" lang="ja" hreflang="ja">日本語</a></li>' +
        '</ul>',
    );
    // Inside the header, with its own stylesheet; plain links (no script needed).
    const header = /<header class="site-header">.*?<\/header>/s.exec(html)![0];
    expect(header).toContain('class="language-switch"');
    expect(header).toMatch(/<link rel="stylesheet" href="\/assets\/language-switch\.css\?v=[0-9a-f]{12}">/);
  });

  it('is absent from a page without translations', async () => {
    const s = await site();
    const html = pageHtml(s, '/about');
    expect(html).not.toContain('language-switch');
  });
});

describe('the site’s own words in the page’s language', () => {
  it('writes a German page’s chrome, og:locale and JSON-LD inLanguage in German', async () => {
    const s = await site();
    const html = pageHtml(s, '/de/guide');
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('<a class="skip-link" href="#main">Zum Inhalt springen</a>');
    expect(html).toContain(
      '<label class="visually-hidden" for="header-search-input">Website durchsuchen</label>',
    );
    expect(html).toContain('>Demo anfragen</a>');
    expect(html).toContain('<h2 class="footer-title">Unternehmen</h2>');
    expect(html).toContain('Aktualisiert <time datetime="2026-10-14">14. Oktober 2026</time>');
    expect(html).toContain('<meta property="og:locale" content="de_DE">');
    const page = graphOf(html).find((node) => node['@type'] === 'WebPage')!;
    expect(page.inLanguage).toBe('de');
    const japanese = pageHtml(s, '/ja/guide');
    expect(japanese).toContain('<meta property="og:locale" content="ja_JP">');
    expect(japanese).toContain('>デモを依頼</a>');
  });

  it('keeps English words for English pages and for a language without a catalogue', async () => {
    const s = await site();
    const english = pageHtml(s, '/about');
    expect(english).toContain('<a class="skip-link" href="#main">Skip to main content</a>');
    expect(english).toContain('Updated <time datetime="2026-10-14">14 October 2026</time>');
    const korean = pageHtml(s, '/ko-notes');
    expect(korean).toContain('<html lang="ko">');
    expect(korean).toContain('<a class="skip-link" href="#main">Skip to main content</a>');
    expect(korean).toContain('<meta property="og:locale" content="ko_KR">');
    expect(graphOf(korean).find((node) => node['@type'] === 'WebPage')!.inLanguage).toBe('ko');
  });

  it('writes the 404 page in the asker’s language, else the site’s', async () => {
    const s = await site();
    const german = renderNotFoundPage({ site: s, publicBaseUrl: BASE }, '/de/fehlt', [], 'de');
    expect(german).toContain('<html lang="de">');
    expect(german).toContain('<h1 id="not-found-title">Seite nicht gefunden</h1>');
    expect(german).toContain('<p class="lead">Unter <code>/de/fehlt</code> gibt es keine Seite.');
    const other = renderNotFoundPage({ site: s, publicBaseUrl: BASE }, '/missing<b>');
    expect(other).toContain('<h1 id="not-found-title">Page not found</h1>');
    expect(other).toContain('<code>/missing&lt;b&gt;</code>');
  });

  it('writes an error page’s headings in the asker’s language, the envelope’s message as it is', async () => {
    const s = await site();
    const error: ErrorBody = {
      ok: false,
      error: 'The server failed.',
      code: 'INTERNAL_ERROR',
      message: 'The server failed.',
      resolution: 'Try again later.',
    };
    const german = renderErrorPage({ site: s, publicBaseUrl: BASE }, '/de/guide', 500, error, 'de');
    expect(german).toContain('<html lang="de">');
    expect(german).toContain(
      '<p class="code">Fehler 500</p><h1 id="error-title">Etwas ist schiefgelaufen</h1>',
    );
    expect(german).toContain('<p class="lead">The server failed.</p>');
    expect(german).toContain('<a href="/">Zur Startseite</a>');
    const english = renderErrorPage({ site: s, publicBaseUrl: BASE }, '/x', 413, error);
    expect(english).toContain(
      '<p class="code">Error 413</p><h1 id="error-title">The request could not be handled</h1>',
    );
  });

  it('writes the search page in the site’s language', async () => {
    const s = await site({ '_site.yaml': 'name: Beispiel\nlanguage: de\n' });
    const html = renderSearchPage(
      { site: s, publicBaseUrl: BASE },
      { query: 'archiv', status: '1 Ergebnis für „archiv“', hits: [] },
    );
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('<h1 id="search-title">Suchen</h1>');
    expect(html).toContain('placeholder="Seiten und Dokumentation durchsuchen"');
    expect(html).toContain('<title>Suche: archiv | Beispiel</title>');
  });
});

describe('the words around a page’s content in its language', () => {
  it('writes a German section’s breadcrumb, and its sub-page cards in German, and the English home page in English', async () => {
    const s = await site({
      'index.md': '# Example\n\nArchives made simple.\n',
      'de/index.md': '# Archive\n\nAlles über Archive.\n',
      'de/guide.md': '# Anleitung\n\nSo erstellen Sie ein Archiv.\n',
      'de/tipps.md': '# Tipps\n\nKleine Archive.\n',
    });
    const view = { site: s, publicBaseUrl: BASE };
    const section = renderContentPage(view, s.byUrl.get('/de/')!);
    expect(section).toContain('<h2 id="children-title">In diesem Bereich</h2>');
    expect(section).toContain('<span class="card-more" aria-hidden="true">Weiterlesen →</span>');
    expect(section).toMatch(
      /<nav class="breadcrumbs" aria-label="Brotkrümelnavigation"><ol><li><a href="\/">Startseite<\/a>/,
    );
    const home = renderContentPage(view, s.byUrl.get('/')!);
    expect(home).toContain('>Request a demo</a>');
    // Below the German home, "Startseite" is the German home, not the English one.
    const guide = renderContentPage(view, s.byUrl.get('/de/guide')!);
    expect(guide).toMatch(
      /<nav class="breadcrumbs" aria-label="Brotkrümelnavigation"><ol><li><a href="\/de\/">Startseite<\/a><\/li><li><span aria-current="page">Anleitung<\/span><\/li><\/ol>/,
    );
  });

  it('writes a German home page’s closing call to the demo in German', async () => {
    const { site: s } = await loadSite(
      contentFolder({
        '_site.yaml': 'name: Beispiel\nlanguage: de\n',
        'index.md': '# Beispiel\n\nArchive leicht gemacht.\n',
        'preise.md': '# Preise\n\nWas es kostet.\n',
      }),
    );
    const home = renderContentPage({ site: s, publicBaseUrl: BASE }, s.byUrl.get('/')!);
    expect(home).toContain('<h2 id="closing-title">Beispiel in Aktion erleben</h2>');
    expect(home).toContain('Erzählen Sie uns von Ihrem Team');
    expect(home).not.toContain('in action');
  });

  it('says a search is too long in the asker’s language', async () => {
    const s = await site();
    const ask = createAskService(s, BASE);
    const { status, outcome } = await searchForPage(ask, 'a'.repeat(1001), BASE, 'r', () => null, {
      acceptLanguage: 'ja',
    });
    expect(status).toBe(400);
    expect(outcome.status).toBe('検索語が長すぎます（1001 文字）。1000 文字以内にしてください。');
  });
});

describe('menus in the page’s language', () => {
  const files = {
    'index.md': '# Example\n\nArchives made simple.\n',
    'pricing.md': '# Pricing\n\nPlans.\n',
    'de/index.md': '# Beispiel\n\nArchive leicht gemacht.\n',
    'de/pricing.md': '---\nnavTitle: Preise\n---\n# Preise und Pakete\n\nTarife.\n',
    'ja/index.md': '# 例\n\nアーカイブを簡単に。\n',
  };
  const header = (html: string) => /<header[\s\S]*?<\/header>/.exec(html)![0];
  const footer = (html: string) => /<footer[\s\S]*?<\/footer>/.exec(html)![0];

  it('leaves the language folders out of a derived header (the language switch links them)', async () => {
    const s = await site(files);
    const menu = /<nav class="main-nav"[\s\S]*?<\/nav>/.exec(header(pageHtml(s, '/')))![0];
    expect(menu).toContain('href="/pricing"');
    expect(menu).toContain('href="/guide"');
    expect(menu).not.toContain('href="/de/"');
    expect(menu).not.toContain('href="/ja/"');
  });

  it('leads a German page’s header and footer to the German pages, named by them, and its logo to the German home', async () => {
    const s = await site(files);
    const html = pageHtml(s, '/de/guide');
    expect(header(html)).toContain('<a href="/de/pricing">Preise</a>');
    expect(header(html)).toContain('<a href="/de/guide" aria-current="page">Anleitung</a>');
    expect(header(html)).toContain('<a class="brand" href="/de/">');
    // A page the site has only in English keeps its link.
    expect(footer(html)).toContain('<a href="/about">About</a>');
    expect(footer(html)).toContain('<a href="/de/pricing">Preise</a>');
    // The English page is unchanged.
    const english = pageHtml(s, '/guide');
    expect(header(english)).toContain('<a href="/pricing">Pricing</a>');
    expect(header(english)).toContain('<a class="brand" href="/">');
  });
});
