import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  analyze,
  analyzeQuery,
  analyzeTokens,
  foldWord,
  hasSearchableTerms,
  STOP_WORDS,
} from '../../src/search/index.js';

describe('folding', () => {
  it('removes accents and lowercases', () => {
    expect(analyze('Crème Brûlée')).toEqual(['creme', 'brule']);
    expect(foldWord('ÉLÈVE')).toBe('eleve');
    expect(foldWord('Ångström')).toBe('angstrom');
  });

  it('spells out letters NFKD keeps', () => {
    expect(foldWord('Straße')).toBe('strasse');
    expect(foldWord('Æsir')).toBe('aesir');
    expect(foldWord('Øresund')).toBe('oresund');
    expect(foldWord('Łódź')).toBe('lodz');
  });

  it('applies compatibility decomposition (ligatures, full-width forms)', () => {
    expect(analyze('ﬁle')).toEqual(['file']);
    expect(analyze('ＡＢＣ１２３')).toEqual(['abc123']);
  });

  it('keeps other scripts as folded words', () => {
    expect(analyze('Привет мир')).toEqual(['привет', 'мир']);
    expect(analyze('Ελληνικά')).toEqual(['ελληνικα']);
  });

  it('makes the same term from differently accented or cased forms', () => {
    expect(analyze('café CAFE Café')).toEqual(['cafe', 'cafe', 'cafe']);
  });
});

describe('stop words and stemming', () => {
  it('drops the 33 Lucene English stop words', () => {
    expect(STOP_WORDS.size).toBe(33);
    expect(analyze('To be or not to be, that is the question')).toEqual(['question']);
  });

  it('stems English words and leaves numbers alone', () => {
    expect(analyze('Running connections were connected in 1958')).toEqual([
      'run',
      'connect',
      'were',
      'connect',
      '1958',
    ]);
  });

  it('reports whether a text has anything searchable', () => {
    expect(hasSearchableTerms('')).toBe(false);
    expect(hasSearchableTerms('  ?!… — ')).toBe(false);
    expect(hasSearchableTerms('the of and to')).toBe(false);
    expect(hasSearchableTerms('the data')).toBe(true);
    expect(analyze('the of and to')).toEqual([]);
  });
});

describe('compounds', () => {
  it('splits hyphenated words and adds the joined form', () => {
    expect(analyze('e-mail')).toEqual(['mail', 'email']);
    expect(analyze('ICH-M11')).toEqual(['ich', 'm11', 'ichm11']);
    expect(analyze('state-of-the-art')).toEqual(['state', 'art', 'stateoftheart']);
  });

  it('lets "email", "e-mail" and "E-Mails" meet', () => {
    const email = analyze('email');
    expect(analyze('e-mail')).toEqual(expect.arrayContaining(email));
    expect(analyze('E-Mails')).toEqual(expect.arrayContaining(email));
  });

  it('keeps regulation references as separate words', () => {
    expect(analyze('21 CFR Part 11')).toEqual(['21', 'cfr', 'part', '11']);
  });

  it('joins dotted abbreviations and keeps decimal numbers', () => {
    expect(analyze('U.S.A.')).toEqual(['usa']);
    expect(analyze('e.g.')).toEqual(['eg']);
    expect(analyze('pi is 3.14')).toEqual(['pi', '14', '3.14']);
    expect(analyze('node.js')).toEqual(['node', 'js', 'nodej']);
  });

  it('splits snake_case identifiers', () => {
    expect(analyze('max_length')).toEqual(['max', 'length', 'maxlength']);
  });

  it('drops a possessive and joins other apostrophes', () => {
    expect(analyze("the user's guide")).toEqual(['user', 'guid']);
    expect(analyze('user’s')).toEqual(['user']);
    expect(analyze("don't")).toEqual(['dont']);
  });

  it('gives the joined form no length and the surface range of the whole compound', () => {
    const tokens = analyzeTokens('an ICH-M11 protocol');
    expect(tokens.map((t) => [t.term, t.start, t.end, t.primary])).toEqual([
      ['ich', 3, 6, true],
      ['m11', 7, 10, true],
      ['ichm11', 3, 10, false],
      ['protocol', 11, 19, true],
    ]);
  });
});

describe('analyzeTokens offsets', () => {
  it('points at the surface words, accents included', () => {
    const text = 'Voilà: naïve café!';
    for (const t of analyzeTokens(text)) {
      expect(analyze(text.slice(t.start, t.end))).toContain(t.term);
    }
    expect(analyzeTokens(text).map((t) => text.slice(t.start, t.end))).toEqual(['Voilà', 'naïve', 'café']);
  });
});

describe('analyzeQuery', () => {
  it('drops question words when other terms remain', () => {
    expect(analyzeQuery('How do I rotate my API keys?').map((q) => q.term)).toEqual(['rotat', 'api', 'key']);
  });

  it('keeps question words when nothing else remains', () => {
    expect(analyzeQuery('how?').map((q) => q.term)).toEqual(['how']);
    expect(analyzeQuery('What is it?').map((q) => q.term)).toEqual(['what']);
  });

  it('can keep question words', () => {
    expect(analyzeQuery('how to rotate', false).map((q) => q.term)).toEqual(['how', 'rotat']);
  });

  it('merges repeated terms into a weight', () => {
    expect(analyzeQuery('flow flows flowing heat')).toEqual([
      { term: 'flow', weight: 3 },
      { term: 'heat', weight: 1 },
    ]);
  });

  it('returns nothing for stop words and punctuation only', () => {
    expect(analyzeQuery('')).toEqual([]);
    expect(analyzeQuery('the and of ... ???')).toEqual([]);
  });
});

describe('the ASCII path', () => {
  // analyzeTokens scans ASCII text by character codes and anything else with its Unicode regex. An
  // em dash (neither letter nor digit, so no token) sends the same text down the regex path.
  const throughRegex = (text: string, keepStopWords = false) => analyzeTokens(`${text}—`, keepStopWords);

  it('finds the same tokens, offsets and terms as the Unicode path', () => {
    const pieces = [
      ...'abcxyzABCXYZ0123456789'.split(''),
      'e-mail',
      'U.S.A.',
      "don't",
      "O'Brien's",
      'node.js',
      'max_length',
      '3.14',
      'ICH-M11',
      'a--b',
      "x'-y",
      ..."-._' \t\n,;:!?()[]/@#".split(''),
      'the',
      'running',
      'Stability',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), fc.boolean(), (parts, keep) => {
        const text = parts.join('');
        expect(analyzeTokens(text, keep)).toEqual(throughRegex(text, keep));
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary-ascii', maxLength: 60 }), (text) => {
        expect(analyzeTokens(text)).toEqual(throughRegex(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('analyzes every page of the sample site as the Unicode path does', () => {
    const root = join(import.meta.dirname, '..', '..', 'content');
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md'));
    expect(files.length).toBeGreaterThan(40);
    // Line by line: a page with one non-ASCII character would take the Unicode path as a whole.
    let asciiLines = 0;
    for (const file of files) {
      for (const line of readFileSync(join(root, file), 'utf8').split('\n')) {
        if (!/^[^\u0080-\uffff]*$/.test(line)) continue;
        asciiLines++;
        expect(analyzeTokens(line)).toEqual(throughRegex(line));
      }
    }
    expect(asciiLines).toBeGreaterThan(1000);
  });
});
