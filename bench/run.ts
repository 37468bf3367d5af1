/**
 * `npm run bench`: ranking quality on Cranfield, speed on Cranfield, speed (and a known-item
 * check) on the docs corpus. Prints a report and writes bench/results/latest.json.
 *
 * Data comes from ../shared/data next to the repository (FRONTDOOR_SHARED_DATA overrides it).
 * FRONTDOOR_BENCH_LUNR_DOCS=0 skips Lunr on the docs corpus (about 15 s and 150 MB).
 * FRONTDOOR_BENCH_SCALE=0 skips the ~98k-passage scale run.
 */

import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { SearchDocument, SearchIndex } from '../src/search/index.js';
import { buildIndex, indexStats, PLAIN_BM25, search, withRanking } from '../src/search/index.js';
import { loadDocsCorpus } from './corpus.js';
import type { Corpus } from './corpus.js';
import { loadCranfield } from './cranfield.js';
import { frontdoorEngine, lunrEngine, miniSearchEngine } from './engines.js';
import type { Engine } from './engines.js';
import { measureBuild, measureLatency } from './measure.js';
import type { QualityRow } from './quality.js';
import { cranfieldDocs, runQuality } from './quality.js';
import type { SpeedRow } from './speed.js';
import { measureEngine, warmAnalyzer } from './speed.js';
import { repoRoot, sharedDataDir } from './paths.js';

const f4 = (v: number): string => v.toFixed(4);
const fms = (v: number): string => (v < 1 ? v.toFixed(3) : v < 100 ? v.toFixed(2) : v.toFixed(0));

function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number)))
      .join('  ');
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

function qualityTable(rows: QualityRow[]): string {
  return table(
    ['', 'nDCG@10', 'R@10', 'MRR@10', 'p (vs)'],
    rows.map((r) => [
      r.name,
      f4(r.ndcg10),
      f4(r.recall10),
      f4(r.mrr10),
      r.p === undefined ? '' : `${r.p < 0.001 ? '<0.001' : r.p.toFixed(3)} (${r.versus})`,
    ]),
  );
}

function speedTable(rows: SpeedRow[]): string {
  return table(
    [
      'engine',
      'docs',
      'build ms',
      'memory MB',
      'p50 ms',
      'p99 ms',
      'mean ms',
      'queries×runs',
      'cpu share',
      'CPU p50',
      'CPU p99',
    ],
    rows.map((r) => [
      r.name,
      String(r.documents),
      fms(r.buildMs),
      r.retainedMB.toFixed(1),
      fms(r.p50Ms),
      fms(r.p99Ms),
      fms(r.meanMs),
      `${r.queries}×${r.runs}`,
      `${Math.round(r.cpuShare * 100)}%`,
      fms(r.cpuP50Ms),
      fms(r.cpuP99Ms),
    ]),
  );
}

/** Natural questions for the docs corpus (fixed; written before looking at results). */
const QUESTIONS = [
  'how do I extract a tar.gz archive',
  'how to prevent SQL injection in Java',
  'what is cross-site request forgery',
  'how should passwords be stored',
  'how do I list running docker containers',
  'change file permissions recursively',
  'how to rotate secrets and API keys',
  'what is the best way to validate e-mail addresses',
  'how do I find files by name',
  'securing session cookies',
  'how to show disk usage of a directory',
  'what is multi-factor authentication',
  'how do I undo the last git commit',
  'protecting against XML external entity attacks',
  'how to kill a process by name',
  'content security policy for inline scripts',
  'how do I copy files over ssh',
  'JSON web token best practices',
  'how to compress a folder into a zip file',
  'logging sensitive data',
  'how do I check which ports are open',
  'preventing clickjacking',
  'how to download a file from the command line',
  'what is server-side request forgery',
  'how do I search text inside files',
];

/** A deterministic query set: titles and tldr descriptions of every 10th page, and the questions. */
function docsQueries(corpus: Corpus): { all: string[]; knownItems: Array<{ q: string; key: string }> } {
  const titles: string[] = [];
  const knownItems: Array<{ q: string; key: string }> = [];
  corpus.pages.forEach((p, i) => {
    if (i % 10 !== 0) return;
    if (p.title) titles.push(p.title);
    const q = p.description.replace(/More information.*$/, '').trim();
    if (p.path.startsWith('tldr-pages/') && q) knownItems.push({ q, key: `${p.path}#0` });
  });
  return { all: [...titles, ...knownItems.map((k) => k.q), ...QUESTIONS], knownItems };
}

interface KnownItemRow {
  name: string;
  mrr10: number;
  success1: number;
}

