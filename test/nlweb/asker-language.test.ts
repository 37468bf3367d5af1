import { describe, expect, it } from 'vitest';
import { loadSite } from '../../src/content/index.js';
import { createAskService, type AskQuery } from '../../src/nlweb/index.js';
import { askerLanguage } from '../../src/site/index.js';
import { contentFolder } from '../support/files.js';
import { FILES_WITH_JAPANESE } from './multilingual-site.js';

async function serviceOf(files: Record<string, string>) {
  const { site } = await loadSite(contentFolder(files));
  return createAskService(site, 'https://example.test', { cacheSize: 0 });
}

const ask = (text: string, lang?: string): AskQuery => ({
  text,
  maxResults: 5,
  conversationId: null,
  ...(lang ? { lang } : {}),
});

const textOf = (content: readonly { type: string; text?: string }[]): string =>
  content.find((item) => item.type === 'text')?.text ?? '';

describe('the asker’s language, as the answer reads it', () => {
  it('is the `lang` asked for, else the query’s script, else Accept-Language, else its words', async () => {
    const service = await serviceOf(FILES_WITH_JAPANESE);
    expect(service.askerLanguages).toEqual(['de', 'en', 'fr', 'ja']);
    expect(service.languageOf(ask('archive', 'fr'))).toBe('fr');
    expect(service.languageOf(ask('archive', 'de-AT'))).toBe('de');
    // Kana: only Japanese writes it, whatever the header prefers.
    expect(service.languageOf(service.withAcceptLanguage(ask('アーカイブの作成'), 'de'))).toBe('ja');
    expect(service.languageOf(service.withAcceptLanguage(ask('archive'), 'de-CH, en;q=0.5'))).toBe('de');
    expect(service.languageOf(ask('Ein Archiv in einen Ordner entpacken'))).toBe('de');
    // No Japanese page has "backup": every page is searched, but the asker still reads Japanese.
    const backup = service.withAcceptLanguage(ask('backup disk'), 'ja');
    expect(service.answer(backup, 'r').content.some((item) => item.type === 'resource')).toBe(true);
    expect(service.languageOf(backup)).toBe('ja');
  });

  it('chooses among the site’s languages only, by q', async () => {
    const service = await serviceOf(FILES_WITH_JAPANESE);
    expect(service.preferredLanguage('ko, ja;q=0.8, de;q=0.9')).toBe('de');
    expect(service.preferredLanguage('ko, pt')).toBeNull();
    expect(service.preferredLanguage(undefined)).toBeNull();
    // Without an answer (an empty search, a 404 with no words): `lang`, else the header.
    expect(askerLanguage(service, { lang: 'ja', acceptLanguage: 'de' })).toBe('ja');
    expect(askerLanguage(service, { lang: 'not a tag!', acceptLanguage: 'ko, fr' })).toBe('fr');
    expect(askerLanguage(service, { acceptLanguage: 'ko' })).toBeNull();
  });

  it('ignores Accept-Language on a site in one language', async () => {
    const service = await serviceOf({
      '_site.yaml': 'name: Example\nlanguage: en\n',
      'index.md': '# Archives\n\nCreate an archive.\n',
      'extract.md': '# Extracting\n\nUnpack an archive.\n',
    });
    expect(service.askerLanguages).toEqual([]);
    expect(service.preferredLanguage('de')).toBeNull();
    const query = ask('archive');
    expect(service.withAcceptLanguage(query, 'de')).toBe(query);
    expect(askerLanguage(service, { acceptLanguage: 'de' })).toBeNull();
  });
});

describe('the text of an answer meant for people', () => {
  it('says that nothing matched in the asker’s language, and in English without a catalogue for it', async () => {
    const service = await serviceOf(FILES_WITH_JAPANESE);
    expect(textOf(service.answer(ask('zzqxv?', 'de'), 'r').content)).toBe(
      'Nichts auf Example passt zu „zzqxv?“. Versuchen Sie andere Wörter für dieselbe Sache, den Namen ' +
        'eines Produkts, einer Funktion oder eines Dokuments, oder weniger Wörter.',
    );
    expect(textOf(service.answer(ask('zzqxv?', 'ja'), 'r').content)).toMatch(
      /^Example で「zzqxv\?」に一致するものはありませんでした。/,
    );
    expect(textOf(service.answer(ask('zzqxv?', 'ko'), 'r').content)).toBe(
      'Nothing on Example matched “zzqxv?”. Try other words for the same thing, the name of a product, ' +
        'feature or document, or fewer words.',
    );
    // A word still being typed is no verdict of failure: said as such, in the asker's language.
    expect(textOf(service.answer(ask('zzqxv', 'es'), 'r').content)).toBe(
      '«zzqxv» termina en una palabra que aún se está escribiendo: termínala para buscar en Example, o ' +
        'prueba el nombre de un producto, una función o un documento.',
    );
  });

  it('asks for words in the asker’s language when the query has none', async () => {
    const service = await serviceOf(FILES_WITH_JAPANESE);
    const answer = service.answer(ask('???', 'fr'), 'r');
    expect(answer._meta.response_type).toBe('Elicitation');
    expect(textOf(answer.content)).toBe(
      'Que souhaitez-vous trouver sur Example ? « ??? » ne contient aucun mot à rechercher (seulement ' +
        'des mots très courants ou de la ponctuation). Demandez un sujet, un produit, une fonctionnalité ' +
        'ou un document par son nom.',
    );
  });
});

