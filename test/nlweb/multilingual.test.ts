import { describe, expect, it } from 'vitest';
import { loadSite } from '../../src/content/index.js';
import { AskResultSchema, createValidator, MAX_TRANSLATIONS_LISTED } from '../../src/contract/index.js';
import { createAskService } from '../../src/nlweb/index.js';
import { contentFolder } from '../support/files.js';
import { FILES, resultsOf } from './multilingual-site.js';

const validResult = createValidator(AskResultSchema, 'result');

async function serviceOf(files: Record<string, string> = FILES) {
  const { site } = await loadSite(contentFolder(files));
  return createAskService(site, 'https://example.test', { cacheSize: 0 });
}

describe('translations in /ask results', () => {
  it('makes the same page in several languages one result that lists the others', async () => {
    const service = await serviceOf();
    // "archive" is in the English and French pages alike; no lang, no header: every page searched.
    const answer = service.answer({ text: 'archive folder', maxResults: 10, conversationId: null }, 'r');
    const results = resultsOf(answer);
    const urls = results.map((r) => r.url);
    expect(new Set(urls).size).toBe(urls.length);
    // One result for the home page and one for the extraction page, whatever their language.
    const homes = urls.filter((u) => /^https:\/\/example\.test\/(?:de\/|fr\/)?$/.test(u));
    const extracts = urls.filter((u) => /\/extract$/.test(u));
    expect(homes).toHaveLength(1);
    expect(extracts).toHaveLength(1);
    const extract = results.find((r) => r.url.endsWith('/extract'))!;
    const others = ['de', 'en', 'fr'].filter((l) => l !== extract.inLanguage);
    expect(extract.translations?.map((t) => t.lang)).toEqual(others);
    for (const translation of extract.translations ?? [])
      expect(translation.url).toBe(
        `https://example.test/${translation.lang === 'en' ? '' : `${translation.lang}/`}extract`,
      );
    // A page in one language has no translations field.
    const backup = resultsOf(
      service.answer({ text: 'backup disk', maxResults: 5, conversationId: null }, 'r'),
    );
    expect(backup[0]?.url).toBe('https://example.test/backup');
    expect(backup[0]).not.toHaveProperty('translations');
    for (const result of [...results, ...backup]) expect(validResult(result).ok).toBe(true);
  });

  it(`lists at most ${MAX_TRANSLATIONS_LISTED} translations`, async () => {
    const languages = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
    const codes: string[] = [];
    for (let a = 97; a <= 122 && codes.length < MAX_TRANSLATIONS_LISTED + 3; a++)
      for (let b = 97; b <= 122 && codes.length < MAX_TRANSLATIONS_LISTED + 3; b++) {
        const code = String.fromCharCode(a, b);
        if (languages.of(code) !== undefined) codes.push(code);
      }
    const files: Record<string, string> = { 'guide.md': '# Guide\n\nThe zebrafish guide.\n' };
    for (const code of codes) files[`${code}/guide.md`] = '---\ntitle: Guide\n---\nThe zebrafish guide.\n';
    const service = await serviceOf(files);
    const [result] = resultsOf(
      service.answer({ text: 'zebrafish', maxResults: 5, conversationId: null }, 'r'),
    );
    expect(result?.translations).toHaveLength(MAX_TRANSLATIONS_LISTED);
    expect(validResult(result).ok).toBe(true);
  });
});

describe('Accept-Language', () => {
  it('prefers the first of the asker’s languages the site has, by q', async () => {
    const service = await serviceOf();
    const base = { text: 'archive', maxResults: 5, conversationId: null };
    expect(service.withAcceptLanguage(base, undefined)).toBe(base);
    // Languages the site does not have change nothing: the same query object (one cache key).
    expect(service.withAcceptLanguage(base, 'ja, ko;q=0.5')).toBe(base);
    // An explicit lang wins over the header.
    const withLang = { ...base, lang: 'en' };
    expect(service.withAcceptLanguage(withLang, 'fr')).toBe(withLang);
    const french = service.withAcceptLanguage(base, 'ja, de;q=0.3, fr-CA;q=0.8');
    expect(french.preferredLang).toBe('fr');
    // Asked again with the same header: the same object.
    expect(service.withAcceptLanguage(base, 'ja, de;q=0.3, fr-CA;q=0.8')).toBe(french);
    const results = resultsOf(service.answer(french, 'r'));
    expect(results.length).toBeGreaterThan(0);
    for (const result of results) expect(result.inLanguage).toBe('fr');
    const english = resultsOf(service.answer(service.withAcceptLanguage(base, 'en-GB,en;q=0.9'), 'r'));
    for (const result of english) expect(result.inLanguage).toBe('en');
  });

  it('answers from the other languages when nothing in the preferred one matches', async () => {
    const service = await serviceOf();
    // Only the English page speaks of backups.
    const query = service.withAcceptLanguage(
      { text: 'backup disk', maxResults: 5, conversationId: null },
      'de-DE,de;q=0.9',
    );
    expect(query.preferredLang).toBe('de');
    const results = resultsOf(service.answer(query, 'r'));
    expect(results[0]?.url).toBe('https://example.test/backup');
  });

  it('lets a query’s script decide over the header', async () => {
    const service = await serviceOf({
      ...FILES,
      'ja/index.md': '# アーカイブ\n\nフォルダーのファイルを圧縮してアーカイブを作成します。\n',
    });
    const query = service.withAcceptLanguage(
      { text: 'アーカイブ', maxResults: 5, conversationId: null },
      'de',
    );
    const results = resultsOf(service.answer(query, 'r'));
    expect(results[0]?.inLanguage).toBe('ja');
  });

  it('says "Showing results for" in the asker’s language', async () => {
    const service = await serviceOf();
    const answer = service.answer(
      service.withAcceptLanguage({ text: 'Archiv entpakcen', maxResults: 5, conversationId: null }, 'de'),
      'r',
    );
    const text = (answer.content[0] as { text: string }).text;
    expect(text).toMatch(/^Ergebnisse für „Archiv entpacken“\. /);
  });

  it('finds a German compound the site writes apart, on a German site, with no correction line', async () => {
    const service = await serviceOf({
      '_site.yaml': 'name: Beispiel\nlanguage: de\n',
      'disk.md': '# Speicherplatz\n\nSo zeigen Sie die Nutzung der Festplatte an.\n',
      'network.md': '# Netzwerk\n\nSo prüfen Sie die Verbindung zum Server.\n',
    });
    const answer = service.answer({ text: 'Festplattennutzung', maxResults: 5, conversationId: null }, 'r');
    expect(resultsOf(answer).map((r) => r.url)).toEqual(['https://example.test/disk']);
    expect((answer.content[0] as { text: string }).text).not.toMatch(/^Ergebnisse für/);
  });
});
