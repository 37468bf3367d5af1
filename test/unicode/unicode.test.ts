import { describe, expect, it } from 'vitest';
import { slugify } from '../../src/content/index.js';
import { analyzeQuery, compareKeys, foldWord } from '../../src/search/index.js';
import { compareCodePoints, foldLetters } from '../../src/unicode/index.js';

describe('one folding for anchors and search', () => {
  it('spells out the letters NFKD keeps, in anchors and in search terms alike', () => {
    expect(foldLetters('Ħal Far')).toBe('hal far');
    expect(slugify('Ħal Far')).toBe('hal-far');
    expect(['Ħal', 'Far'].map(foldWord)).toEqual(['hal', 'far']);
    expect(slugify('Straße Łódź Ŧŋ')).toBe('strasse-lodz-tng');
  });

  it('gives a heading the anchor made of the words search finds it by', () => {
    for (const heading of ['Ħal Far', 'Données résidence', 'Øresund Æsir', 'Þingvellir ŋgoni']) {
      const anchorWords = slugify(heading).split('-');
      expect(anchorWords).toEqual(heading.split(' ').map(foldWord));
    }
  });

  it('analyzes a query typed with or without the special letters the same way', () => {
    expect(analyzeQuery('Ħal Far').map((token) => token.term)).toEqual(
      analyzeQuery('hal far').map((token) => token.term),
    );
  });
});

describe('one code point order', () => {
  it('orders characters above U+FFFF after U+E000–U+FFFF, as UTF-8 bytes do', () => {
    const words = ['😀', '\uffff', 'z', '\ue000'];
    expect([...words].sort(compareCodePoints)).toEqual(['z', '\ue000', '\uffff', '😀']);
    expect([...words].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))).toEqual(
      [...words].sort(compareCodePoints),
    );
  });

  it('is the comparator search orders its keys with', () => {
    expect(compareKeys).toBe(compareCodePoints);
  });
});
