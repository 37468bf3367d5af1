/**
 * Typing benchmark: searching the way people use a docs search box, on each docs corpus loaded as
 * its own site (tldr pages, OWASP cheat sheets). For a seeded sample of pages, four forms of query:
 *
 * - full title: the page title as written;
 * - mid-word: the title cut inside its last word (2 … length − 1 letters of it kept; titles whose
 *   last word has under 3 characters are left out of this form);
 * - one typo: the title with one word of ≥ 5 letters changed by swapping two different adjacent
 *   letters or dropping one letter (word, kind and place seeded; titles without such a word are
 *   left out). Shorter words are not typo'd: no engine corrects them (too many neighbours);
 * - description question: the page's description turned into a question (`descriptionQuestion`).
 *
 * success@3 and MRR@10 count the first result, in the order a user sees them, that leads to the
 * page. **tldr's platform folders hold copies of one command (common/du, osx/du, …): a result on
 * any platform's page of the same command counts as found**, as a user who typed "du" judges it
 * (the page they get is the du page, and the platform shows on it); the strict success@3 (only the
 * sampled page itself) is reported beside it.
 *
 * Engines, each showing results as its own UI does:
 * - Frontdoor: the ask service's answer (`createAskService(...).answer`, the code behind GET /ask),
 *   its resources in answer order, so this measures what users get;
 * - MiniSearch as VitePress's local search sets it up (localSearchPlugin + VPLocalSearchBox):
 *   fields title/titles/text, sections split at every heading as `splitPageIntoSections` does,
 *   `prefix: true, fuzzy: 0.2, boost: { title: 4, text: 2, titles: 1 }`; one entry per section;
 * - Pagefind (npm `pagefind`, Node indexing API) searched by its own JS runtime (pagefind.js +
 *   WASM) running in Node, served from a local HTTP server; one entry per page.
 *
 * `npx tsx bench/typing.ts` runs it alone; `npm run bench` runs it as part 6.
 * FRONTDOOR_BENCH_TYPING_SAMPLE sets the sample size per corpus (default 300; OWASP has 120 pages).
 */

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import MiniSearch from 'minisearch';

import type { Page, Site } from '../src/content/index.js';
import { encodePagePath, htmlOf, loadSite } from '../src/content/index.js';
import { createAskService } from '../src/nlweb/index.js';
import { BUNDLED_CONTENT_DIR } from '../src/config/index.js';
import {
  askRanking,
  evaluateQuestions,
  loadQuestions,
  QUESTION_FLOOR,
  QUESTION_KINDS,
  type QuestionScore,
} from '../test/questions/evaluate.js';
import { sharedDataDir } from './paths.js';
import { f4, table, targetTable, type TargetRow } from './report.js';
import { seededRandom } from './seeded-random.js';

export const FORMS = ['full title', 'mid-word', 'one typo', 'description question'] as const;
export type Form = (typeof FORMS)[number];

/** The issue's absolute success@3 targets; every form must also beat the best peer. */
export const TYPING_TARGETS: Partial<Record<Form, number>> = {
  'full title': 0.95,
  'mid-word': 0.9,
  'one typo': 0.85,
};

export interface TypingCase {
  form: Form;
  query: string;
  /** The sampled page. */
  target: string;
  /** Pages that count as finding it: the target and its copies (other tldr platforms). */
  accepted: ReadonlySet<string>;
}

/** An engine as a user meets it: a query in, the page URL of each shown entry out, in order. */
export interface TypingEngine {
  name: string;
  search(query: string): Promise<string[]>;
  close?(): Promise<void>;
}

export interface FormScore {
  form: Form;
  queries: number;
  success1: number;
  success3: number;
  /** success@3 counting only the sampled page itself, not its copies. */
  success3Strict: number;
  mrr10: number;
}

export interface EngineScores {
  engine: string;
  buildMs: number;
  /** Mean time per query, all forms (Pagefind's includes fetching its chunks over local HTTP). */
  queryMs: number;
  forms: FormScore[];
}

export interface CorpusTypingResult {
  corpus: string;
  pages: number;
  sampled: number;
  copyRule: string;
  engines: EngineScores[];
  /** A few cases per form, to show what was asked. */
  examples: Record<string, string[]>;
}

