/**
 * `npm run bench`: every quality and speed target of the search work, side by side in ONE run.
 *
 * 1. Quality on Cranfield: Frontdoor, MiniSearch and Lunr (plus ablation and sensitivity).
 * 2. Speed on Cranfield, in-process.
 * 3. The docs corpus (OWASP cheat sheets + tldr pages) loaded as ONE site by src/content's
 *    loadSite: speed of every engine on exactly the documents /ask indexes, /ask answers
 *    in-process, a known-item check; 3b. the same passages replicated 10× (scale).
 * 4. Start-up on the docs corpus in fresh processes: load + render + index, and the whole server.
 * 5. GET /ask throughput over HTTP as a ratio of a bare node:http hello world (popular questions,
 *    then all-different questions).
 * 6. Typing: each docs corpus as its own site, titles typed in full, cut mid-word, with one typo,
 *    and descriptions asked as questions; Frontdoor's /ask answer beside MiniSearch set up as
 *    VitePress does and Pagefind (bench/typing.ts).
 * 7. Compression and ceilings: bytes per answer and page with and without brotli/gzip, and /ask
 *    throughput against bare node:http servers sending or serialising the same answers
 *    (bench/compression.ts; FRONTDOOR_BENCH_COMPRESSION_ROUNDS, default 2).
 * 8. Content scaling: a page of 1,000 to 100,000 front-matter keys or identical headings loads in
 *    time linear in its size (bench/content-scaling.ts).
 * 9. Built HTML sites (MkDocs, Hugo output; scripts/build-html-sites.sh builds them): known-item
 *    questions, typing forms, chrome in snippets, links, cold indexing (bench/html-sites.ts).
 * 10. Multilingual: javascript.info in seven languages, success@3 per language beside MiniSearch
 *    (VitePress) and Pagefind, the gap to English, empty answers (bench/multilingual.ts).
 * Then a table of every target with the measured value and PASS/FAIL. The report goes to the
 * terminal and the numbers to bench/results/latest.json.
 *
 * Environment: FRONTDOOR_SHARED_DATA (default ../shared/data), FRONTDOOR_BENCH_LUNR_DOCS=0 (skip
 * Lunr on the docs corpus, ~15 s), FRONTDOOR_BENCH_SCALE=0 (skip the scale run),
 * FRONTDOOR_BENCH_HTTP=0 (skip part 5), FRONTDOOR_BENCH_HTTP_SECONDS (per load and round, default 2),
 * FRONTDOOR_BENCH_HTTP_ROUNDS (default 5),
 * FRONTDOOR_BENCH_SERVER=dist|tsx (how the server runs; default dist when it is up to date),
 * FRONTDOOR_BENCH_TYPING=0 (skip part 6), FRONTDOOR_BENCH_TYPING_SAMPLE (pages per corpus, 300),
 * FRONTDOOR_BENCH_HTML=0 (skip part 9), FRONTDOOR_BENCH_MULTILINGUAL=0 (skip part 10),
 * FRONTDOOR_BENCH_ONLY=4 or =3,5 (run only these parts; 3 includes 3b and 3c; the summary lists
 * the targets of the parts run).
 */

import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { DEFAULT_MAX_RESULTS } from '../src/contract/nlweb.js';
import { loadSite, type Page } from '../src/content/index.js';
import { answerBody } from '../src/http/ask-answer.js';
import { createAskService } from '../src/nlweb/service.js';
import type { SearchDocument, SearchIndex } from '../src/search/index.js';
import { buildIndex, indexStats, PLAIN_BM25, search, withRanking } from '../src/search/index.js';
import { isTldrPage, loadDocsCorpus, tldrDescription } from './corpus.js';
import { loadCranfield } from './cranfield.js';
import { frontdoorEngine, lunrEngine, miniSearchEngine } from './engines.js';
import type { Engine } from './engines.js';
import type { HttpBenchResult, LoadSeries, RatioSeries } from './http.js';
import { distinctQuestions, INSIGHT_THROUGHPUT_TARGET, runHttpBench } from './http.js';
import { runInsightBench } from './insight.js';
import { runCompressionBench, type CompressionBenchResult } from './compression.js';
import { runContentScalingBench, scalingReport } from './content-scaling.js';
import { measureAskBreakdown } from './ask-breakdown.js';
import { measureBuild, measureLatency } from './measure.js';
import { cranfieldDocs, runQuality, type QualityReport } from './quality.js';
import {
  f4,
  fms,
  headToHeadLine,
  qualityTable,
  speedTable,
  table,
  targetRows,
  targetTable,
} from './report.js';
import type { HeadToHead, SpeedRow } from './speed.js';
import { headToHead, measureEngine, warmAnalyzer } from './speed.js';
import { longQueryLine, measureLongQueries } from './long-query.js';
import type { PipelineStartup, ServerStartup } from './startup.js';
import { measurePipelineStartup, measureServerStartup } from './startup.js';
import { repoRoot, sharedDataDir } from './paths.js';
import type { TypingBenchResult } from './typing.js';
import { runTypingBench, typingTables } from './typing.js';
import { htmlSitesTables, htmlSitesTargets, runHtmlSitesBench, type HtmlBenchResult } from './html-sites.js';
import {
  multilingualTable,
  multilingualTargets,
  runMultilingualBench,
  type LanguageScore,
} from './multilingual.js';

