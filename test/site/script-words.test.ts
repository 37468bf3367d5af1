import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatMessage, MESSAGE_LANGUAGES, messagesFor, type MessageKey } from '../../src/language/index.js';
import { ASSETS_DIR, SCRIPT_WORDS, scriptWords } from '../../src/site/index.js';

const source = (name: string): string => readFileSync(join(ASSETS_DIR, name), 'utf8');

/** The keys a browser script says: every `say('key'` in its source. */
const keysSaidBy = (name: string): string[] =>
  [...source(name).matchAll(/\bsay\(\s*(?:'([^']+)'|([^,)]+))/g)].flatMap((match) =>
    // `say(count === 1 ? 'oneResultFor' : 'resultsFor', …)`: each quoted key of the expression.
    match[1] !== undefined ? [match[1]] : [...match[2]!.matchAll(/'([^']+)'/g)].map((m) => m[1]!),
  );

/** The modules each page script loads, itself included. */
const MODULES: Record<string, string[]> = {
  'search.js': ['search.js', 'live-search.js'],
  'forms.js': ['forms.js', 'form-enhance.js'],
  'frontdoor.js': ['frontdoor.js', 'live-search.js', 'form-enhance.js'],
};

type WordsModule = {
  say(key: string, values?: Record<string, string | number>): string;
  useWords(value: unknown): void;
  corrections(): readonly string[];
};

/** words.js as a fresh module, on a page whose #frontdoor-words holds `block` (null: no such element). */
async function wordsOnPage(block: string | null): Promise<WordsModule> {
  vi.resetModules();
  vi.stubGlobal('document', {
    getElementById: (id: string) =>
      id === 'frontdoor-words' && block !== null ? { textContent: block } : null,
  });
  return (await import(join(ASSETS_DIR, 'words.js'))) as WordsModule;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the browser scripts’ words', () => {
  it('are all in the words a page gives the scripts it loads', () => {
    for (const [script, modules] of Object.entries(MODULES)) {
      const said = [...new Set(modules.flatMap(keysSaidBy))].sort();
      expect(said.length, script).toBeGreaterThan(0);
      expect([...SCRIPT_WORDS[script]!].sort(), script).toEqual(expect.arrayContaining(said));
    }
    // No literal English sentence left in the live search or the form script.
    for (const name of ['live-search.js', 'form-enhance.js', 'search.js'])
      expect(source(name), name).not.toMatch(/'(?:Searching|See all|Please|Enter your|Choose an|Name')/);
  });

  it('are in every catalogue language, and English for a language without one', () => {
    const keys = new Set(Object.values(SCRIPT_WORDS).flat());
    const scripts = Object.keys(SCRIPT_WORDS);
    const english = scriptWords(scripts, 'en').say;
    expect(Object.keys(english).sort()).toEqual([...keys].sort());
    for (const lang of MESSAGE_LANGUAGES) {
      const words = scriptWords(scripts, lang).say;
      for (const key of keys) {
        expect(words[key], `${lang} ${key}`).toBe(messagesFor(lang)[key as MessageKey]);
        expect(words[key], `${lang} ${key}`).not.toBe(key);
      }
      if (lang !== 'en') expect(words.searching, lang).not.toBe(english.searching);
    }
    for (const lang of ['ko', 'pt-BR', 'xx', null]) expect(scriptWords(scripts, lang).say).toEqual(english);
    expect(scriptWords(['search.js'], 'de-AT').say.searching).toBe('Suche läuft…');
  });

  it('carry "Showing results for" in every catalogue language for the live search only', () => {
    const all = [...new Set(MESSAGE_LANGUAGES.map((lang) => messagesFor(lang).showingResultsFor))].sort();
    expect([...scriptWords(['search.js'], 'ja').corrections].sort()).toEqual(all);
    expect(scriptWords(['forms.js'], 'ja').corrections).toEqual([]);
    // And every language's weak-match line, told by its fixed start and end.
    const { weakMatches } = scriptWords(['search.js'], 'ja');
    for (const lang of MESSAGE_LANGUAGES)
      for (const key of ['answerWeakOne', 'answerWeak'] as const) {
        const line = formatMessage(messagesFor(lang)[key], {
          site: 'Example',
          query: 'x',
          count: 3,
          title: 'T',
          url: 'https://e.example/t',
        });
        expect(
          weakMatches.some(({ start, end }) => line.startsWith(start) && line.endsWith(end)),
          `${lang} ${key}`,
        ).toBe(true);
      }
    expect(scriptWords(['forms.js'], 'ja').weakMatches).toEqual([]);
    expect(scriptWords(['forms.js'], 'ja').say).not.toHaveProperty('searching');
  });
});

describe('say(key) in the browser', () => {
  it('says the page’s words with their placeholders filled', async () => {
    const { say, corrections } = await wordsOnPage(JSON.stringify(scriptWords(['search.js'], 'de')));
    expect(say('searching')).toBe('Suche läuft…');
    expect(say('resultsFor', { count: 3, query: 'archiv' })).toBe('3 Ergebnisse für „archiv“');
    // A placeholder without a value stays as written; a key the page lacks is never shown raw.
    expect(say('resultsFor', { count: 3 })).toBe('3 Ergebnisse für „{query}“');
    expect(say('noSuchKey')).toBe('');
    expect(corrections()).toContain('Showing results for “{query}”');
  });

  it('says nothing rather than a raw key on a page without words, until the embed is given them', async () => {
    const { say, useWords } = await wordsOnPage(null);
    expect(say('searching')).toBe('');
    useWords(scriptWords(['frontdoor.js'], 'ja'));
    expect(say('seeAllResults')).toBe('すべての結果を見る');
  });

  it('survives a broken block', async () => {
    const { say, corrections } = await wordsOnPage('{not json');
    expect(say('searching')).toBe('');
    expect(corrections()).toEqual([]);
  });
});
