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