function knownItem(
  name: string,
  items: Array<{ q: string; key: string }>,
  rank: (q: string) => string[],
): KnownItemRow {
  let mrr = 0;
  let s1 = 0;
  for (const it of items) {
    const i = rank(it.q).indexOf(it.key);
    if (i >= 0) mrr += 1 / (i + 1);
    if (i === 0) s1++;
  }
  return { name, mrr10: mrr / items.length, success1: s1 / items.length };
}

async function main(): Promise<void> {
  const started = performance.now();
  const dataDir = sharedDataDir();
  const out: Record<string, unknown> = {
    date: new Date().toISOString(),
    node: process.version,
    cpu: `${os.cpus()[0]?.model ?? 'unknown'} × ${os.cpus().length}`,
    dataDir,
  };
  out.loadAverageAtStart = os.loadavg();
  console.log(`Frontdoor search benchmark — Node ${process.version}, ${out.cpu as string}`);
  console.log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}. p50/p99 are wall clock; "cpu share" < 100% means other processes competed for the`,
  );
  console.log(
    'cores during timing. "CPU p50/p99" are per-query CPU time, which such competition hardly moves.',
  );
  console.log(`data: ${dataDir}\n`);

  // ---- Part 1: quality on Cranfield.
  const cran = loadCranfield(path.join(dataDir, 'cranfield'));
  const quality = runQuality(cran);
  out.quality = quality;
  console.log('== 1. Quality on Cranfield (1400 docs, 225 queries; all queries averaged)');
  console.log(`Fields indexed: ${quality.fields}. Same analyzer for every engine (Porter2, 33 stop words).`);
  console.log('p: paired randomization test on per-query nDCG@10 (10,000 sign flips, two-sided).\n');
  console.log(qualityTable(quality.engines));
  console.log('\nAblation (cumulative; p vs the row above):');
  console.log(qualityTable(quality.ablation));
  console.log('\nLeave one out (p vs defaults):');
  console.log(qualityTable(quality.leaveOneOut));
  console.log('\nSensitivity (defaults with one parameter changed; not used to choose them):');
  console.log(qualityTable(quality.sensitivity));

  // ---- Part 2: speed on Cranfield.
  const cdocs = cranfieldDocs(cran);
  warmAnalyzer(cdocs);
  const cqueries = cran.queries.map((q) => q.text);
  const cranEngines: Engine[] = [
    frontdoorEngine('Frontdoor (defaults)'),
    frontdoorEngine('Frontdoor (plain BM25)', PLAIN_BM25),
    miniSearchEngine(),
    lunrEngine(),
  ];
  const cranSpeed = cranEngines.map((e) =>
    measureEngine(e, cdocs, cqueries, {
      rounds: e.name.startsWith('Frontdoor') ? 40 : 10,
      budgetMs: 8000,
      builds: 3,
    }),
  );
  out.cranfieldSpeed = cranSpeed;
  console.log('\n== 2. Speed on Cranfield (in-process; build = median of 3; memory retained after GC)');
  console.log(speedTable(cranSpeed));
  const mini = cranSpeed.find((r) => r.name.startsWith('MiniSearch'));
  const ours = cranSpeed[0] as SpeedRow;
  if (mini) {
    console.log(
      `Frontdoor (defaults) vs MiniSearch: ${(mini.p50Ms / ours.p50Ms).toFixed(1)}× faster at p50 wall clock, ` +
        `${(mini.cpuP50Ms / ours.cpuP50Ms).toFixed(1)}× in CPU time.`,
    );
  }

  // ---- Part 3: docs corpus.
  const t0 = performance.now();
  const corpus = loadDocsCorpus(path.join(dataDir, 'docs-corpus'));
  const readMs = performance.now() - t0;
  const docs = corpus.passages;
  warmAnalyzer(docs);
  const { all: dq, knownItems } = docsQueries(corpus);
  console.log(
    `\n== 3. Docs corpus: ${corpus.pages.length} files → ${docs.length} passages (split at #/##/###; read in ${readMs.toFixed(0)} ms)`,
  );
  console.log(
    `Queries: ${dq.length} (titles and tldr descriptions of every 10th page, ${QUESTIONS.length} questions).`,
  );
  const docEngines: Engine[] = [
    frontdoorEngine('Frontdoor (defaults)'),
    frontdoorEngine('Frontdoor (plain BM25)', PLAIN_BM25),
    miniSearchEngine(),
  ];
  if (process.env.FRONTDOOR_BENCH_LUNR_DOCS !== '0') docEngines.push(lunrEngine());
  const docSpeed = docEngines.map((e) =>
    measureEngine(e, docs, dq, {
      rounds: e.name.startsWith('Frontdoor') ? 5 : 1,
      budgetMs: 15000,
      builds: 1,
    }),
  );
  out.docsSpeed = docSpeed;
  console.log(speedTable(docSpeed));
  if (process.env.FRONTDOOR_BENCH_LUNR_DOCS === '0')
    console.log('(Lunr skipped: FRONTDOOR_BENCH_LUNR_DOCS=0.)');

  // Known-item check: a tldr page's one-line description should find that page.
  const index = buildIndex(docs);
  const variant = (o: Parameters<typeof withRanking>[1]): SearchIndex => withRanking(index, o);
  const rankWith = (ix: SearchIndex) => (q: string) => search(ix, q, { limit: 10 }).map((r) => r.key);
  const miniEngine = miniSearchEngine();
  const miniIndex = miniEngine.build(docs);
  const known: KnownItemRow[] = [
    knownItem('plain BM25', knownItems, rankWith(variant(PLAIN_BM25))),
    knownItem(
      'BM25F + question words',
      knownItems,
      rankWith(variant({ proximity: { enabled: false }, feedback: { enabled: false } })),
    ),
    knownItem('+ RM3', knownItems, rankWith(variant({ proximity: { enabled: false } }))),
    knownItem('+ proximity = defaults', knownItems, rankWith(index)),
    knownItem(
      'defaults − RM3 (proximity only)',
      knownItems,
      rankWith(variant({ feedback: { enabled: false } })),
    ),
    knownItem('MiniSearch 7.2', knownItems, (q) => miniEngine.query(miniIndex, q, 10)),
  ];
  out.knownItem = { queries: knownItems.length, rows: known };
  console.log(
    `\nKnown-item check (${knownItems.length} tldr descriptions → their page; a sanity check, not a relevance judgment):`,
  );
  console.log(
    table(
      ['', 'MRR@10', 'success@1'],
      known.map((k) => [k.name, f4(k.mrr10), f4(k.success1)]),
    ),
  );

  // ---- Part 3b: scale (the corpus replicated to ~98k passages).
  if (process.env.FRONTDOOR_BENCH_SCALE !== '0') {
    const copies = 10;
    const big: SearchDocument[] = [];
    for (let c = 0; c < copies; c++) {
      for (const d of docs) big.push({ key: `${d.key}~${c}`, fields: d.fields });
    }
    const b = measureBuild(() => buildIndex(big));
    const stats = indexStats(b.value);
    const lat = measureLatency(dq, (q) => search(b.value, q, { limit: 10 }), 2, 20000);
    const plainIx = withRanking(b.value, PLAIN_BM25);
    const latPlain = measureLatency(dq, (q) => search(plainIx, q, { limit: 10 }), 2, 20000);
    const scale = {
      passages: big.length,
      buildMs: b.buildMs,
      retainedMB: b.retainedBytes / (1024 * 1024),
      stats,
      defaults: lat,
      plain: latPlain,
    };
    out.scale = scale;
    console.log(
      `\n== 3b. Scale: the passages replicated ${copies}× (${big.length} passages; same vocabulary, ${copies}× postings)`,
    );
    console.log(
      table(
        [
          'Frontdoor',
          'build ms',
          'memory MB',
          'p50 ms',
          'p99 ms',
          'mean ms',
          'cpu share',
          'CPU p50',
          'CPU p99',
        ],
        [
          [
            'defaults',
            fms(scale.buildMs),
            scale.retainedMB.toFixed(1),
            fms(lat.p50Ms),
            fms(lat.p99Ms),
            fms(lat.meanMs),
            `${Math.round(lat.cpuShare * 100)}%`,
            fms(lat.cpuP50Ms),
            fms(lat.cpuP99Ms),
          ],
          [
            'plain BM25',
            '',
            '',
            fms(latPlain.p50Ms),
            fms(latPlain.p99Ms),
            fms(latPlain.meanMs),
            `${Math.round(latPlain.cpuShare * 100)}%`,
            fms(latPlain.cpuP50Ms),
            fms(latPlain.cpuP99Ms),
          ],
        ],
      ),
    );
    console.log(
      `index: ${stats.terms} terms, ${stats.postings} postings, ${stats.tokens} forward-index words, ` +
        `${(stats.typedArrayBytes / 1048576).toFixed(1)} MB in typed arrays`,
    );
  }

  const resultsDir = path.join(repoRoot, 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  out.totalSeconds = (performance.now() - started) / 1000;
  // Formatted with the repository's Prettier settings, so `prettier --check bench` stays clean.
  const file = path.join(resultsDir, 'latest.json');
  const prettier = await import('prettier');
  const config = (await prettier.resolveConfig(file)) ?? {};
  writeFileSync(file, await prettier.format(JSON.stringify(out), { ...config, filepath: file }));
  console.log(`\nTotal ${(out.totalSeconds as number).toFixed(0)} s. JSON: bench/results/latest.json`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
