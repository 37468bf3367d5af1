import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  analyze,
  analyzeQuery,
  makeSnippet,
  prepareSnippetText,
  quoteSnippet,
} from '../../src/search/index.js';

const LONG =
  'Our platform is hosted in several regions. Customers choose where their workspace lives when it ' +
  'is created, and nothing moves afterwards without a signed request. Backups follow the same rule. ' +
  'Logs are kept for ninety days. Support staff work from two offices and reach systems through a ' +
  'bastion host with short-lived credentials. Data residency: every record, attachment and backup of ' +
  'a workspace stays in its region, and data residency reports can be exported for auditors at any ' +
  'time from the admin console. Encryption keys are rotated every year and on request. The rest of ' +
  'this page describes the incident process, the contacts for security questions and the list of ' +
  'sub-processors with their locations, which we update whenever a supplier changes.';

function expectHighlightsMatch(
  text: string,
  highlights: { start: number; end: number }[],
  terms: string[],
): void {
  for (const h of highlights) {
    const word = text.slice(h.start, h.end);
    expect(analyze(word).some((t) => terms.includes(t))).toBe(true);
  }
}

describe('makeSnippet', () => {
  it('returns a short text whole, with highlights', () => {
    const s = makeSnippet('Data residency keeps data in its region.', 'where is my data?');
    expect(s.text).toBe('Data residency keeps data in its region.');
    expect(s.highlights).toEqual([
      { start: 0, end: 4 },
      { start: 21, end: 25 },
    ]);
    expect(s.matchedWords).toEqual(['Data', 'data']);
  });

  it('cuts a long text around the densest cluster of query terms, on word boundaries', () => {
    const s = makeSnippet(LONG, 'data residency reports for auditors');
    expect(s.text.length).toBeLessThanOrEqual(240);
    expect(s.text.startsWith('…')).toBe(true);
    expect(s.text.endsWith('…')).toBe(true);
    expect(s.text).toContain('data residency reports can be exported for auditors');
    // Word boundaries: the text between the ellipses is a run of whole words of the original.
    const inner = s.text.slice(1, -1);
    const at = LONG.indexOf(inner);
    expect(at).toBeGreaterThan(0);
    expect(LONG[at - 1]).toBe(' ');
    expect([' ', ',', '.']).toContain(LONG[at + inner.length] ?? ' ');
    expectHighlightsMatch(s.text, s.highlights, ['data', 'resid', 'report', 'auditor']);
    expect(s.matchedWords).toEqual(
      expect.arrayContaining(['Data', 'residency', 'data', 'reports', 'auditors']),
    );
  });

  it('respects maxLength', () => {
    for (const maxLength of [40, 80, 120, 240]) {
      const s = makeSnippet(LONG, 'encryption keys rotated', { maxLength });
      expect(s.text.length).toBeLessThanOrEqual(maxLength);
      expect(s.text).toMatch(/Encryption/);
    }
  });

  it('starts at the beginning when nothing matches', () => {
    const s = makeSnippet(LONG, 'kubernetes');
    expect(s.text.startsWith('Our platform is hosted')).toBe(true);
    expect(s.text.endsWith('…')).toBe(true);
    expect(s.highlights).toEqual([]);
    expect(s.matchedWords).toEqual([]);
  });

  it('accepts index terms (a result’s matchedTerms) instead of query text', () => {
    const s = makeSnippet(LONG, ['encrypt', 'key']);
    expect(s.matchedWords).toEqual(['Encryption', 'keys']);
  });

  it('highlights folded, stemmed and compound matches', () => {
    const s = makeSnippet('Send an E-Mail to the Café about résumés.', 'email cafe resume');
    expect(s.matchedWords).toEqual(['E-Mail', 'Café', 'résumés']);
    expect(s.highlights.map((h) => s.text.slice(h.start, h.end))).toEqual(['E-Mail', 'Café', 'résumés']);
  });

  it('collapses whitespace and is deterministic', () => {
    const text = `  Line one\n\n  line   two\twith data  \n`;
    const a = makeSnippet(text, 'data');
    const b = makeSnippet(text, 'data');
    expect(a).toEqual(b);
    expect(a.text).toBe('Line one line two with data');
  });

  it('handles empty text and queries without terms', () => {
    expect(makeSnippet('', 'data')).toEqual({ text: '', highlights: [], matchedWords: [] });
    const s = makeSnippet('Some text.', 'the of');
    expect(s).toEqual({ text: 'Some text.', highlights: [], matchedWords: [] });
  });

  it('cuts a single overlong word when it must', () => {
    const s = makeSnippet('x'.repeat(500), 'data', { maxLength: 50 });
    expect(s.text.length).toBeLessThanOrEqual(50);
    expect(s.text.endsWith('…')).toBe(true);
  });

  it('reuses one prepared text for any number of queries, unchanged', () => {
    const words = LONG.split(' ');
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...words, 'e-mail', 'U.S.A.', 'Straße', ' \n\t '), { maxLength: 80 }),
        fc.array(
          fc.tuple(
            fc.array(fc.constantFrom(...words, 'email', 'usa', 'strasse'), { minLength: 1, maxLength: 4 }),
            fc.integer({ min: 40, max: 300 }),
          ),
          { minLength: 1, maxLength: 6 },
        ),
        (textWords, queries) => {
          const text = textWords.join(' ');
          // An index's dictionary: every term of the text and of the vocabulary the queries use.
          const dictionary = new Map<string, number>();
          for (const term of analyze([text, ...words, 'email usa strasse'].join(' ')))
            if (!dictionary.has(term)) dictionary.set(term, dictionary.size);
          const prepared = prepareSnippetText(text, dictionary);
          for (const [queryWords, maxLength] of queries) {
            const query = queryWords.join(' ');
            const wanted = analyzeQuery(query).map((q) => dictionary.get(q.term) as number);
            expect(quoteSnippet(prepared, [...new Set(wanted)], { maxLength })).toEqual(
              makeSnippet(text, query, { maxLength }),
            );
          }
          expect(prepared).toEqual(prepareSnippetText(text, dictionary));
        },
      ),
      { seed: 20261121, numRuns: 200 },
    );
  });

  it('keeps term numbers past 16 bits, and the same snippet', () => {
    const dictionary = new Map([
      ['encrypt', 70_000],
      ['key', 3],
    ]);
    const prepared = prepareSnippetText(LONG, dictionary);
    expect(prepared.words).toBeInstanceOf(Uint32Array);
    expect(prepareSnippetText(LONG, new Map([['key', 3]])).words).toBeInstanceOf(Uint16Array);
    expect(quoteSnippet(prepared, [70_000, 3], { maxLength: 80 })).toEqual(
      makeSnippet(LONG, ['encrypt', 'key'], { maxLength: 80 }),
    );
  });

  it('numbers the words of a prepared text by the dictionary, −1 for words it lacks', () => {
    const dictionary = new Map([
      ['data', 7],
      ['region', 3],
    ]);
    const prepared = prepareSnippetText('Data  residency keeps data\nin its region.', dictionary);
    expect(prepared.clean).toBe('Data residency keeps data in its region.');
    // Term number + 1 (0: none), start, end.
    expect([...prepared.words]).toEqual([8, 0, 4, 0, 5, 14, 0, 15, 20, 8, 21, 25, 0, 29, 32, 4, 33, 39]);
  });

  it('never starts inside a quotation: at its sentence when the matches fit, else after it', () => {
    const filler = 'Plain words fill this part of the text so that it is long enough to be cut. '.repeat(3);
    const curly = `${filler}Then he said “the quick brown fox jumps over the lazy dog and the cat” and more text follows.`;
    const near = makeSnippet(curly, 'lazy dog', { maxLength: 60 }).text;
    expect(near).toMatch(/^…Then he said “the quick/);
    // The matches span nearly the whole budget: the quotation's start cannot be kept, so the
    // snippet starts after it instead of inside it.
    const straight =
      'Software on its own cannot be "Part 11 compliant" or "Annex 11 compliant". Compliance depends on how a ' +
      'regulated company configures, validates, uses and controls a system. What we can say is that Trialwright ' +
      'includes technical controls designed to support 21 CFR Part 11 and EU GMP Annex 11, and that we provide ' +
      'documentation and support for your validation.';
    const far = makeSnippet(straight, 'part 11 compliant', { maxLength: 240 }).text;
    const quotesBefore = (text: string) => (text.match(/"/g) ?? []).length;
    expect(quotesBefore(far) % 2).toBe(0);
    expect(far).not.toMatch(/^…[^"]*" /);
    for (const text of [near, far]) expect(text.startsWith('…')).toBe(true);
  });
});