const MB = 1024 * 1024;

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

interface KnownItem {
  q: string;
  pageUrl: string;
}

/** A fixed query set: titles and tldr descriptions of every 10th page (URL order), and the questions. */
function docsQueries(pages: readonly Page[]): { all: string[]; knownItems: KnownItem[] } {
  const titles: string[] = [];
  const knownItems: KnownItem[] = [];
  pages.forEach((page, i) => {
    if (i % 10 !== 0) return;
    if (page.title) titles.push(page.title);
    const q = isTldrPage(page) ? tldrDescription(page) : '';
    if (q) knownItems.push({ q, pageUrl: page.url });
  });
  return { all: [...titles, ...knownItems.map((k) => k.q), ...QUESTIONS], knownItems };
}

interface KnownItemRow {
  name: string;
  mrr10: number;
  success1: number;
}

/** Rank of the first passage of the wanted page among the top 10 passages. */
function knownItem(
  name: string,
  items: readonly KnownItem[],
  pageOf: ReadonlyMap<string, string>,
  rank: (q: string) => string[],
): KnownItemRow {
  let mrr = 0;
  let s1 = 0;
  for (const it of items) {
    const i = rank(it.q).findIndex((key) => pageOf.get(key) === it.pageUrl);
    if (i >= 0) mrr += 1 / (i + 1);
    if (i === 0) s1++;
  }
  return { name, mrr10: mrr / items.length, success1: s1 / items.length };
}

const loadAverage: Record<string, number[]> = {};

/** Records the load average when a part starts and returns it for the part's heading. */
function loadNote(part: string): string {
  const load = os.loadavg().map((l) => Math.round(l * 100) / 100);
  loadAverage[part] = load;
  return `load average ${load.map((l) => l.toFixed(1)).join(' ')}`;
}

/**
 * The parts FRONTDOOR_BENCH_ONLY names (comma-separated numbers), or null to run them all. An
 * unknown part is an error, so a typo does not silently run nothing.
 */
function onlyParts(value: string | undefined): ReadonlySet<number> | null {
  if (value === undefined || value.trim() === '') return null;
  const parts = value.split(',').map((part) => Number(part.trim()));
  for (const part of parts)
    if (!Number.isInteger(part) || part < 1 || part > 10)
      throw new Error(`FRONTDOOR_BENCH_ONLY=${value}: name parts 1 to 10, comma-separated (e.g. 4 or 3,5)`);
  return new Set(parts);
}

const selectedParts = onlyParts(process.env.FRONTDOOR_BENCH_ONLY);
const runsPart = (part: number): boolean => selectedParts === null || selectedParts.has(part);

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

