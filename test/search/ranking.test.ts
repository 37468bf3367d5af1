import { describe, expect, it } from 'vitest';

import type { RankingOverrides, SearchDocument } from '../../src/search/index.js';
import {
  analyze,
  buildIndex,
  compareKeys,
  indexStats,
  PLAIN_BM25,
  search,
  withRanking,
} from '../../src/search/index.js';
import { seededRandom } from '../../bench/seeded-random.js';

function doc(key: string, body: string, title = '', headings = ''): SearchDocument {
  return { key, fields: { title, headings, body } };
}

function shuffle<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  const r = seededRandom(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

const WORDS = (
  'security data residency encryption key rotation backup restore protocol amendment audit trail ' +
  'signature consent patient site visit monitoring report export import schedule budget invoice ' +
  'email password login session token cookie header cache proxy server client request response'
).split(' ');

/** A generated collection with repeated words, many near-ties and a few exact duplicates. */
function generated(n: number, seed: number): SearchDocument[] {
  const r = seededRandom(seed);
  const pick = (k: number): string =>
    Array.from({ length: k }, () => WORDS[Math.floor(r() * WORDS.length)] as string).join(' ');
  const docs: SearchDocument[] = [];
  for (let i = 0; i < n; i++) {
    const key = `page-${String(i).padStart(4, '0')}#${i % 3}`;
    docs.push(
      doc(key, pick(5 + Math.floor(r() * 40)), pick(1 + Math.floor(r() * 3)), pick(Math.floor(r() * 4))),
    );
  }
  // Exact duplicates under different keys: their scores tie, keys decide.
  docs.push(doc('dup-b', 'backup restore schedule', 'Backup'));
  docs.push(doc('dup-a', 'backup restore schedule', 'Backup'));
  docs.push(doc('dup-c', 'backup restore schedule', 'Backup'));
  return docs;
}

const QUERIES = [
  'data residency',
  'how do I rotate encryption keys?',
  'backup restore schedule',
  'Backup',
  'what is the audit trail for protocol amendments',
  'email password login',
  'session token cookie header cache proxy',
  'security',
  'unknownword',
];

describe('basic ranking', () => {
  it('ranks a title match above a body match', () => {
    const index = buildIndex([
      doc(
        'a-body',
        'Where customer data is stored and processed, including data residency options.',
        'Hosting',
      ),
      doc(
        'b-title',
        'Where customer information is stored and processed, including regional options.',
        'Data residency',
      ),
      doc('c-none', 'Nothing relevant at all here, only words about billing and invoices.', 'Billing'),
    ]);
    const results = search(index, 'data residency');
    expect(results.map((r) => r.key)).toEqual(['b-title', 'a-body']);
    expect(results[0]?.matchedTerms).toEqual(['data', 'resid']);
  });

  it('ranks a heading-path match above a body match', () => {
    const index = buildIndex([
      doc('a', 'We keep copies for thirty days in two regions.', 'Guide', 'Operations > Backups'),
      doc(
        'b',
        'Backups are mentioned once in this paragraph of similar length.',
        'Guide',
        'Operations > Other',
      ),
    ]);
    expect(search(index, 'backups').map((r) => r.key)).toEqual(['a', 'b']);
  });

  it('saturates term frequency (BM25)', () => {
    const filler = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron';
    const docs = [1, 2, 4, 8, 16].map((tf) =>
      doc(
        `tf${String(tf).padStart(2, '0')}`,
        `${'audit '.repeat(tf)}${filler.split(' ').slice(tf).join(' ')}`,
      ),
    );
    docs.push(doc('other', filler));
    const index = withRanking(buildIndex(docs), { ...PLAIN_BM25, fields: { body: { b: 0 } } });
    const scores = new Map(search(index, 'audit', { limit: 10 }).map((r) => [r.key, r.score]));
    const s = (k: string): number => scores.get(k) as number;
    expect(s('tf16')).toBeGreaterThan(s('tf08'));
    expect(s('tf08')).toBeGreaterThan(s('tf04'));
    // Diminishing returns: each doubling adds less than the previous one.
    expect(s('tf16') - s('tf08')).toBeLessThan(s('tf08') - s('tf04'));
    expect(s('tf04') - s('tf02')).toBeLessThan(s('tf02') - s('tf01'));
    // With b = 0: score(tf) / score(1) = tf·(k1 + 1) / (k1 + tf) < k1 + 1 = 2.2.
    expect(s('tf16') / s('tf01')).toBeCloseTo((16 * 2.2) / (1.2 + 16), 5);
    expect(s('tf16') / s('tf01')).toBeLessThan(2.2);
  });

  it('gives rarer terms more weight (idf)', () => {
    const docs = [doc('rare', 'zebra common'), doc('common', 'common common')];
    for (let i = 0; i < 10; i++) docs.push(doc(`x${i}`, 'common words only'));
    const index = withRanking(buildIndex(docs), PLAIN_BM25);
    expect(search(index, 'zebra common')[0]?.key).toBe('rare');
  });

  it('prefers query terms close together (proximity)', () => {
    const far = 'data is kept in one place while for us residency means something else entirely here';
    const near = 'data residency is kept in one place while for us it means something else entirely here';
    const index = buildIndex([doc('far', far), doc('near', near)]);
    expect(search(index, 'data residency').map((r) => r.key)).toEqual(['near', 'far']);
    const noProximity = withRanking(index, { proximity: { enabled: false }, feedback: { enabled: false } });
    const plain = search(noProximity, 'data residency');
    expect(plain[0]?.score).toBe(plain[1]?.score);
    expect(plain.map((r) => r.key)).toEqual(['far', 'near']);
  });

  it('finds related documents through feedback (RM3), with no matched terms', () => {
    const docs = [
      doc('d1', 'jaguar engine horsepower torque gearbox'),
      doc('d2', 'jaguar engine horsepower torque exhaust'),
      doc('d3', 'engine horsepower torque gearbox exhaust turbo'),
    ];
    for (let i = 0; i < 40; i++)
      docs.push(doc(`z${String(i).padStart(2, '0')}`, `unrelated filler text number ${i}`));
    // No query counts as short here: a one-word query shows feedback uncapped.
    const index = buildIndex(docs, { ranking: { feedback: { shortQueryWords: 0 } } });
    const withFeedback = search(index, 'jaguar');
    expect(withFeedback.map((r) => r.key)).toEqual(['d1', 'd2', 'd3']);
    expect(withFeedback[2]?.matchedTerms).toEqual([]);
    const without = search(withRanking(index, { feedback: { enabled: false } }), 'jaguar');
    expect(without.map((r) => r.key)).toEqual(['d1', 'd2']);
  });

  it('lets feedback lift the documents of a short query by at most shortQueryLift, and find none of its own', () => {
    const docs = [
      doc('named', 'jaguar cat of the rainforest'),
      doc('d1', 'jaguar engine horsepower torque gearbox'),
      doc('d2', 'jaguar engine horsepower torque exhaust'),
      doc('d3', 'engine horsepower torque gearbox exhaust turbo'),
    ];
    for (let i = 0; i < 40; i++)
      docs.push(doc(`z${String(i).padStart(2, '0')}`, `unrelated filler text number ${i}`));
    const index = buildIndex(docs);
    const { shortQueryWords, shortQueryLift } = index.ranking.feedback;
    expect([shortQueryWords, shortQueryLift]).toEqual([2, 0.2]);
    const scores = (ranking: RankingOverrides): Map<string, number> =>
      new Map(search(withRanking(index, ranking), 'jaguar').map((r) => [r.key, r.score]));
    const firstPass = scores({ feedback: { enabled: false } });
    const uncapped = scores({ feedback: { shortQueryWords: 0 } });
    const capped = scores({});
    // Uncapped, the feedback terms (engine, torque…) put the pages about engines above the page
    // about the jaguar, first in the first pass, and bring in d3, which does not name it.
    expect([...uncapped.keys()]).toEqual(['d1', 'd2', 'named', 'd3']);
    expect([...capped.keys()]).toEqual(['named', 'd1', 'd2']);
    for (const [key, score] of capped) {
      const first = firstPass.get(key) as number;
      expect(score).toBeGreaterThanOrEqual(first);
      expect(score).toBeLessThanOrEqual(first * (1 + shortQueryLift) + 1e-6);
    }
    // Three words are not a short query: the same feedback goes uncapped.
    const long = search(index, 'jaguar unrelated filler', { limit: 50 }).map((r) => r.key);
    expect(long).toContain('d3');
  });

  it('reports the matched query terms per result, in query order', () => {
    const index = buildIndex([doc('a', 'encryption keys are rotated yearly'), doc('b', 'keys only')]);
    const results = search(withRanking(index, { feedback: { enabled: false } }), 'rotating encryption keys');
    expect(results.map((r) => [r.key, r.matchedTerms])).toEqual([
      ['a', ['rotat', 'encrypt', 'key']],
      ['b', ['key']],
    ]);
  });
});

describe('large vocabularies and long queries', () => {
  it('ranks with proximity over more than 65,536 terms (32-bit forward index)', () => {
    // One document holds 70,000 distinct terms, so term numbers no longer fit 16 bits.
    const many = Array.from({ length: 70_000 }, (_, i) => `v${i}`).join(' ');
    const docs = [
      doc('bulk', many),
      // The same words in another order: only proximity can put 'near' first.
      doc('far', 'zx9 is kept in one place while for us qy7 means something else entirely here'),
      doc('near', 'zx9 qy7 is kept in one place while for us it means something else entirely here'),
    ];
    const index = buildIndex(docs);
    expect(indexStats(index).terms).toBeGreaterThan(65_536);
    expect(search(index, 'zx9 qy7').map((r) => r.key)).toEqual(['near', 'far']);
    expect(search(index, 'v69999 v0').map((r) => r.key)).toEqual(['bulk']);
  });

  it('reports matched terms beyond the 32 that carry presence bits', () => {
    const words = Array.from({ length: 40 }, (_, i) => `t${i}x`);
    const index = buildIndex([doc('a', words.join(' ')), doc('b', `${words[35]} ${words[0]} filler`)]);
    const results = search(withRanking(index, { feedback: { enabled: false } }), words.join(' '));
    expect(results.map((r) => [r.key, r.matchedTerms.length])).toEqual([
      ['a', 40],
      ['b', 2],
    ]);
    expect(results[1]?.matchedTerms).toEqual([words[0], words[35]]);
  });
});

describe('ties and determinism', () => {
  it('breaks ties by key in byte order', () => {
    const keys = ['b', 'a', 'C', 'c', 'aa', '\u{1F600}', '\uE000', 'é'];
    const index = buildIndex(keys.map((k) => doc(k, 'identical text')));
    const results = search(index, 'identical', { limit: 20 });
    expect(new Set(results.map((r) => r.score)).size).toBe(1);
    const bytes = [...keys].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    expect(results.map((r) => r.key)).toEqual(bytes);
    expect(bytes).toEqual(['C', 'a', 'aa', 'b', 'c', 'é', '\uE000', '\u{1F600}']);
  });

  it('compareKeys follows UTF-8 byte order', () => {
    const r = seededRandom(7);
    const alphabet = ['a', 'Z', '0', 'é', '\uFFFD', '\uE000', '\u{10000}', '\u{1F600}', '~', ' '];
    for (let i = 0; i < 500; i++) {
      const mk = (): string =>
        Array.from(
          { length: 1 + Math.floor(r() * 4) },
          () => alphabet[Math.floor(r() * alphabet.length)],
        ).join('');
      const x = mk();
      const y = mk();
      expect(Math.sign(compareKeys(x, y))).toBe(Math.sign(Buffer.compare(Buffer.from(x), Buffer.from(y))));
    }
  });

  it('gives byte-identical results whatever the insertion order', () => {
    const docs = generated(400, 42);
    const reference = buildIndex(docs);
    const expected = QUERIES.map((q) => JSON.stringify(search(reference, q, { limit: 25 })));
    expect(expected.some((e) => e.length > 2)).toBe(true);
    for (const seed of [1, 2, 3]) {
      const index = buildIndex(shuffle(docs, seed));
      const got = QUERIES.map((q) => JSON.stringify(search(index, q, { limit: 25 })));
      expect(got).toEqual(expected);
    }
  });

  it('orders results by score, then key, and rounds scores to 6 decimals', () => {
    const index = buildIndex(generated(300, 9));
    for (const q of QUERIES) {
      const results = search(index, q, { limit: 50 });
      for (let i = 0; i < results.length; i++) {
        const r = results[i]!;
        expect(Math.round(r.score * 1e6) / 1e6).toBe(r.score);
        if (i > 0) {
          const p = results[i - 1]!;
          expect(p.score > r.score || (p.score === r.score && compareKeys(p.key, r.key) < 0)).toBe(true);
        }
      }
    }
    const dup = search(index, 'backup restore schedule', { limit: 300 }).filter((r) =>
      r.key.startsWith('dup-'),
    );
    expect(dup.map((r) => r.key)).toEqual(['dup-a', 'dup-b', 'dup-c']);
  });

  it('pages consistently with offset and limit', () => {
    const index = buildIndex(generated(300, 5));
    for (const q of QUERIES) {
      const all = search(index, q, { limit: 30 });
      const pages = [0, 10, 20].flatMap((offset) => search(index, q, { limit: 10, offset }));
      expect(pages).toEqual(all);
    }
  });

  it('returns the same first page whatever the page size (proximity skips only what cannot reach it)', () => {
    // With limit 10, re-scoring skips documents whose bonus ceiling cannot lift them into the
    // first 10; with limit 30 every one of the 30 is re-scored. The first pages must agree.
    const index = buildIndex(generated(400, 17));
    const r = seededRandom(99);
    let compared = 0;
    for (let i = 0; i < 300; i++) {
      const words = Array.from(
        { length: 2 + Math.floor(r() * 7) },
        () => WORDS[Math.floor(r() * WORDS.length)] as string,
      );
      const q = words.join(' ');
      const page = search(index, q, { limit: 10 });
      expect(page).toEqual(search(index, q, { limit: 30 }).slice(0, 10));
      if (page.length === 10) compared++;
    }
    expect(compared).toBeGreaterThan(250);
  });

  it('gives the same results on repeated searches (no state leaks between queries)', () => {
    const index = buildIndex(generated(200, 3));
    const first = QUERIES.map((q) => search(index, q));
    const second = QUERIES.map((q) => search(index, q));
    expect(second).toEqual(first);
  });
});

describe('edge cases', () => {
  const index = buildIndex(generated(100, 11));

  it('returns nothing for empty, stop-word-only or punctuation-only queries', () => {
    expect(search(index, '')).toEqual([]);
    expect(search(index, '   ')).toEqual([]);
    expect(search(index, 'the of and to is')).toEqual([]);
    expect(search(index, '?!… — ***')).toEqual([]);
  });

  it('returns nothing for words that are not in the index', () => {
    expect(search(index, 'xylophone quux')).toEqual([]);
  });

  // Its speed target (under 200 ms) is measured by the bench: bench/long-query.ts, part 2 of `npm run bench`.
  it('answers a 1000-character query', () => {
    const r = seededRandom(99);
    let q = '';
    while (q.length < 1000) q += `${WORDS[Math.floor(r() * WORDS.length)]} what how the `;
    q = q.slice(0, 1000);
    const results = search(index, q, { limit: 10 });
    expect(results.length).toBe(10);
  });

  it('answers a 1000-character query of distinct unknown words', () => {
    const q = Array.from({ length: 200 }, (_, i) => `w${i}x`)
      .join(' ')
      .slice(0, 1000);
    expect(search(index, q)).toEqual([]);
  });

  it('handles limit 0, large offsets and rejects bad paging values', () => {
    expect(search(index, 'security', { limit: 0 })).toEqual([]);
    expect(search(index, 'security', { offset: 10_000 })).toEqual([]);
    expect(() => search(index, 'security', { limit: -1 })).toThrow(RangeError);
    expect(() => search(index, 'security', { offset: 1.5 })).toThrow(RangeError);
  });

  it('searches an empty index', () => {
    expect(search(buildIndex([]), 'anything')).toEqual([]);
  });

  it('rejects duplicate keys and malformed documents', () => {
    expect(() => buildIndex([doc('a', 'x'), doc('a', 'y')])).toThrow(/duplicate/);
    expect(() => buildIndex([{ key: '', fields: { title: '', headings: '', body: '' } }])).toThrow(TypeError);
    expect(() => buildIndex([{ key: 'k', fields: { title: 'x' } } as unknown as SearchDocument])).toThrow(
      TypeError,
    );
  });

  it('rejects invalid ranking parameters', () => {
    expect(() => buildIndex([], { ranking: { k1: 0 } })).toThrow(RangeError);
    expect(() => buildIndex([], { ranking: { fields: { body: { b: 2 } } } })).toThrow(RangeError);
  });

  it('reports its size', () => {
    const stats = indexStats(index);
    expect(stats.documents).toBe(103);
    expect(stats.terms).toBeGreaterThan(30);
    expect(stats.postings).toBeGreaterThan(stats.terms);
    expect(stats.typedArrayBytes).toBeGreaterThan(0);
  });
});

describe('agreement with a reference BM25', () => {
  it('scores like a direct implementation of the formula (one field, plain BM25)', () => {
    const docs = generated(150, 21).map((d) => doc(d.key, `${d.fields.title} ${d.fields.body}`));
    const index = buildIndex(docs, { ranking: PLAIN_BM25 });
    // Reference: Lucene's idf, k1 1.2, b 0.75, over the analyzer's terms.
    const tokenized = new Map(docs.map((d) => [d.key, analyze(d.fields.body)]));
    const n = docs.length;
    const avg = [...tokenized.values()].reduce((a, t) => a + t.length, 0) / n;
    const df = (term: string): number => [...tokenized.values()].filter((t) => t.includes(term)).length;
    for (const q of ['data residency', 'backup restore schedule', 'email password login token']) {
      const qTerms = analyze(q);
      const expected = docs
        .map((d) => {
          const t = tokenized.get(d.key) as string[];
          let score = 0;
          for (const term of qTerms) {
            const tf = t.filter((x) => x === term).length;
            if (tf === 0) continue;
            const idf = Math.log(1 + (n - df(term) + 0.5) / (df(term) + 0.5));
            score += (idf * tf * 2.2) / (tf + 1.2 * (1 - 0.75 + (0.75 * t.length) / avg));
          }
          return { key: d.key, score: Math.round(score * 1e6) / 1e6 };
        })
        .filter((r) => r.score > 0)
        .sort((a, b) => b.score - a.score || compareKeys(a.key, b.key))
        .slice(0, 20);
      const got = search(index, q, { limit: 20 }).map((r) => ({ key: r.key, score: r.score }));
      expect(got.map((r) => r.key)).toEqual(expected.map((r) => r.key));
      got.forEach((r, i) => expect(r.score).toBeCloseTo(expected[i]?.score as number, 5));
    }
  });
});