export interface TypingBenchResult {
  seed: number;
  sampleSize: number;
  corpora: CorpusTypingResult[];
  /** The sample site's question set (test/questions/sample-site.yaml), Frontdoor first. */
  questions: Array<{ engine: string; score: QuestionScore }>;
}

const SEED = 20261125;

// ---- Query forms.

const words = (text: string): string[] => text.split(/\s+/).filter((word) => word !== '');
const lowerFirst = (text: string): string => text.charAt(0).toLowerCase() + text.slice(1);

export function midWord(title: string, random: () => number): string | null {
  const parts = words(title);
  const last = [...(parts.at(-1) ?? '')];
  if (last.length < 3) return null;
  const keep = 2 + Math.floor(random() * (last.length - 2));
  return [...parts.slice(0, -1), last.slice(0, keep).join('')].join(' ');
}

export function oneTypo(title: string, random: () => number): string | null {
  const parts = words(title);
  const candidates = parts.map((word, i) => ({ word, i })).filter(({ word }) => /^\p{L}{5,}$/u.test(word));
  if (candidates.length === 0) return null;
  const { word, i } = candidates[Math.floor(random() * candidates.length)]!;
  const letters = [...word];
  const swaps = letters.slice(0, -1).flatMap((letter, at) => (letter !== letters[at + 1] ? [at] : []));
  let changed: string[];
  if (random() < 0.5 && swaps.length > 0) {
    const at = swaps[Math.floor(random() * swaps.length)]!;
    changed = [...letters];
    [changed[at], changed[at + 1]] = [letters[at + 1]!, letters[at]!];
  } else {
    const at = Math.floor(random() * letters.length);
    changed = letters.filter((_, index) => index !== at);
  }
  const out = [...parts];
  out[i] = changed.join('');
  return out.join(' ');
}

/** Verbs tldr descriptions start with ("List directory contents."), asked as "how do I …?". */
const IMPERATIVE = new Set(
  (
    'add analyze apply automate automatically build calculate capture change check clean compare compile configure ' +
    'connect control convert copy count create decode decrypt delete detect disable display download dump easily ' +
    'edit enable encode encrypt enter execute export extract fetch filter find format generate get import initialize ' +
    'inspect install interact interactively launch list load log make manage manipulate merge modify monitor mount ' +
    'move open output perform play print query read record remove render reset restore retrieve run save scan search ' +
    'securely send set show start stop switch synchronize test uninstall update upgrade use validate verify view write'
  ).split(' '),
);

/**
 * The page's description as a visitor would ask for it: its first sentence (up to 14 words), as
 * "how do I …?" when it starts with a verb, "what is/are X?" when it defines X ("Authentication
 * (AuthN) is the process …"), "what is the …?" for a short noun phrase ("Archiving utility"),
 * else the sentence itself with a question mark. tldr pages that only say they are an alias or
 * deprecated are left out (their description says nothing about a task).
 */
export function descriptionQuestion(description: string): string | null {
  const text = description.replace(/\s*More information.*$/s, '').trim();
  if (/^This command (is|has been)/i.test(text)) return null;
  const sentence = (text.split(/(?<=[.!?])\s/)[0] ?? '').replace(/[.…!?:;]+$/, '');
  const parts = words(sentence).slice(0, 14);
  if (parts.length === 0) return null;
  const first = parts[0]!.toLowerCase().replace(/[^\p{L}]/gu, '');
  if (IMPERATIVE.has(first)) return `how do I ${lowerFirst(parts.join(' '))}?`;
  const definition = /^(.+?) (is|are) (?:the|a|an|used|defined|one|\w+ed\b)/.exec(sentence);
  if (
    definition &&
    words(definition[1]!).length <= 6 &&
    !/^(this|these|it|they|there)\b/i.test(definition[1]!)
  )
    return `what ${definition[2]} ${lowerFirst(definition[1]!)}?`;
  if (parts.length <= 10)
    return /^(a|an|the)\b/i.test(parts[0]!)
      ? `what is ${lowerFirst(parts.join(' '))}?`
      : `what is the ${lowerFirst(parts.join(' '))}?`;
  return `${lowerFirst(parts.join(' '))}?`;
}

