import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { loadSite } from '../../src/content/index.js';
import type { RankingOverrides, SearchDocument } from '../../src/search/index.js';
import { buildIndex, resolveRanking, search, searchWithPlan, withRanking } from '../../src/search/index.js';
import { seededRandom } from '../../bench/seeded-random.js';
import { referenceCorpus, referenceSearch, type ReferenceResult } from './reference-ranking.js';

/**
 * The engine against the reference: the same keys in the same order with the same scores and
 * matched terms. Both round scores to 6 decimals, and the reference reproduces the engine's
 * 32-bit term weights and its order of additions, so scores are compared exactly.
 */
function expectSameRanking(
  docs: SearchDocument[],
  ranking: RankingOverrides,
  query: string,
  limit: number,
  seen: Coverage,
): void {
  const index = buildIndex(docs, { ranking });
  const corpus = referenceCorpus(docs);
  for (const options of [{}, { prefix: false }, { typos: false }]) {
    const outcome = searchWithPlan(index, query, { limit, ...options });
    const expected: ReferenceResult[] = referenceSearch(corpus, index.ranking, query, { limit, ...options });
    expect({ query, options, results: outcome.results }).toEqual({ query, options, results: expected });
    tally(seen, outcome);
  }
}

/** How often the generated cases reach each stage: a property that never reaches one checks nothing. */
interface Coverage {
  results: number;
  alternatives: number;
  corrections: number;
  splits: number;
  joined: number;
  feedbackOnly: number;
}

function newCoverage(): Coverage {
  return { results: 0, alternatives: 0, corrections: 0, splits: 0, joined: 0, feedbackOnly: 0 };
}

function tally(seen: Coverage, outcome: ReturnType<typeof searchWithPlan>): void {
  if (outcome.results.length > 0) seen.results++;
  if (outcome.queryWords.some((w) => w.terms.length > 1)) seen.alternatives++;
  if (outcome.corrections.some((c) => !c.to.includes(' '))) seen.corrections++;
  if (outcome.corrections.some((c) => c.to.includes(' '))) seen.splits++;
  if (outcome.results.some((r) => r.matchedTerms.length === 0)) seen.feedbackOnly++;
  // A word with a compound among other terms: a joined form (or a completion to one).
  const compound = (t: string): boolean => ['loginform', 'childitem', 'part11', 'email'].includes(t);
  if (outcome.queryWords.some((w) => w.terms.length > 1 && w.terms.some(compound))) seen.joined++;
}

// A small vocabulary with shared prefixes, near-spellings, compounds and stop/question words, so
// that generated queries exercise completions, corrections, splits and joined forms.
const WORDS = [
  'protocol',
  'protocols',
  'protect',
  'amendment',
  'amendments',
  'audit',
  'auditor',
  'login',
  'form',
  'loginform',
  'child',
  'item',
  'childitem',
  'part',
  '11',
  'part11',
  'e-mail',
  'email',
  'data',
  'residency',
  'resident',
  'backup',
  'backups',
  'restore',
  'schedule',
  'session',
  'token',
  'tokens',
  'encryption',
  'key',
  'keys',
  'how',
  'what',
  'the',
  'of',
  'long',
  'take',
];

// Unbiased: fast-check's bias towards the first constants would make most corpora one word.
const wordArb = fc.noBias(fc.constantFrom(...WORDS));
const textArb = (min: number, max: number): fc.Arbitrary<string> =>
  fc.array(wordArb, { minLength: min, maxLength: max }).map((w) => w.join(' '));
const docArb = fc.record({
  title: textArb(0, 3),
  headings: textArb(0, 4),
  body: textArb(8, 30),
  boost: fc.constantFrom(undefined, 0.5, 1, 2),
});
/** Documents, some copied under another key and title (feedback counts a copied text once). */
const corpusArb = fc
  .tuple(fc.array(docArb, { minLength: 3, maxLength: 14 }), fc.array(fc.nat(), { maxLength: 3 }))
  .map(([list, copies]) => {
    const docs = list.map((d, i): SearchDocument => ({
      key: `doc-${String.fromCharCode(97 + (i % 26))}${i}`,
      fields: { title: d.title, headings: d.headings, body: d.body },
      ...(d.boost === undefined ? {} : { boost: d.boost }),
    }));
    copies.forEach((c, i) => {
      const original = docs[c % list.length] as SearchDocument;
      docs.push({ key: `copy-${i}`, fields: { ...original.fields, title: `copy ${original.fields.title}` } });
    });
    return docs;
  });

/** A query word as people type it: whole, half-typed, misspelt (one or two edits), run together. */
const typedWordArb: fc.Arbitrary<string> = fc.oneof(
  wordArb,
  fc.tuple(wordArb, fc.integer({ min: 1, max: 6 })).map(([w, k]) => w.slice(0, Math.max(1, w.length - k))),
  fc
    .tuple(wordArb, fc.nat(), fc.constantFrom('drop', 'swap', 'double', 'replace'))
    .map(([w, at, edit]) => misspell(w, at, edit)),
  fc.tuple(wordArb, fc.nat(), fc.nat()).map(([w, a, b]) => misspell(misspell(w, a, 'replace'), b, 'drop')),
  fc.tuple(wordArb, wordArb).map(([a, b]) => a + b),
  // A compound written apart: the index's joined form stands in for both words.
  fc.noBias(fc.constantFrom('login form', 'child item', 'part 11', 'e mail', 'protocol amendment')),
);

