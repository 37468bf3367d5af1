import { describe, expect, it } from 'vitest';
import {
  acceptedLanguages,
  correctedQueryOf,
  formatMessage,
  languageTag,
  MAX_LANGUAGE_TAG_LENGTH,
  MESSAGE_LANGUAGES,
  messageLanguage,
  messagesFor,
  saysWeakMatch,
  scriptLanguageAmong,
} from '../../src/language/index.js';

describe('message catalogue', () => {
  it('ships English, German, French, Spanish, Japanese and Chinese, each with every key in words of its own', () => {
    expect(MESSAGE_LANGUAGES).toEqual(['de', 'en', 'es', 'fr', 'ja', 'zh']);
    const english = messagesFor('en');
    const keys = Object.keys(english).sort();
    for (const code of MESSAGE_LANGUAGES) {
      const messages = messagesFor(code);
      expect(Object.keys(messages).sort(), code).toEqual(keys);
      for (const key of keys) {
        const text = messages[key as keyof typeof messages];
        expect(text.trim(), `${code} ${key}`).not.toBe('');
        // The same placeholders as the English message: none lost, none invented.
        const placeholders = (t: string) => (t.match(/\{\w+\}/g) ?? []).sort();
        expect(placeholders(text), `${code} ${key}`).toEqual(
          placeholders(english[key as keyof typeof english]),
        );
      }
      // Translated, not copied: most messages differ from the English ones.
      if (code !== 'en') {
        const same = keys.filter(
          (k) => messages[k as keyof typeof messages] === english[k as keyof typeof english],
        );
        expect(same.length, `${code}: ${same.join(', ')}`).toBeLessThan(keys.length / 4);
      }
    }
  });

  it('chooses by the primary language and falls back to English, never to a key', () => {
    expect(messagesFor('de-AT').search).toBe('Suchen');
    expect(messagesFor('zh-Hant-TW').search).toBe('搜索');
    expect(messagesFor('ko').search).toBe('Search');
    expect(messagesFor(null).search).toBe('Search');
    expect(messageLanguage('fr-CA')).toBe('fr');
    expect(messageLanguage('ru')).toBe('en');
  });

  it('fills placeholders and leaves unknown ones as written', () => {
    expect(formatMessage('{count} results for “{query}”', { count: 3, query: 'tar' })).toBe(
      '3 results for “tar”',
    );
    expect(formatMessage('a {missing} b', {})).toBe('a {missing} b');
    // A value is not read again for placeholders.
    expect(formatMessage('{a}{b}', { a: '{b}', b: 'x' })).toBe('{b}x');
  });

  it('reads "Showing results for" back from an answer in any language', () => {
    for (const code of MESSAGE_LANGUAGES) {
      const line = `${formatMessage(messagesFor(code).showingResultsFor, { query: 'tar gzip' })}. Found 1 result.`;
      expect(correctedQueryOf(line), code).toEqual({ query: 'tar gzip', length: line.indexOf('Found') });
    }
    expect(correctedQueryOf('Found 1 result for “tar”.')).toBeNull();
  });
});

describe('Accept-Language', () => {
  it('orders by q, then by place, and drops *, q=0 and what is not a tag', () => {
    expect(acceptedLanguages('de-CH, de;q=0.9, en;q=0.5, *;q=0.1')).toEqual(['de-CH', 'de', 'en']);
    expect(acceptedLanguages('en;q=0.2, fr, ja;q=0.8')).toEqual(['fr', 'ja', 'en']);
    expect(acceptedLanguages('pt-br;q=0.7, xx-!!, es;q=0')).toEqual(['pt-BR']);
    expect(acceptedLanguages('fr, fr')).toEqual(['fr']);
    expect(acceptedLanguages('')).toEqual([]);
    expect(acceptedLanguages(undefined)).toEqual([]);
  });
});

describe('the language a script tells', () => {
  it('decides for scripts one language writes, among the site’s', () => {
    expect(scriptLanguageAmong('압축 방법', ['en', 'ko'])).toBe('ko');
    expect(scriptLanguageAmong('アーカイブ', ['en', 'ja'])).toBe('ja');
    expect(scriptLanguageAmong('压缩方法', ['en', 'ja', 'zh'])).toBe('zh');
    expect(scriptLanguageAmong('圧縮', ['en', 'ja'])).toBe('ja');
    expect(scriptLanguageAmong('archive', ['de', 'en'])).toBeNull();
    expect(scriptLanguageAmong('압축', ['en', 'de'])).toBeNull();
  });
});

describe('language tags', () => {
  it('canonicalises a tag, and refuses one that is not a tag or is longer than RFC 5646 asks to take', () => {
    expect(languageTag(' pt_br ')).toBe('pt-BR');
    expect(languageTag('zh-hant-tw-u-ca-chinese')).toBe('zh-Hant-TW-u-ca-chinese');
    expect(languageTag('xx-!!')).toBeNull();
    // Valid BCP 47 (private use), but 1,804 characters for <html lang> and every answer.
    const endless = `en-x-${Array.from({ length: 200 }, () => 'abcdefgh').join('-')}`;
    expect(Intl.getCanonicalLocales(endless)).toHaveLength(1);
    expect(languageTag(endless)).toBeNull();
    expect(languageTag('en-x-abcdefgh-abcdefgh-abcdefgh-abc')).toHaveLength(MAX_LANGUAGE_TAG_LENGTH);
    expect(languageTag('en-x-abcdefgh-abcdefgh-abcdefgh-abcd')).toBeNull();
    expect(acceptedLanguages(`${endless}, de`)).toEqual(['de']);
  });
});

describe('a weak match, read back from an answer', () => {
  it('is told in every language, after a correction too, and no other line of an answer is taken for it', () => {
    const values = {
      count: 3,
      query: 'tar gzip',
      site: 'Example',
      title: 'Archives',
      url: 'https://example.test/tar',
    };
    for (const code of MESSAGE_LANGUAGES) {
      const words = messagesFor(code);
      for (const key of ['answerWeak', 'answerWeakOne'] as const) {
        const line = formatMessage(words[key], values);
        expect(saysWeakMatch(line), `${code} ${key}`).toBe(true);
        const showing = formatMessage(words.showingResultsFor, { query: 'tar gzip' });
        expect(saysWeakMatch(`${showing}. ${line}`), `${code} ${key} corrected`).toBe(true);
      }
      for (const key of [
        'answerFound',
        'answerFoundOne',
        'answerSoFar',
        'answerSoFarOne',
        'answerNothingMatched',
        'answerStillTyping',
      ] as const)
        expect(saysWeakMatch(formatMessage(words[key], values)), `${code} ${key}`).toBe(false);
    }
  });
});
