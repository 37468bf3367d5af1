/**
 * Part 1: ranking quality on Cranfield — our engine, a plain BM25 baseline, MiniSearch and Lunr
 * side by side; an ablation of every ranking feature with a paired randomization test; and the
 * sensitivity of the main parameters (reported, not used to pick them).
 */

import { seededRandom } from './seeded-random.js';
import type { RankingOverrides, SearchDocument, SearchIndex } from '../src/search/index.js';
import { buildIndex, PLAIN_BM25, search, withRanking } from '../src/search/index.js';
import type { Cranfield, QualityScores } from './cranfield.js';
import { evaluate } from './cranfield.js';
import type { Engine } from './engines.js';
import { lunrEngine, miniSearchEngine } from './engines.js';

export interface QualityRow extends QualityScores {
  name: string;
  /** Two-sided p-value of the nDCG@10 difference to the row it is compared with, if any. */
  p?: number;
  versus?: string;
}

export interface QualityReport {
  fields: string;
  engines: QualityRow[];
  ablation: QualityRow[];
  leaveOneOut: QualityRow[];
  sensitivity: QualityRow[];
}

/** Cranfield documents as SearchDocuments: title → title, text → body; authors and bibliography not indexed. */
export function cranfieldDocs(c: Cranfield): SearchDocument[] {
  return c.docs.map((d) => ({ key: d.id, fields: { title: d.title, headings: '', body: d.text } }));
}

/** The same text as one field, for the plain single-field BM25 reference. */
export function cranfieldDocsOneField(c: Cranfield): SearchDocument[] {
  return c.docs.map((d) => ({
    key: d.id,
    fields: { title: '', headings: '', body: `${d.title}\n${d.text}` },
  }));
}

/** Paired randomization (sign-flip) test on per-query differences, two-sided, fixed seed. */
export function pairedRandomization(a: readonly number[], b: readonly number[], trials = 10_000): number {
  const diffs = a.map((x, i) => x - (b[i] as number));
  const observed = Math.abs(diffs.reduce((s, d) => s + d, 0));
  const rand = seededRandom(20240601);
  let atLeast = 0;
  for (let t = 0; t < trials; t++) {
    let sum = 0;
    for (const d of diffs) sum += rand() < 0.5 ? d : -d;
    if (Math.abs(sum) >= observed - 1e-12) atLeast++;
  }
  return (atLeast + 1) / (trials + 1);
}

interface Run extends QualityScores {
  perQuery: number[];
}

function runIndex(c: Cranfield, index: SearchIndex): Run {
  return evaluate(c, (q) => search(index, q.text, { limit: 10 }).map((r) => r.key));
}

function runEngine(c: Cranfield, engine: Engine, docs: SearchDocument[]): Run {
  const index = engine.build(docs);
  return evaluate(c, (q) => engine.query(index, q.text, 10));
}

function row(name: string, r: Run, versus?: { name: string; run: Run }): QualityRow {
  const out: QualityRow = { name, ndcg10: r.ndcg10, recall10: r.recall10, mrr10: r.mrr10 };
  if (versus) {
    out.versus = versus.name;
    out.p = pairedRandomization(r.perQuery, versus.run.perQuery);
  }
  return out;
}

const OFF: RankingOverrides = { proximity: { enabled: false }, feedback: { enabled: false } };

