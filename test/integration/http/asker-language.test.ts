import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAskServer, type AskApp } from '../../support/servers.js';
import { FILES_WITH_JAPANESE } from '../../nlweb/multilingual-site.js';

/** The page's language and its words as the browser scripts get them. */
function languageOf(html: string): { lang: string; words: Record<string, string> } {
  const lang = /<html lang="([^"]+)">/.exec(html)![1]!;
  const block = /<script type="application\/json" id="frontdoor-words">(.*?)<\/script>/s.exec(html)![1]!;
  return { lang, words: (JSON.parse(block) as { say: Record<string, string> }).say };
}

describe('the search page and the 404 page on a site in four languages', () => {
  let server: AskApp;
  beforeAll(async () => {
    server = await startAskServer(FILES_WITH_JAPANESE, { cacheSize: 10 });
  });
  afterAll(async () => {
    await server?.close();
  });

  const get = (url: string, acceptLanguage?: string) =>
    server.app.inject({
      method: 'GET',
      url,
      headers: { accept: 'text/html', ...(acceptLanguage ? { 'accept-language': acceptLanguage } : {}) },
    });

  it('writes the search page in the asker’s language: Accept-Language, `lang`, the query’s script', async () => {
    const german = await get('/search?q=archiv', 'de-DE, en;q=0.5');
    expect(german.statusCode).toBe(200);
    expect(german.headers.vary).toContain('Accept-Language');
    expect(languageOf(german.body).lang).toBe('de');
    expect(german.body).toContain('<h1 id="search-title">Suchen</h1>');
    expect(german.body).toMatch(/<p class="results-status"[^>]*>\d+ Ergebnis(?:se)? für „archiv“<\/p>/);
    expect(languageOf(german.body).words.searching).toBe('Suche läuft…');

    const asked = await get('/search?q=archive&lang=ja', 'de');
    expect(languageOf(asked.body).lang).toBe('ja');
    expect(asked.body).toContain('<h1 id="search-title">検索</h1>');

    // Kana: Japanese, whatever the header prefers; nothing found is said in Japanese too.
    const japanese = await get(`/search?q=${encodeURIComponent('ぞぞぞ？')}`, 'fr');
    expect(languageOf(japanese.body).lang).toBe('ja');
    expect(japanese.body).toContain('で「ぞぞぞ？」に一致するものはありませんでした');

    // No query: the header alone; none of its languages on the site: the site's.
    expect(languageOf((await get('/search', 'fr-CA')).body).lang).toBe('fr');
    expect((await get('/search', 'fr-CA')).body).toContain('aria-label="Rechercher sur ce site"');
    const korean = await get('/search', 'ko');
    expect(languageOf(korean.body).lang).toBe('en');
    expect(languageOf(korean.body).words.searching).toBe('Searching…');
  });

  it('says a weak match on the search page in the asker’s language, whatever language the answer says it in', async () => {
    const status = (body: string) => /<p class="results-status"[^>]*>(.*?)<\/p>/s.exec(body)?.[1];
    expect(status((await get(`/search?q=${encodeURIComponent('entpacken zzqxv?')}`, 'de')).body)).toBe(
      'Keine Seite passt gut zu „entpacken zzqxv?“; die nächstliegenden Seiten:',
    );
    expect(status((await get(`/search?q=${encodeURIComponent('展開 zzqxv?')}&lang=ja`)).body)).toBe(
      '「展開 zzqxv?」によく一致するページはありません。近いページ:',
    );
    expect(status((await get(`/search?q=${encodeURIComponent('extract zzqxv?')}&lang=en`)).body)).toBe(
      'No page matches “extract zzqxv?” well; the closest pages:',
    );
    // While the last word is being typed, a count: the match is not yet judged.
    expect(status((await get(`/search?q=${encodeURIComponent('entpacken zzqx')}`, 'de')).body)).toBe(
      '1 Ergebnis für „entpacken zzqx“',
    );
  });

  it('writes the 404 page in the folder’s language, else the header’s, with its closest pages in it', async () => {
    const folder = await get('/de/entpacken-fehlt', 'en');
    expect(folder.statusCode).toBe(404);
    expect(folder.headers.vary).toContain('Accept-Language');
    expect(languageOf(folder.body).lang).toBe('de');
    expect(folder.body).toContain('<h1 id="not-found-title">Seite nicht gefunden</h1>');
    expect(folder.body).toContain('<a href="/de/extract">');

    // English words, a Japanese reader: the page is in Japanese (its closest pages, found by the
    // words, may be English).
    const header = await get('/missing-archive', 'ja, en;q=0.5');
    expect(languageOf(header.body).lang).toBe('ja');
    expect(header.body).toContain('<h1 id="not-found-title">ページが見つかりません</h1>');

    const param = await get('/missing-archive?lang=fr', 'ja');
    expect(param.body).toContain('<h1 id="not-found-title">Page introuvable</h1>');

    // A top folder that names a language the site does not have is just a folder.
    const norwegian = await get('/no/such/page', 'ko');
    expect(languageOf(norwegian.body).lang).toBe('en');
  });

  it('gives the embed its words in the host page’s language, English without a catalogue', async () => {
    const german = await server.app.inject({ method: 'GET', url: '/embed/words.json?lang=de-AT' });
    expect(german.statusCode).toBe(200);
    expect(german.headers['access-control-allow-origin']).toBe('*');
    const body = german.json() as { say: Record<string, string>; corrections: string[] };
    expect(body.say.seeAllResults).toBe('Alle Ergebnisse anzeigen');
    expect(body.say.formLoading).toBe('Formular wird geladen…');
    expect(body.corrections).toContain('Ergebnisse für „{query}“');
    const other = (await server.app.inject({ method: 'GET', url: '/embed/words.json?lang=ko' })).json() as {
      say: Record<string, string>;
    };
    expect(other.say.seeAllResults).toBe('See all results');
  });
});

describe('the search page and the 404 page on a site in one language', () => {
  let server: AskApp;
  beforeAll(async () => {
    server = await startAskServer({
      '_site.yaml': 'name: Example\nlanguage: en\n',
      'index.md': '# Archives\n\nCreate an archive.\n',
      'extract.md': '# Extracting\n\nUnpack an archive.\n',
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('stay in the site’s language and do not vary on Accept-Language', async () => {
    for (const url of ['/search?q=archive', '/search', '/de/missing']) {
      const response = await server.app.inject({
        method: 'GET',
        url,
        headers: { accept: 'text/html', 'accept-language': 'de' },
      });
      expect(response.headers.vary ?? '', url).not.toContain('Accept-Language');
      expect(languageOf(response.body).lang, url).toBe('en');
    }
  });
});
