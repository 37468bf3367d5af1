import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { compareKeys } from '../../src/search/index.js';
import { buildVocabulary, lookupWord, prefixRange } from '../../src/search/vocabulary.js';

// Letters on both sides of U+D800, where JavaScript's code-unit order and the vocabulary's code
// point order disagree: ASCII, Latin, U+E000–U+FFFF and astral characters (surrogate pairs).
const letter = fc.constantFrom('a', 'b', 'z', 'é', 'ß', 'ж', '中', '\ue000', '\uffe1', '😀', '𝐀');
const word = fc.array(letter, { minLength: 1, maxLength: 5 }).map((l) => l.join(''));

describe('vocabulary look-ups', () => {
  it('find a word and a prefix range exactly as a scan in key order does, for any word', () => {
    fc.assert(
      fc.property(fc.uniqueArray(word, { minLength: 1, maxLength: 60 }), word, (words, probe) => {
        const v = buildVocabulary(new Map(words.map((w, i) => [w, i])));
        const sorted = [...words].sort(compareKeys);
        expect(v.words).toEqual(sorted);
        const at = sorted.indexOf(probe);
        expect(lookupWord(v, probe)).toBe(at < 0 ? -1 : words.indexOf(probe));
        const from = sorted.findIndex((w) => compareKeys(w, probe) >= 0);
        const start = from < 0 ? sorted.length : from;
        let end = start;
        while (end < sorted.length && sorted[end]!.startsWith(probe)) end++;
        expect(prefixRange(v, probe)).toEqual([start, end]);
      }),
      { seed: 20261126, numRuns: 1000 },
    );
  });
});