describe('the lines that go with results', () => {
  const say = async () => {
    const service = await serviceOf(FILES_WITH_JAPANESE);
    return (query: AskQuery): string => textOf(service.answer(query, 'r').content);
  };

  it('are in German for a German asker: found, while the last word is typed, a weak match, a scope', async () => {
    const textFor = await say();
    expect(textFor(ask('Archiv entpacken', 'de'))).toBe(
      '2 Ergebnisse für „Archiv entpacken“ auf Example gefunden. Bestes Ergebnis: Entpacken (https://example.test/de/extract).',
    );
    expect(textFor(ask('entpacken', 'de'))).toBe(
      '1 Ergebnis für „entpacken“ auf Example gefunden. Bestes Ergebnis: Entpacken (https://example.test/de/extract).',
    );
    expect(textFor(ask('Archiv zzqx', 'de'))).toBe(
      'Bisher 2 Ergebnisse für „Archiv zzqx“ auf Example, während das letzte Wort noch getippt wird ' +
        '(nächstliegende Seite: Archive, https://example.test/de/). Schreiben Sie das Wort zu Ende, um die ' +
        'Suche einzugrenzen.',
    );
    expect(textFor(ask('entpacken zzqx', 'de'))).toMatch(
      /^Bisher 1 Ergebnis für „entpacken zzqx“ auf Example, /,
    );
    expect(textFor(ask('entpacken zzqxv?', 'de'))).toBe(
      'Keine Seite auf Example passt gut zu „entpacken zzqxv?“: Das Ergebnis unten enthält nur einige der ' +
        'gesuchten Wörter (nächstliegende Seite: Entpacken, https://example.test/de/extract). Versuchen Sie ' +
        'andere Wörter für dieselbe Sache oder weniger Wörter.',
    );
    expect(textFor(ask('Archiv zzqxv?', 'de'))).toMatch(
      /^Keine Seite auf Example passt gut zu „Archiv zzqxv\?“: Die 2 Ergebnisse unten enthalten nur /,
    );
    expect(textFor({ ...ask('Archiv', 'de'), scope: '/de/' })).toMatch(
      /^2 Ergebnisse für „Archiv“ auf Example \(Bereich „\/de\/“\) gefunden\. /,
    );
    // The correction comes first, in the same language.
    expect(textFor(ask('Archiv entpakcen', 'de'))).toMatch(
      /^Ergebnisse für „Archiv entpacken“\. 2 Ergebnisse für „Archiv entpacken“ auf Example gefunden\. /,
    );
  });

  it('are in Japanese for a Japanese asker, also when the results come from pages in another language', async () => {
    const textFor = await say();
    expect(textFor(ask('アーカイブ 展開', 'ja'))).toBe(
      'Example で「アーカイブ 展開」の検索結果が 2 件見つかりました。最上位の結果: アーカイブ（https://example.test/ja/）。',
    );
    expect(textFor(ask('展開 ぞぞ', 'ja'))).toBe(
      '最後の単語を入力中のため、Example での「展開 ぞぞ」の検索結果は今のところ 1 件です（最も近いページ: 展開、' +
        'https://example.test/ja/extract）。単語を最後まで入力すると結果が絞り込まれます。',
    );
    expect(textFor(ask('展開 zzqxv?', 'ja'))).toBe(
      'Example には「展開 zzqxv?」によく一致するページはありません。以下の 1 件は一部の単語にのみ一致します' +
        '（最も近いページ: 展開、https://example.test/ja/extract）。同じ内容を別の言葉で、または少ない単語で検索してください。',
    );
    expect(textFor({ ...ask('展開', 'ja'), scope: '/ja/' })).toMatch(
      /^Example（範囲「\/ja\/」） で「展開」の検索結果が 1 件/,
    );
    // No Japanese page has "backup": the English one is found, and the asker still reads Japanese.
    const service = await serviceOf(FILES_WITH_JAPANESE);
    const backup = service.withAcceptLanguage(ask('backup disk'), 'ja');
    expect(textOf(service.answer(backup, 'r').content)).toBe(
      'Example で「backup disk」の検索結果が 1 件見つかりました。最上位の結果: Backups（https://example.test/backup）。',
    );
  });

  it('are as they always were in English (one result now said in the singular), and for a language without a catalogue', async () => {
    const textFor = await say();
    for (const lang of ['en', 'ko']) {
      expect(textFor(ask('archive', lang))).toBe(
        'Found 3 results for “archive” on Example. Top result: Archives (https://example.test/).',
      );
      expect(textFor(ask('extract', lang))).toBe(
        'Found 1 result for “extract” on Example. Top result: Extracting (https://example.test/extract).',
      );
      expect(textFor(ask('archive zzqx', lang))).toBe(
        '3 results so far for “archive zzqx” on Example, while its last word is being typed (closest: Archives, ' +
          'https://example.test/). Finish the word to narrow them.',
      );
      expect(textFor(ask('backup zzqx', lang))).toMatch(
        /^1 result so far for “backup zzqx” on Example, while .* Finish the word to narrow it down\.$/,
      );
      expect(textFor(ask('extract zzqxv?', lang))).toBe(
        'No page on Example matches “extract zzqxv?” well: the result below matches only some of its words ' +
          '(closest: Extracting, https://example.test/extract). Try other words for the same thing, or fewer words.',
      );
      expect(textFor(ask('archive zzqxv?', lang))).toMatch(
        /^No page on Example matches “archive zzqxv\?” well: the 3 results below match only /,
      );
      expect(textFor({ ...ask('backup', lang), scope: '/' })).toBe(
        'Found 1 result for “backup” on Example (scope “/”). Top result: Backups (https://example.test/backup).',
      );
    }
  });
});