async function main(): Promise<void> {
  const started = performance.now();
  const dataDir = sharedDataDir();
  const corpusDir = path.join(dataDir, 'docs-corpus');
  const out: Record<string, unknown> = {
    date: new Date().toISOString(),
    node: process.version,
    cpu: `${os.cpus()[0]?.model ?? 'unknown'} × ${os.cpus().length}`,
    memoryGB: Math.round(os.totalmem() / 1024 ** 3),
    dataDir,
    loadAverage,
  };
  console.log(
    `Frontdoor benchmark — Node ${process.version}, ${out.cpu as string}, ${out.memoryGB as number} GB`,
  );
  console.log(
    `${loadNote('start')}. p50/p99 are wall clock; "cpu share" < 100% means other processes competed for`,
  );
  console.log(
    'the cores during timing. "CPU p50/p99" are per-query CPU time, which such competition hardly moves.',
  );
  console.log(`data: ${dataDir}\n`);

  let quality: QualityReport | null = null;
  let cranSpeed: SpeedRow[] | null = null;
  let cranVsMini: HeadToHead | null = null;
  if (runsPart(1) || runsPart(2)) {
    const cran = loadCranfield(path.join(dataDir, 'cranfield'));
    if (runsPart(1)) {
      // ---- Part 1: quality on Cranfield.
      const report = runQuality(cran);
      quality = report;
      out.quality = report;
      console.log(
        `== 1. Quality on Cranfield (1400 docs, 225 queries; all queries averaged; ${loadNote('quality')})`,
      );
      console.log(
        `Fields indexed: ${report.fields}. Same analyzer for every engine (Porter2, 33 stop words).`,
      );
      console.log('p: paired randomization test on per-query nDCG@10 (10,000 sign flips, two-sided).\n');
      console.log(qualityTable(report.engines));
      console.log('\nAblation (cumulative; p vs the row above):');
      console.log(qualityTable(report.ablation));
      console.log('\nLeave one out (p vs defaults):');
      console.log(qualityTable(report.leaveOneOut));
      console.log('\nSensitivity (defaults with one parameter changed; not used to choose them):');
      console.log(qualityTable(report.sensitivity));
    }
    if (runsPart(2)) {
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
      console.log(
        `\n== 2. Speed on Cranfield (in-process; build = median of 3; memory retained after GC; ${loadNote('cranfieldSpeed')})`,
      );
      cranSpeed = cranEngines.map((e) =>
        measureEngine(e, cdocs, cqueries, {
          rounds: e.name.startsWith('Frontdoor') ? 40 : 10,
          budgetMs: 8000,
          builds: 3,
        }),
      );
      out.cranfieldSpeed = cranSpeed;
      console.log(speedTable(cranSpeed));
      const longQuery = measureLongQueries(cdocs);
      out.cranfieldLongQuery = longQuery;
      console.log(longQueryLine(longQuery));
      cranVsMini = headToHead(
        frontdoorEngine('Frontdoor (defaults)'),
        miniSearchEngine(),
        cdocs,
        cqueries,
        9,
      );
      out.cranfieldHeadToHead = cranVsMini;
      console.log(headToHeadLine(cranVsMini));
    }
  }

  let docSpeed: SpeedRow[] | null = null;
  let docsVsMini: HeadToHead | null = null;
  let askInProcess: SpeedRow | null = null;
  if (runsPart(3)) {
    // ---- Part 3: the docs corpus as one site, through the real content loader.
    const corpus = await loadDocsCorpus(corpusDir);
    const docs = corpus.passages;
    warmAnalyzer(docs);
    const { all: dq, knownItems } = docsQueries(corpus.site.pages);
    console.log(
      `\n== 3. Docs corpus as one site (loadSite ${path.relative(repoRoot, corpusDir)}): ${corpus.site.pages.length} pages → ` +
        `${docs.length} passages, loaded in ${(corpus.loadMs / 1000).toFixed(1)} s (${corpus.problems} content warnings; ${loadNote('docsSpeed')})`,
    );
    console.log(
      'Documents as /ask indexes them (passageDocument: title = page title, headings = heading path below it, body = passage text).',
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
    docSpeed = docEngines.map((e) =>
      measureEngine(e, docs, dq, {
        rounds: e.name.startsWith('Frontdoor') ? 5 : 1,
        budgetMs: 15000,
        builds: 1,
      }),
    );
    // The whole /ask answer in-process (ranking, per-page cap, snippets, JSON), with the answer
    // cache off so every query is computed. Each passage's snippet analysis is kept once made, as
    // in the server.
    const service = measureBuild(() =>
      createAskService(corpus.site, 'http://127.0.0.1:3000', { cacheSize: 0 }),
    );
    const askLatency = measureLatency(
      dq,
      (q) => {
        const query = { text: q, maxResults: DEFAULT_MAX_RESULTS, conversationId: null };
        return answerBody(service.value.outcome(query), query, 'bench');
      },
      2,
      15000,
    );
    askInProcess = {
      name: 'ask service answer bytes, no answer cache',
      documents: service.value.passageCount,
      buildMs: service.buildMs,
      retainedMB: service.retainedBytes / MB,
      ...askLatency,
    };
    out.docsSpeed = docSpeed;
    out.docsAskInProcess = askInProcess;
    console.log(speedTable([...docSpeed, askInProcess]));
    if (process.env.FRONTDOOR_BENCH_LUNR_DOCS === '0')
      console.log('(Lunr skipped: FRONTDOOR_BENCH_LUNR_DOCS=0.)');
    console.log('"ask service": createAskService (build = documents + index) and the full answer per query.');
    docsVsMini = headToHead(frontdoorEngine('Frontdoor (defaults)'), miniSearchEngine(), docs, dq, 3);
    out.docsHeadToHead = docsVsMini;
    console.log(headToHeadLine(docsVsMini));

    // Known-item check: a tldr page's one-line description should find that page.
    const index = buildIndex(docs);
    const variant = (o: Parameters<typeof withRanking>[1]): SearchIndex => withRanking(index, o);
    const rankWith = (ix: SearchIndex) => (q: string) => search(ix, q, { limit: 10 }).map((r) => r.key);
    const miniEngine = miniSearchEngine();
    const miniIndex = miniEngine.build(docs);
    const pageOf = corpus.pageOfPassage;
    const known: KnownItemRow[] = [
      knownItem('plain BM25', knownItems, pageOf, rankWith(variant(PLAIN_BM25))),
      knownItem(
        'BM25F + question words',
        knownItems,
        pageOf,
        rankWith(variant({ proximity: { enabled: false }, feedback: { enabled: false } })),
      ),
      knownItem('+ RM3', knownItems, pageOf, rankWith(variant({ proximity: { enabled: false } }))),
      knownItem('+ proximity = defaults', knownItems, pageOf, rankWith(index)),
      knownItem(
        'defaults − RM3 (proximity only)',
        knownItems,
        pageOf,
        rankWith(variant({ feedback: { enabled: false } })),
      ),
      knownItem('MiniSearch 7.2', knownItems, pageOf, (q) => miniEngine.query(miniIndex, q, 10)),
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

    // ---- Part 3b: scale (the passages replicated to ~97k).
    if (process.env.FRONTDOOR_BENCH_SCALE !== '0') {
      const copies = 10;
      const big: SearchDocument[] = [];
      for (let c = 0; c < copies; c++) {
        for (const d of docs) big.push({ key: `${d.key}~${c}`, fields: d.fields });
      }
      console.log(
        `\n== 3b. Scale: the passages replicated ${copies}× (${big.length} passages; same vocabulary, ${copies}× postings; ${loadNote('scale')})`,
      );
      const b = measureBuild(() => buildIndex(big));
      const stats = indexStats(b.value);
      const lat = measureLatency(dq, (q) => search(b.value, q, { limit: 10 }), 2, 20000);
      const plainIx = withRanking(b.value, PLAIN_BM25);
      const latPlain = measureLatency(dq, (q) => search(plainIx, q, { limit: 10 }), 2, 20000);
      out.scale = {
        passages: big.length,
        buildMs: b.buildMs,
        retainedMB: b.retainedBytes / MB,
        stats,
        defaults: lat,
        plain: latPlain,
      };
      const row = (name: string, l: typeof lat, build: string, memory: string): string[] => [
        name,
        build,
        memory,
        fms(l.p50Ms),
        fms(l.p99Ms),
        fms(l.meanMs),
        `${Math.round(l.cpuShare * 100)}%`,
        fms(l.cpuP50Ms),
        fms(l.cpuP99Ms),
      ];
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
            row('defaults', lat, fms(b.buildMs), (b.retainedBytes / MB).toFixed(1)),
            row('plain BM25', latPlain, '', ''),
          ],
        ),
      );
      console.log(
        `index: ${stats.terms} terms, ${stats.postings} postings, ${stats.tokens} forward-index words, ` +
          `${(stats.typedArrayBytes / MB).toFixed(1)} MB in typed arrays`,
      );
    }

    // ---- Part 3c: what one never-asked /ask costs, step by step.
    console.log(
      `\n== 3c. GET /ask per-request cost, never-asked questions, in-process (${loadNote('breakdown')})`,
    );
    const sample = await loadSite(path.join(repoRoot, 'content'));
    const breakdowns = [
      await measureAskBreakdown('sample site', sample.site, distinctQuestions(sample.site).slice(0, 3000)),
      await measureAskBreakdown('docs corpus', corpus.site, distinctQuestions(corpus.site).slice(0, 3000)),
    ];
    out.askBreakdown = breakdowns;
    console.log(
      table(
        [
          'µs per request',
          'parse',
          'rank',
          'pages + snippets',
          'serialise',
          'encode',
          'write',
          'total',
          'answer',
          'questions',
        ],
        breakdowns.map((b) => [
          b.site,
          b.parseUs.toFixed(1),
          b.rankUs.toFixed(1),
          b.snippetsUs.toFixed(1),
          b.serialiseUs.toFixed(1),
          b.encodeUs.toFixed(1),
          b.writeUs.toFixed(1),
          b.totalUs.toFixed(1),
          `${(b.answerBytes / 1024).toFixed(1)} KB`,
          String(b.questions),
        ]),
      ),
    );
    console.log(
      'rank: the index search for the passages the service first asks for; pages + snippets: the rest of the answer ' +
        '(one result per page, names, up to three section snippets each) = answer − rank − serialise − encode; ' +
        'serialise: JSON.stringify of the content; encode: UTF-8 bytes; write: writeHead + end on a keep-alive socket. ' +
        'Not counted: the framework or fast path, logging, GC outside these loops.',
    );
  }

  let pipeline: PipelineStartup | Error | null = null;
  let server: ServerStartup | Error | null = null;
  if (runsPart(4)) {
    // ---- Part 4: start-up on the docs corpus, in fresh processes.
    console.log(`\n== 4. Start-up on the docs corpus, each in a fresh process (${loadNote('startup')})`);

    try {
      pipeline = await measurePipelineStartup(corpusDir);
      console.log(
        `loadSite + createAskService (node --import tsx): ${pipeline.pages} pages, ${pipeline.passages} passages\n` +
          table(
            ['', 'ms'],
            [
              ['load (read, front matter, render Markdown, passages)', fms(pipeline.loadMs)],
              ['index (createAskService: documents + search index)', fms(pipeline.indexMs)],
              ['load + index', fms(pipeline.totalMs)],
              ['(importing the modules first, with tsx transpiling)', fms(pipeline.importMs)],
            ],
          ),
      );
      console.log(
        `memory: peak RSS ${pipeline.peakRssMB.toFixed(0)} MB; JS heap + ArrayBuffers right after indexing ` +
          `${pipeline.heapAfterIndexMB.toFixed(0)} MB (heap committed ${pipeline.heapCommittedMB.toFixed(0)} MB); ` +
          `retained after GC ${pipeline.retainedMB.toFixed(0)} MB (site + ask service)`,
      );
    } catch (error) {
      pipeline = asError(error);
      console.log(`pipeline start-up failed: ${pipeline.message}`);
      process.exitCode = 1;
    }

    try {
      // FRONTDOOR_BENCH_STARTUP_DIR: another folder for the server rows (e.g. ~40 MB of Markdown).
      server = await measureServerStartup(process.env.FRONTDOOR_BENCH_STARTUP_DIR || corpusDir);
      const runRow = (
        name: string,
        r: NonNullable<ServerStartup['uncached']> & Partial<ServerStartup['cold']>,
      ) => [
        name,
        r.source,
        fms(r.spawnToFirstAnswerMs),
        fms(r.startupMs),
        String(r.timings.filesRead ?? '?'),
        ...['readMs', 'buildMs', 'indexMs', 'appMs'].map((k) => fms(r.timings[k] ?? NaN)),
        r.rssAfterStartMB?.toFixed(0) ?? '—',
        r.rssAfterQueriesMB?.toFixed(0) ?? '—',
        String(r.queries ?? '—'),
      ];
      console.log(
        `frontdoor serve (${server.runner}: ${server.runnerReason}) on a copy of ${path.relative(repoRoot, server.corpus)}, ` +
          `${server.pages} pages, ${(server.markdownBytes / 1e6).toFixed(1)} MB of Markdown, PORT=0, LOG_LEVEL=info; ms, RSS in MB; ` +
          `peak RSS (VmHWM) cold ${server.cold.peakRssMB.toFixed(0)}, warm ${server.warm.peakRssMB.toFixed(0)} MB; ` +
          `snapshot ${(server.snapshotBytes / 1e6).toFixed(1)} MB (${(server.snapshotBytes / server.markdownBytes).toFixed(2)}× the Markdown)\n` +
          table(
            [
              '',
              'from',
              'spawn→answer',
              'startupMs',
              'files read',
              'read',
              'build',
              'index',
              'app',
              'RSS start',
              'RSS queries',
              'questions',
            ],
            [
              runRow('cold', server.cold),
              runRow('warm', server.warm),
              ...(server.uncached ? [runRow('uncached', server.uncached)] : []),
            ],
          ) +
          `\nreload (one page changed, SIGHUP): ${fms(server.reload.ms)} ms (read ${fms(server.reload.timings.readMs)} ms, ` +
          `${server.reload.filesRead} files; build ${fms(server.reload.timings.buildMs)} ms, ${server.reload.passagesAnalysed} passages analysed); RSS ${server.reload.rssAfterMB.toFixed(0)} MB after it, ` +
          `${server.reload.rssAfterQueriesMB.toFixed(0)} MB after more questions` +
          `\ncrawl (every page of the sitemap once, 4 clients): ${server.crawl.pages} pages, ` +
          `${server.crawl.megabytes.toFixed(1)} MB, in ${fms(server.crawl.ms)} ms; RSS ${server.crawl.rssAfterMB.toFixed(0)} MB after it`,
      );
    } catch (error) {
      server = asError(error);
      console.log(`server start-up failed: ${server.message}`);
      process.exitCode = 1;
    }
    out.startup = {
      pipeline: pipeline instanceof Error ? { error: pipeline.message } : pipeline,
      server: server instanceof Error ? { error: server.message } : server,
    };
  }

  // ---- Part 5: HTTP.
  let http: HttpBenchResult | Error | null = null;
  if (runsPart(5) && process.env.FRONTDOOR_BENCH_HTTP !== '0') {
    const secondsPerLoad = Number(process.env.FRONTDOOR_BENCH_HTTP_SECONDS ?? 2);
    const rounds = Number(process.env.FRONTDOOR_BENCH_HTTP_ROUNDS ?? 5);
    console.log(
      `\n== 5. GET /ask over HTTP vs a node:http hello world: ${rounds} rounds of ${secondsPerLoad} s per load (${loadNote('http')})`,
    );
    try {
      http = await runHttpBench(secondsPerLoad, rounds);
      const h = http;
      console.log(
        `${h.loadGenerator}, 1 thread, ${h.connections} connections; ` +
          `${h.pinnedToSeparateCores ? 'servers on core 0, load generator on core 1' : 'NOT pinned (no taskset)'}; ` +
          `frontdoor serve: ${h.server.runner} (${h.server.reason}), ${h.server.site}; the targets are judged on a ` +
          `server at the default LOG_LEVEL=info (one line per request, to a file), beside the same loads at LOG_LEVEL=warn; ` +
          `a third server holds the docs corpus (LOG_LEVEL=info); ` +
          `answer cache ${h.answerCacheSize}. Loads interleaved per round; medians over rounds, ratios taken within a round; CPU: the server process's user + system time per request (/proc), and the hello world's ÷ this load's.`,
      );
      const kb = (b: number | null): string => (b === null ? '' : (b / 1024).toFixed(1));
      const ratioText = (r: RatioSeries): string =>
        `${r.ratio.toFixed(3)} (${r.ratioMin.toFixed(3)}–${r.ratioMax.toFixed(3)})`;
      const rows: Array<[string, LoadSeries, string, number]> = [
        ['hello world (node:http)', h.helloWorld, '', 1],
        ['node:http, /ask answer bytes as string', h.answerString, ratioText(h.answerString), 1],
        ['node:http, /ask answer bytes as Buffer', h.answerBuffer, ratioText(h.answerBuffer), 1],
        [
          'node:http, /ask answer serialised per request',
          h.answerSerialised,
          ratioText(h.answerSerialised),
          1,
        ],
        ['GET /healthz (frontdoor)', h.healthz, ratioText(h.healthz), 1],
        ['GET /ask, popular (cached)', h.askPopular, ratioText(h.askPopular), h.askPopular.distinctQueries],
        [
          'GET /ask, popular, request logging on (info)',
          h.askPopularLogged,
          ratioText(h.askPopularLogged),
          h.askPopularLogged.distinctQueries,
        ],
        [
          'GET /ask, distinct (uncached)',
          h.askDistinct,
          ratioText(h.askDistinct),
          h.askDistinct.distinctQueries,
        ],
        [
          'GET /ask, distinct, request logging on (info)',
          h.askDistinctLogged,
          ratioText(h.askDistinctLogged),
          h.askDistinctLogged.distinctQueries,
        ],
        ...(h.askDistinctDocs
          ? [
              [
                `GET /ask, distinct, docs corpus (${h.askDistinctDocs.pages} pages), logging on`,
                h.askDistinctDocs,
                ratioText(h.askDistinctDocs),
                h.askDistinctDocs.distinctQueries,
              ] as [string, LoadSeries, string, number],
            ]
          : []),
        [
          'GET /ask, popular, INSIGHT=off',
          h.askPopularInsightOff,
          ratioText(h.askPopularInsightOff),
          h.askPopularInsightOff.distinctQueries,
        ],
        [
          'GET /ask, distinct, INSIGHT=off',
          h.askDistinctInsightOff,
          ratioText(h.askDistinctInsightOff),
          h.askDistinctInsightOff.distinctQueries,
        ],
      ];
      console.log(
        table(
          [
            '',
            'req/s',
            'ratio (min–max)',
            'CPU µs/req',
            'CPU ratio',
            'p50 ms',
            'p99 ms',
            'requests',
            'questions',
            'KB/answer',
            'req/s per round',
          ],
          rows.map(([name, r, ratio, questions]) => [
            name,
            Math.round(r.rps).toLocaleString('en-US'),
            ratio,
            r.cpuUsPerRequest === null ? '' : r.cpuUsPerRequest.toFixed(1),
            (r as Partial<RatioSeries>).cpuRatio?.toFixed(3) ?? '',
            fms(r.p50Ms),
            fms(r.p99Ms),
            r.requests.toLocaleString('en-US'),
            questions.toLocaleString('en-US'),
            kb(r.bytesPerResponse),
            r.rounds.map((x) => Math.round(x.rps).toLocaleString('en-US')).join(' '),
          ]),
        ),
      );
      console.log(
        `insight on ÷ off (each against its own hello world): popular ${h.insightCost.popular.toFixed(3)}, distinct ${h.insightCost.distinct.toFixed(3)} (target ≥ ${INSIGHT_THROUGHPUT_TARGET}).`,
      );
      const perRequest = await runInsightBench();
      console.log(
        `insight in-process, per request: ${perRequest.searchBelowKNs} ns for a search below k (hashing its client), ` +
          `${perRequest.searchReleasedNs} ns once released, ${perRequest.searchNewTextNs} ns for a never-seen text, ` +
          `${perRequest.responseNs} ns for another response; a flush ${perRequest.flushMs} ms (bench/insight.ts).`,
      );
      console.log(
        `distinct: questions from the sample site's headings and text, each round its own slice${
          h.askDistinct.everyRequestNew
            ? ': every request asked a question not asked before.'
            : ` of ${h.askDistinct.distinctQueries}, cycling (far longer than the cache, so none is answered from it).`
        } e.g. "${h.askDistinct.sample[0] ?? ''}"`,
      );
    } catch (error) {
      http = asError(error);
      console.log(`HTTP bench failed: ${http.message}`);
      process.exitCode = 1;
    }
    out.http = http instanceof Error ? { error: http.message } : http;
  }

  // ---- Part 6: typing.
  let typing: TypingBenchResult | Error | null = null;
  if (runsPart(6) && process.env.FRONTDOOR_BENCH_TYPING !== '0') {
    console.log(
      `\n== 6. Typing: titles typed in full, cut mid-word, with one typo, descriptions as questions (${loadNote('typing')})`,
    );
    console.log(
      'Each corpus as its own site; cells: success@3 / MRR@10 of the entries each engine shows, in order.',
    );
    try {
      typing = await runTypingBench(dataDir);
      console.log(typingTables(typing));
    } catch (error) {
      typing = asError(error);
      console.log(`typing bench failed: ${typing.message}`);
      process.exitCode = 1;
    }
    out.typing = typing instanceof Error ? { error: typing.message } : typing;
  }

  // ---- Part 7: compression, and throughput against its ceilings.
  let compression: CompressionBenchResult | Error | null = null;
  if (runsPart(7)) {
    const seconds = Number(process.env.FRONTDOOR_BENCH_HTTP_SECONDS ?? 2);
    const rounds = Number(process.env.FRONTDOOR_BENCH_COMPRESSION_ROUNDS ?? 2);
    console.log(
      `\n== 7. Compression, and /ask against bare node:http ceilings: ${rounds} rounds of ${seconds} s per load (${loadNote('compression')})`,
    );
    try {
      compression = await runCompressionBench(seconds, rounds);
      const c = compression;
      console.log(
        `frontdoor serve at LOG_LEVEL=info (log to a file), ${c.pinnedToSeparateCores ? 'servers on core 0, wrk on core 1' : 'NOT pinned'}, ${c.connections} connections.\n` +
          table(
            ['bytes (body)', 'count', 'identity', 'br', 'gzip', 'identity ÷ br', 'identity ÷ gzip'],
            (
              [
                ['never-asked answers', c.bytes.neverAskedAnswers],
                ['popular answers', c.bytes.popularAnswers],
                ['pages (HTML)', c.bytes.pages],
              ] as const
            ).map(([name, s]) => [
              name,
              String(s.count),
              String(s.identity),
              String(s.br),
              String(s.gzip),
              s.brFewer.toFixed(2),
              s.gzipFewer.toFixed(2),
            ]),
          ),
      );
      const rows = [
        ['popular ÷ bare sending the same bytes', c.popular],
        ['never-asked ÷ bare serialising answers (sample)', c.neverAsked],
        ...(c.neverAskedDocs
          ? [['never-asked ÷ bare serialising answers (docs corpus)', c.neverAskedDocs] as const]
          : []),
        ['never-asked, br/gzip accepted ÷ identity', c.neverAskedCompressed],
      ] as const;
      console.log(
        table(
          [
            'load',
            'ratio (min–max)',
            'req/s',
            'ceiling req/s',
            'CPU µs/req',
            'ceiling CPU µs/req',
            'B/response',
          ],
          rows.map(([name, r]) => [
            name,
            `${r.ratio.toFixed(3)} (${r.ratioMin.toFixed(3)}–${r.ratioMax.toFixed(3)})`,
            r.rps.toLocaleString('en-US'),
            r.ceilingRps.toLocaleString('en-US'),
            r.cpuUs === null ? '' : r.cpuUs.toFixed(1),
            r.ceilingCpuUs === null ? '' : r.ceilingCpuUs.toFixed(1),
            r.bytesPerResponse === null ? '' : String(r.bytesPerResponse),
          ]),
        ),
      );
    } catch (error) {
      compression = asError(error);
      console.log(`compression bench failed: ${compression.message}`);
      process.exitCode = 1;
    }
    out.compression = compression instanceof Error ? { error: compression.message } : compression;
  }

  // ---- Part 8: content scaling.
  if (runsPart(8)) {
    console.log(
      `\n== 8. Content scaling: one hostile page, loaded by loadSite (${loadNote('content-scaling')})`,
    );
    const scaling = await runContentScalingBench();
    console.log(scalingReport(scaling));
    if (!scaling.pass) process.exitCode = 1;
    out.contentScaling = scaling;
  }

  // ---- Part 9: built HTML sites.
  let htmlSites: HtmlBenchResult | Error | null = null;
  if (runsPart(9) && process.env.FRONTDOOR_BENCH_HTML !== '0') {
    console.log(`\n== 9. Built HTML sites as content (${loadNote('htmlSites')})`);
    try {
      htmlSites = await runHtmlSitesBench();
      console.log(htmlSitesTables(htmlSites));
    } catch (error) {
      htmlSites = asError(error);
      console.log(`built HTML bench failed: ${htmlSites.message}`);
      process.exitCode = 1;
    }
    out.htmlSites = htmlSites instanceof Error ? { error: htmlSites.message } : htmlSites;
  }

  // ---- Part 10: multilingual sites.
  let multilingual: LanguageScore[] | Error | null = null;
  if (runsPart(10) && process.env.FRONTDOOR_BENCH_MULTILINGUAL !== '0') {
    console.log(`\n== 10. Multilingual: javascript.info in seven languages (${loadNote('multilingual')})`);
    try {
      multilingual = await runMultilingualBench();
      console.log(multilingualTable(multilingual));
    } catch (error) {
      multilingual = asError(error);
      console.log(`multilingual bench failed: ${multilingual.message}`);
      process.exitCode = 1;
    }
    out.multilingual = multilingual instanceof Error ? { error: multilingual.message } : multilingual;
  }

  // ---- Summary.
  const targets = [
    ...targetRows({
      compression,
      quality: quality && quality.engines,
      cranfieldSpeed: cranSpeed,
      docsSpeed: docSpeed,
      cranfieldHeadToHead: cranVsMini,
      docsHeadToHead: docsVsMini,
      askInProcess,
      pipeline,
      server,
      http,
      typing,
    }),
    ...(htmlSites && !(htmlSites instanceof Error) ? htmlSitesTargets(htmlSites) : []),
    ...(multilingual && !(multilingual instanceof Error) ? multilingualTargets(multilingual) : []),
  ];
  out.targets = targets;
  console.log(`\n== Targets (${loadNote('end')}; latency verdicts are on wall clock, CPU time in the notes)`);
  console.log(targetTable(targets));

  const resultsDir = path.join(repoRoot, 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  out.totalSeconds = (performance.now() - started) / 1000;
  // Formatted with the repository's Prettier settings, so `prettier --check .` stays clean.
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