/** tldr: every platform folder's page of the same command is a copy; elsewhere a page is unique. */
function copiesOf(site: Site, isTldr: boolean): (page: Page) => ReadonlySet<string> {
  if (!isTldr) return (page) => new Set([page.url]);
  const byCommand = new Map<string, string[]>();
  for (const page of site.pages) {
    const command = path.posix.basename(page.sourcePath);
    byCommand.set(command, [...(byCommand.get(command) ?? []), page.url]);
  }
  return (page) => new Set(byCommand.get(path.posix.basename(page.sourcePath)) ?? [page.url]);
}

export function typingCases(site: Site, isTldr: boolean, sampleSize: number, seed = SEED): TypingCase[] {
  const random = seededRandom(seed);
  const order = site.pages.map((page) => ({ page, key: random() }));
  order.sort((a, b) => a.key - b.key);
  const sample = order.slice(0, sampleSize).map(({ page }) => page);
  const copies = copiesOf(site, isTldr);
  const cases: TypingCase[] = [];
  for (const page of sample) {
    const accepted = copies(page);
    const add = (form: Form, query: string | null) => {
      if (query !== null && query.trim() !== '') cases.push({ form, query, target: page.url, accepted });
    };
    add('full title', page.title);
    add('mid-word', midWord(page.title, random));
    add('one typo', oneTypo(page.title, random));
    add('description question', descriptionQuestion(page.description));
  }
  return cases;
}

// ---- Scoring.

export async function scoreEngine(engine: TypingEngine, cases: readonly TypingCase[]): Promise<FormScore[]> {
  const scores: FormScore[] = [];
  for (const form of FORMS) {
    const ofForm = cases.filter((c) => c.form === form);
    let s1 = 0;
    let s3 = 0;
    let strict3 = 0;
    let mrr = 0;
    for (const item of ofForm) {
      const shown = (await engine.search(item.query)).slice(0, 10);
      const rank = shown.findIndex((url) => item.accepted.has(url));
      const strictRank = shown.indexOf(item.target);
      if (rank === 0) s1++;
      if (rank >= 0 && rank < 3) s3++;
      if (strictRank >= 0 && strictRank < 3) strict3++;
      if (rank >= 0) mrr += 1 / (rank + 1);
    }
    const n = ofForm.length || 1;
    scores.push({
      form,
      queries: ofForm.length,
      success1: s1 / n,
      success3: s3 / n,
      success3Strict: strict3 / n,
      mrr10: mrr / n,
    });
  }
  return scores;
}

// ---- Engines.

/** URL path of a result link → the page URL it leads to (decoded, without the anchor). */
function pageUrlOf(link: string): string {
  const pathname = new URL(link, 'http://bench.invalid').pathname;
  return pathname.split('/').map(decodeSegment).join('/');
}

/** A page URL's segment as written; a raw `%` (the /ask links of a page named `%`) stays as it is. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function frontdoorAsk(site: Site): TypingEngine {
  const service = createAskService(site, 'http://bench.invalid', { cacheSize: 0 });
  return {
    name: 'Frontdoor (/ask answer)',
    search: (text) => {
      const answer = service.answer({ text, maxResults: 10, conversationId: null }, 'typing-bench');
      const urls: string[] = [];
      for (const item of answer.content) {
        if (item.type !== 'resource') continue;
        if (!item.resource.uri) throw new Error(`an /ask result has no uri (query "${text}")`);
        urls.push(pageUrlOf(item.resource.uri));
      }
      return Promise.resolve(urls);
    },
  };
}

export interface VitePressSection {
  id: string;
  title: string;
  titles: string[];
  text: string;
}

const HEADING = /<h([1-6])[^>]*?\sid="([^"]*)"[^>]*>([\s\S]*?)<\/h\1>/g;
const clearHtmlTags = (html: string): string => html.replace(/<[^>]*>/g, '');

/**
 * A page as VitePress's `splitPageIntoSections` cuts it: the page rendered with its title as the
 * h1, split at every heading; a section's title is its heading, `titles` the headings above it;
 * text is the HTML between headings without tags; a heading with nothing after it is skipped.
 */