export function runQuality(c: Cranfield): QualityReport {
  const docs = cranfieldDocs(c);
  const full = buildIndex(docs);
  const plainOne = buildIndex(cranfieldDocsOneField(c), { ranking: PLAIN_BM25 });
  const plain = withRanking(full, PLAIN_BM25);

  const rFull = runIndex(c, full);
  const rPlainOne = runIndex(c, plainOne);
  const baseline = { name: 'plain BM25', run: rPlainOne };

  const engines: QualityRow[] = [
    row('Frontdoor (defaults)', rFull, baseline),
    row('plain BM25 (one field title+text, k1 1.2, b 0.75)', rPlainOne),
    row('plain BM25F (title, text as two fields, weights 1)', runIndex(c, plain), baseline),
    row('MiniSearch 7.2 (BM25+ d 0.5, its default)', runEngine(c, miniSearchEngine(), docs), baseline),
    row(
      'MiniSearch 7.2 (d 0, plain BM25)',
      runEngine(c, miniSearchEngine('MiniSearch d0', 0), docs),
      baseline,
    ),
    row('Lunr 2.3', runEngine(c, lunrEngine(), docs), baseline),
  ];

  // Cumulative ablation: each row adds one feature to the row above; the last is the defaults.
  const steps: Array<[string, SearchIndex]> = [
    ['plain BM25, one field (title+text)', plainOne],
    [
      '+ BM25F fields (title w2 b0.5, text w1 b0.75)',
      withRanking(full, { ...OFF, dropQuestionWords: false }),
    ],
    ['+ question words dropped from queries', withRanking(full, OFF)],
    [
      '+ RM3 feedback (10 docs, 10 terms, λ 0.5, P(D|Q) ∝ e^score)',
      withRanking(full, { proximity: { enabled: false } }),
    ],
    ['+ proximity (BM25TP, window 5, weight 1) = defaults', full],
  ];
  const ablation: QualityRow[] = [];
  let prev: { name: string; run: Run } | undefined;
  for (const [name, index] of steps) {
    const r = index === full ? rFull : index === plainOne ? rPlainOne : runIndex(c, index);
    ablation.push(row(name, r, prev));
    prev = { name, run: r };
  }

  // Leave one out from the defaults.
  const defaults = { name: 'defaults', run: rFull };
  const loo = (name: string, o: RankingOverrides): QualityRow =>
    row(name, runIndex(c, withRanking(full, o)), defaults);
  const leaveOneOut: QualityRow[] = [
    loo('defaults − BM25F field weights (all w1 b0.75)', { fields: PLAIN_BM25.fields }),
    loo('defaults − question-word removal', { dropQuestionWords: false }),
    loo('defaults − RM3 feedback', { feedback: { enabled: false } }),
    loo('defaults − proximity', { proximity: { enabled: false } }),
    loo('defaults, RM3 with P(D|Q) ∝ score (Anserini)', { feedback: { docWeighting: 'linear' } }),
    loo('defaults, proximity on query-adjacent pairs only', { proximity: { pairs: 'adjacent' } }),
  ];

  const sensitivity: QualityRow[] = [];
  for (const k1 of [0.9, 1.2, 1.6, 2.0])
    sensitivity.push(row(`k1 ${k1}`, runIndex(c, withRanking(full, { k1 }))));
  for (const w of [1, 3])
    sensitivity.push(
      row(`title weight ${w}`, runIndex(c, withRanking(full, { fields: { title: { weight: w } } }))),
    );
  for (const b of [0.5, 0.9])
    sensitivity.push(row(`body b ${b}`, runIndex(c, withRanking(full, { fields: { body: { b } } }))));
  for (const [d, t] of [
    [3, 10],
    [5, 10],
    [10, 20],
    [20, 10],
  ] as const) {
    sensitivity.push(
      row(`RM3 ${d} docs, ${t} terms`, runIndex(c, withRanking(full, { feedback: { docs: d, terms: t } }))),
    );
  }
  for (const l of [0.3, 0.7])
    sensitivity.push(row(`RM3 λ ${l}`, runIndex(c, withRanking(full, { feedback: { originalWeight: l } }))));
  for (const w of [0.5, 2])
    sensitivity.push(
      row(`proximity weight ${w}`, runIndex(c, withRanking(full, { proximity: { weight: w } }))),
    );
  for (const win of [2, 10])
    sensitivity.push(
      row(`proximity window ${win}`, runIndex(c, withRanking(full, { proximity: { window: win } }))),
    );

  return {
    fields: 'title (.T) and text (.W); authors (.A) and bibliography (.B) are not indexed',
    engines,
    ablation,
    leaveOneOut,
    sensitivity,
  };
}