function misspell(word: string, at: number, edit: string): string {
  const i = at % word.length;
  if (edit === 'drop') return word.slice(0, i) + word.slice(i + 1);
  if (edit === 'double') return word.slice(0, i + 1) + word.slice(i);
  if (edit === 'replace') return `${word.slice(0, i)}x${word.slice(i + 1)}`;
  if (i + 1 >= word.length) return word;
  return word.slice(0, i) + (word[i + 1] as string) + (word[i] as string) + word.slice(i + 2);
}

/** The last word is often still being typed. */
const lastWordArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.tuple(wordArb, fc.integer({ min: 2, max: 5 })).map(([w, k]) => w.slice(0, k)) },
  { weight: 3, arbitrary: typedWordArb },
);

const queryArb = fc
  .tuple(
    fc.constantFrom('', 'how do ', 'what is '),
    fc.array(typedWordArb, { minLength: 0, maxLength: 4 }),
    lastWordArb,
    // Mostly ending inside the last word: the word being typed.
    fc.constantFrom('', '', '', '', '?', ' ', '-'),
  )
  .map(([start, words, last, end]) => `${start}${[...words, last].join(' ')}${end}`);

const RANKINGS: Record<string, RankingOverrides> = {
  default: {},
  'no feedback': { feedback: { enabled: false } },
  'no proximity': { proximity: { enabled: false } },
  // Feedback on every query, however short (shortQueryWords 0): the default ranking covers the
  // short query's cap, this one the documents only feedback finds.
  'linear feedback, adjacent pairs, shallow': {
    feedback: {
      docWeighting: 'linear',
      docs: 3,
      terms: 4,
      originalWeight: 0.3,
      maxDocFrequency: 0.5,
      shortQueryWords: 0,
    },
    proximity: { pairs: 'adjacent', depth: 3, window: 3, weight: 2 },
  },
  'other field weights': {
    k1: 0.9,
    fields: { title: { weight: 3, b: 0.2 }, headings: { weight: 0, b: 1 }, body: { weight: 1.2, b: 0.4 } },
    dropQuestionWords: false,
  },
};

describe('the ranking agrees with the reference implementation', () => {
  for (const [name, ranking] of Object.entries(RANKINGS)) {
    it(`on generated corpora and queries (${name})`, () => {
      const seen = newCoverage();
      fc.assert(
        fc.property(corpusArb, queryArb, fc.integer({ min: 1, max: 12 }), (docs, query, limit) => {
          expectSameRanking(docs, ranking, query, limit, seen);
        }),
        { numRuns: 150 },
      );
      // 450 searches: most find something, and every kind of matching occurs many times.
      expect(seen.results).toBeGreaterThan(200);
      expect(seen.alternatives).toBeGreaterThan(5);
      expect(seen.corrections).toBeGreaterThan(10);
      expect(seen.splits).toBeGreaterThan(10);
      expect(seen.joined).toBeGreaterThan(30);
      // New feedback terms need a term in 2+ documents and at most maxDocFrequency of them: only
      // the 0.5 ceiling lets one through in corpora this small.
      if (RANKINGS[name]?.feedback?.maxDocFrequency === 0.5) expect(seen.feedbackOnly).toBeGreaterThan(5);
    });
  }

  it('pages through the same ranking (offset)', () => {
    fc.assert(
      fc.property(corpusArb, queryArb, fc.nat({ max: 6 }), (docs, query, offset) => {
        const index = buildIndex(docs);
        const corpus = referenceCorpus(docs);
        expect(search(index, query, { limit: 3, offset })).toEqual(
          referenceSearch(corpus, index.ranking, query, { limit: 3, offset }),
        );
      }),
      { numRuns: 100 },
    );
  });

  it('on the bundled sample site, over seeded queries', async () => {
    const { site } = await loadSite('content');
    const docs: SearchDocument[] = site.pages.flatMap((page) =>
      page.passages.map((p) => ({
        key: p.key,
        fields: { title: page.title, headings: p.headingPath.slice(1).join(' > '), body: p.text },
        // Link lists rank lower on the site: a boost below 1, as the ask service gives them.
        ...(page.linkListAnchors.includes(p.anchor) ? { boost: 0.4 } : {}),
      })),
    );
    expect(docs.length).toBeGreaterThan(50);
    const index = buildIndex(docs);
    const plain = withRanking(index, { feedback: { enabled: false }, proximity: { enabled: false } });
    const corpus = referenceCorpus(docs);
    const vocabulary = [...corpus.vocabulary.keys()].filter((w) => w.length >= 3);
    const random = seededRandom(14);
    const pick = (): string => vocabulary[Math.floor(random() * vocabulary.length)] as string;
    const queries: string[] = [];
    for (let i = 0; i < 60; i++) {
      const words = Array.from({ length: 1 + Math.floor(random() * 3) }, pick);
      const last = words.length - 1;
      const form = i % 4;
      if (form === 1) words[last] = (words[last] as string).slice(0, 2 + Math.floor(random() * 3));
      if (form === 2) words[last] = misspell(words[last] as string, Math.floor(random() * 20), 'swap');
      if (form === 3 && words.length > 1) words.splice(0, 2, `${words[0]}${words[1]}`);
      queries.push(words.join(' ') + (i % 5 === 0 ? '?' : ''));
    }
    const seen = newCoverage();
    for (const query of queries) {
      for (const idx of [index, plain]) {
        const outcome = searchWithPlan(idx, query, { limit: 10 });
        expect({ query, results: outcome.results }).toEqual({
          query,
          results: referenceSearch(corpus, resolveRanking({}, idx.ranking), query, { limit: 10 }),
        });
        tally(seen, outcome);
      }
    }
    expect(seen.results).toBeGreaterThan(90);
    expect(seen.alternatives).toBeGreaterThan(10);
    expect(seen.corrections).toBeGreaterThan(5);
    expect(seen.splits).toBeGreaterThan(5);
  });
});