export function vitePressSections(page: Pick<Page, 'url' | 'title'>, pageHtml: string): VitePressSection[] {
  const html = `<h1 id="">${escapeHtml(page.title)}</h1>\n${pageHtml}`;
  const sections: VitePressSection[] = [];
  const found = [...html.matchAll(HEADING)];
  let parentTitles: string[] = [];
  found.forEach((match, i) => {
    const level = Number(match[1]) - 1;
    const title = clearHtmlTags(match[3]!).trim();
    const anchor = match[2]!;
    const end = i + 1 < found.length ? found[i + 1]!.index : html.length;
    const content = html.slice(match.index + match[0].length, end);
    if (title && content) {
      let titles = parentTitles.slice(0, level);
      titles[level] = title;
      titles = titles.filter(Boolean);
      sections.push({
        id: anchor ? `${page.url}#${anchor}` : page.url,
        title: titles.at(-1)!,
        titles: titles.slice(0, -1),
        text: clearHtmlTags(content),
      });
    }
    if (title) {
      if (level === 0) parentTitles = [title];
      else parentTitles[level] = title;
    }
  });
  return sections;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function vitePressMiniSearch(site: Site): TypingEngine {
  return vitePressMiniSearchOver(site.pages.flatMap((page) => vitePressSections(page, htmlOf(page))));
}

/** MiniSearch set up as VitePress's local search, over sections already cut. */
export function vitePressMiniSearchOver(sections: readonly VitePressSection[]): TypingEngine {
  const index = new MiniSearch<VitePressSection>({
    fields: ['title', 'titles', 'text'],
    storeFields: ['title', 'titles'],
    searchOptions: { fuzzy: 0.2, prefix: true, boost: { title: 4, text: 2, titles: 1 } },
  });
  index.addAll(sections);
  return {
    name: 'MiniSearch as VitePress',
    search: (text) => Promise.resolve(index.search(text).map((result) => String(result.id).split('#')[0]!)),
  };
}

interface PagefindRuntime {
  options(options: { basePath: string }): Promise<void>;
  init(): Promise<void>;
  search(query: string): Promise<{ results: Array<{ data(): Promise<{ url: string }> }> } | null>;
}

/** Pagefind: the site indexed through its Node API, searched by its own runtime in this process. */
export async function pagefindEngine(site: Site, lang = 'en'): Promise<TypingEngine> {
  return pagefindOver(
    site.pages.map((page) => ({
      url: encodePagePath(page.url),
      content: `<html lang="${lang}"><body><h1>${escapeHtml(page.title)}</h1>\n${htmlOf(page)}</body></html>`,
    })),
    lang,
  );
}

/** Pagefind over whole HTML documents (`url` as written in an href). */
export async function pagefindOver(
  files: readonly { url: string; content: string }[],
  lang = 'en',
): Promise<TypingEngine> {
  const pagefind = await import('pagefind');
  const { index, errors } = await pagefind.createIndex({ forceLanguage: lang });
  if (!index) throw new Error(`pagefind createIndex failed: ${errors.join('; ')}`);
  for (const file of files) {
    const added = await index.addHTMLFile(file);
    if (added.errors.length > 0) throw new Error(`pagefind: ${file.url}: ${added.errors.join('; ')}`);
  }
  const outDir = mkdtempSync(path.join(tmpdir(), 'frontdoor-pagefind-'));
  const written = await index.writeFiles({ outputPath: outDir });
  if (written.errors.length > 0) throw new Error(`pagefind writeFiles: ${written.errors.join('; ')}`);
  await pagefind.close();

  // The runtime fetches its index chunks over HTTP, as in a browser; Node's fetch needs http(s).
  const server: Server = createServer((request, response) => {
    const file = path.join(outDir, decodeURIComponent((request.url ?? '/').split('?')[0]!));
    try {
      response.end(readFileSync(file));
    } catch {
      response.statusCode = 404;
      response.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const basePath = `http://127.0.0.1:${port}/`;
  // On a loaded machine a local fetch now and then fails to connect; the runtime would log it and
  // search without that chunk, under-counting Pagefind. Retry, and fail the run if it still fails.
  const plainFetch = globalThis.fetch;
  let failedFetches = 0;
  globalThis.fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (!url.startsWith(basePath)) return plainFetch(input, init);
    for (let attempt = 1; ; attempt++) {
      try {
        return await plainFetch(input, init);
      } catch (error) {
        if (attempt === 5) {
          failedFetches++;
          throw error;
        }
        await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
      }
    }
  };
  const runtime = (await import(pathToFileURL(path.join(outDir, 'pagefind.js')).href)) as PagefindRuntime;
  await runtime.options({ basePath });
  await runtime.init();
  return {
    name: 'Pagefind',
    search: async (text) => {
      const found = await runtime.search(text);
      const data = found ? await Promise.all(found.results.slice(0, 10).map((result) => result.data())) : [];
      if (failedFetches > 0) throw new Error(`Pagefind could not load its index for "${text}"`);
      return data.map((entry) => pageUrlOf(entry.url));
    },
    close: async () => {
      globalThis.fetch = plainFetch;
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}

// ---- Running.

async function timed<T>(build: () => Promise<T> | T): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await build();
  return { value, ms: performance.now() - started };
}

export async function runTypingCorpus(
  name: string,
  dir: string,
  isTldr: boolean,
  sampleSize: number,
): Promise<CorpusTypingResult> {
  const { site } = await loadSite(dir);
  const cases = typingCases(site, isTldr, sampleSize);
  const builders: Array<() => Promise<TypingEngine> | TypingEngine> = [
    () => frontdoorAsk(site),
    () => vitePressMiniSearch(site),
    () => pagefindEngine(site),
  ];
  const engines: EngineScores[] = [];
  for (const build of builders) {
    const { value: engine, ms } = await timed(build);
    try {
      const scored = await timed(() => scoreEngine(engine, cases));
      engines.push({
        engine: engine.name,
        buildMs: ms,
        queryMs: scored.ms / Math.max(1, cases.length),
        forms: scored.value,
      });
    } finally {
      await engine.close?.();
    }
  }
  const examples: Record<string, string[]> = {};
  for (const form of FORMS)
    examples[form] = cases
      .filter((c) => c.form === form)
      .slice(0, 3)
      .map((c) => `${c.query} → ${c.target}`);
  return {
    corpus: name,
    pages: site.pages.length,
    sampled: Math.min(sampleSize, site.pages.length),
    copyRule: isTldr
      ? 'a result on another platform’s page of the same command counts (strict: the sampled page only)'
      : 'each page is unique',
    engines,
    examples,
  };
}

export async function runTypingBench(dataDir = sharedDataDir()): Promise<TypingBenchResult> {
  const sampleSize = Number(process.env.FRONTDOOR_BENCH_TYPING_SAMPLE ?? 300);
  const corpusDir = path.join(dataDir, 'docs-corpus');
  const corpora = [
    await runTypingCorpus('tldr-pages', path.join(corpusDir, 'tldr-pages'), true, sampleSize),
    await runTypingCorpus('owasp-cheatsheets', path.join(corpusDir, 'owasp-cheatsheets'), false, sampleSize),
  ];
  return { seed: SEED, sampleSize, corpora, questions: await runSampleSiteQuestions() };
}

/** The question set scored by the same function as the core test's floor, peers beside it. */
export async function runSampleSiteQuestions(): Promise<TypingBenchResult['questions']> {
  const questions = loadQuestions();
  const { site } = await loadSite(BUNDLED_CONTENT_DIR);
  const results: TypingBenchResult['questions'] = [
    { engine: 'Frontdoor (/ask answer)', score: await evaluateQuestions(questions, askRanking(site)) },
  ];
  for (const build of [() => vitePressMiniSearch(site), () => pagefindEngine(site)]) {
    const engine = await build();
    try {
      results.push({
        engine: engine.name,
        score: await evaluateQuestions(questions, (q) => engine.search(q)),
      });
    } finally {
      await engine.close?.();
    }
  }
  return results;
}

// ---- Report.

export function typingTables(result: TypingBenchResult): string {
  const out: string[] = [];
  for (const corpus of result.corpora) {
    const ours = corpus.engines[0]!;
    out.push(
      `${corpus.corpus}: ${corpus.pages} pages, ${corpus.sampled} sampled (seed ${result.seed}); ${corpus.copyRule}. ` +
        `Build / mean query: ${corpus.engines.map((e) => `${e.engine} ${(e.buildMs / 1000).toFixed(1)} s / ${e.queryMs.toFixed(1)} ms`).join(', ')}`,
    );
    const rows = FORMS.map((form, i) => {
      const cells = [form, String(ours.forms[i]!.queries)];
      for (const engine of corpus.engines) {
        const score = engine.forms[i]!;
        cells.push(`${f4(score.success3)} / ${f4(score.mrr10)}`);
      }
      cells.push(corpus.engines.map((e) => f4(e.forms[i]!.success3Strict)).join(' / '));
      return cells;
    });
    out.push(
      table(
        ['form', 'queries', ...corpus.engines.map((e) => `${e.engine} s@3 / MRR`), 'strict s@3 (same order)'],
        rows,
      ),
    );
    for (const form of FORMS) out.push(`  e.g. ${form}: ${(corpus.examples[form] ?? []).join('; ')}`);
    out.push('');
  }
  const first = result.questions[0];
  if (first) {
    out.push(
      `Sample site question set (test/questions/sample-site.yaml, ${first.score.questions} questions; the core test's floor: ` +
        `success@1 ≥ ${QUESTION_FLOOR.success1}, success@3 ≥ ${QUESTION_FLOOR.success3}). Cells: success@1 / success@3.`,
    );
    const cell = (v: { success1: number; success3: number }) => `${f4(v.success1)} / ${f4(v.success3)}`;
    out.push(
      table(
        [
          'engine',
          'all',
          'MRR',
          ...QUESTION_KINDS.map((kind) => `${kind} (${first.score.byKind[kind].questions})`),
        ],
        result.questions.map(({ engine, score }) => [
          engine,
          cell(score),
          f4(score.mrr10),
          ...QUESTION_KINDS.map((kind) => cell(score.byKind[kind])),
        ]),
      ),
    );
    out.push(`Frontdoor not first on ${first.score.misses.length}:`);
    for (const miss of first.score.misses)
      out.push(
        `  [${miss.kind}] "${miss.q}": ${miss.rank === null ? 'not in the top 10' : `rank ${miss.rank}`}; shown ${miss.shown.join(', ') || 'nothing'}`,
      );
  }
  return out.join('\n');
}

/**
 * Ahead = a higher success@3, or the same success@3 and a higher MRR@10 (when both find every
 * page in the top 3, the one that puts it higher is ahead).
 */
const ahead = (ours: FormScore, peer: FormScore): boolean =>
  ours.success3 > peer.success3 || (ours.success3 === peer.success3 && ours.mrr10 > peer.mrr10);

/** PASS/FAIL per corpus and form: ahead of the best peer, and the issue's success@3 floors. */
export function typingTargetRows(result: TypingBenchResult): TargetRow[] {
  const rows: TargetRow[] = [];
  for (const corpus of result.corpora) {
    const [ours, ...peers] = corpus.engines;
    if (!ours) continue;
    FORMS.forEach((form, i) => {
      const mine = ours.forms[i]!;
      const best = peers
        .map((peer) => ({ name: peer.engine, score: peer.forms[i]! }))
        .sort((a, b) => b.score.success3 - a.score.success3 || b.score.mrr10 - a.score.mrr10)[0];
      if (best)
        rows.push({
          target: `Typing, ${corpus.corpus}, ${form}: ahead of the best peer (success@3, then MRR)`,
          measured: f4(mine.success3),
          pass: ahead(mine, best.score),
          note: `best peer ${best.name} ${f4(best.score.success3)}; MRR ${f4(mine.mrr10)} vs ${f4(best.score.mrr10)}; ${mine.queries} queries`,
        });
      const floor = TYPING_TARGETS[form];
      if (floor !== undefined)
        rows.push({
          target: `Typing, ${corpus.corpus}, ${form}: success@3 ≥ ${floor}`,
          measured: f4(mine.success3),
          pass: mine.success3 >= floor,
          note: `strict (sampled page only) ${f4(mine.success3Strict)}`,
        });
    });
  }
  const [ours, ...peers] = result.questions;
  if (ours) {
    const others = peers
      .map((p) => `${p.engine} ${f4(p.score.success1)} / ${f4(p.score.success3)}`)
      .join(', ');
    rows.push({
      target: `Sample site questions: success@1 ≥ ${QUESTION_FLOOR.success1}`,
      measured: f4(ours.score.success1),
      pass: ours.score.success1 >= QUESTION_FLOOR.success1,
      note: `${ours.score.questions} questions; peers s@1 / s@3: ${others}`,
    });
    rows.push({
      target: `Sample site questions: success@3 ≥ ${QUESTION_FLOOR.success3}`,
      measured: f4(ours.score.success3),
      pass: ours.score.success3 >= QUESTION_FLOOR.success3,
      note: `MRR ${f4(ours.score.mrr10)}`,
    });
  }
  return rows;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const result = await runTypingBench();
  console.log(typingTables(result));
  console.log(targetTable(typingTargetRows(result)));
}
