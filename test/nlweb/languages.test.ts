import { describe, expect, it } from 'vitest';
import { loadSite, translationsOf } from '../../src/content/index.js';
import { renderLayout } from '../../src/site/index.js';
import { AskResultSchema, createValidator, type AskResult } from '../../src/contract/index.js';
import { createAskService, parseAskBody, parseAskQueryString } from '../../src/nlweb/index.js';
import { contentFolder } from '../support/files.js';

/** A bilingual site: English at the top, German under /de/, one page with front matter `lang`. */
function bilingualSite(extra: Record<string, string> = {}) {
  return contentFolder({
    'index.md': '# Archives\n\nCreate an archive and compress the files of a folder.\n',
    'extract.md': '# Extracting\n\nUnpack an archive into a folder to get its files back.\n',
    'de/index.md': '# Archive\n\nErstelle ein Archiv und komprimiere die Dateien eines Ordners.\n',
    'de/entpacken.md':
      '# Entpacken\n\nEin Archiv in einen Ordner entpacken, um die Dateien zurückzubekommen.\n',
    'fr-notes.md': '---\nlang: fr\n---\n# Notes\n\nCréer une archive et compresser les fichiers.\n',
    ...extra,
  });
}

const validResult = createValidator(AskResultSchema, 'result');

describe('page languages', () => {
  it('takes front matter lang, then the language folder, then the text', async () => {
    const { site } = await loadSite(bilingualSite());
    const langOf = (url: string) => site.byUrl.get(url)?.lang;
    expect(langOf('/de/entpacken')).toBe('de');
    expect(langOf('/fr-notes')).toBe('fr');
    expect(langOf('/extract')).toBe('en');
    expect(site.byUrl.get('/de/entpacken')?.detectedLang).toBeNull();
  });

  it("gives a page with nothing to say the site's language, and warns about a tag that is not one", async () => {
    const { site, problems } = await loadSite(
      bilingualSite({
        '_site.yaml': 'name: Example\nlanguage: de-at\n',
        'bad.md': '---\nlang: "!!"\n---\n# Bad\n\nText.\n',
      }),
    );
    expect(site.info.language).toBe('de-AT');
    expect(site.byUrl.get('/extract')?.lang).toBe('de-AT');
    expect(site.byUrl.get('/fr-notes')?.lang).toBe('fr');
    expect(problems.some((p) => p.file === 'bad.md' && p.message.startsWith('`lang` must be a BCP 47'))).toBe(
      true,
    );
  });
});

describe('/ask in the asker’s language', () => {
  it('never leaves out a page whose language was only detected', async () => {
    const { site } = await loadSite(bilingualSite());
    const service = createAskService(site, 'https://example.test', { cacheSize: 0 });
    const answer = service.answer({ text: 'Archiv', maxResults: 10, conversationId: null, lang: 'de' }, 'r');
    const urls = answer.content.flatMap((item) => (item.type === 'resource' ? [item.resource.uri] : []));
    expect(urls).toContain('https://example.test/');
  });

  it('analyses a German query by German rules and answers with German pages, each with inLanguage', async () => {
    const { site } = await loadSite(bilingualSite({ '_site.yaml': 'name: Example\nlanguage: en\n' }));
    const service = createAskService(site, 'https://example.test', { cacheSize: 0 });
    const answer = service.answer(
      { text: 'Archiv entpacken', maxResults: 5, conversationId: null, lang: 'de' },
      'r',
    );
    const results = answer.content.flatMap((item) =>
      item.type === 'resource' ? [item.resource.data as AskResult] : [],
    );
    expect(results[0]?.url).toBe('https://example.test/de/entpacken');
    for (const result of results) {
      expect(result.inLanguage).toBe('de');
      expect(validResult(result).ok).toBe(true);
    }
    // Told from the text when not given.
    const told = service.answer(
      { text: 'Wie kann ich ein Archiv entpacken?', maxResults: 5, conversationId: null },
      'r',
    );
    const first = told.content.find((item) => item.type === 'resource');
    expect(first?.type === 'resource' && (first.resource.data as AskResult).inLanguage).toBe('de');
  });

  it('still finds pages in another language when the asked one has none', async () => {
    const { site } = await loadSite(bilingualSite());
    const service = createAskService(site, 'https://example.test', { cacheSize: 0 });
    const answer = service.answer({ text: 'archive', maxResults: 5, conversationId: null, lang: 'ja' }, 'r');
    expect(answer.content.some((item) => item.type === 'resource')).toBe(true);
  });

  it('reads lang from GET and POST and rejects what is not a language tag, naming the field', () => {
    const get = parseAskQueryString({ query: 'x', lang: 'pt-br' });
    expect(get.ok && get.query.lang).toBe('pt-BR');
    const bad = parseAskQueryString({ query: 'x', lang: 'not a tag!' });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.text).toContain('lang');
    const post = parseAskBody({ query: { text: 'x', lang: 'de' } });
    expect(post.ok && post.query.lang).toBe('de');
    const badPost = parseAskBody({ query: { text: 'x', lang: '12345' } });
    expect(!badPost.ok && badPost.text).toContain('query.lang');
  });
});

describe('translations', () => {
  it('groups the pages at one path across language folders, and the layout links them with hreflang', async () => {
    const { site } = await loadSite(
      bilingualSite({
        'de/extract.md': '# Entpacken\n\nEin Archiv entpacken.\n',
        'ja/extract.md': '# 展開\n\nアーカイブを展開する。\n',
      }),
    );
    const page = site.byUrl.get('/de/extract')!;
    expect(translationsOf(site, page).map((p) => `${p.lang} ${p.url}`)).toEqual([
      'de /de/extract',
      'en /extract',
      'ja /ja/extract',
    ]);
    expect(translationsOf(site, site.byUrl.get('/fr-notes')!)).toEqual([]);
    const html = renderLayout({
      site,
      publicBaseUrl: 'https://example.test',
      title: page.title,
      description: page.description,
      canonicalPath: page.url,
      lang: page.lang,
      bodyHtml: '',
      bare: true,
    });
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('<link rel="alternate" hreflang="ja" href="https://example.test/ja/extract">');
    expect(html).toContain('<link rel="alternate" hreflang="en" href="https://example.test/extract">');
  });
});
