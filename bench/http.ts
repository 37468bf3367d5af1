/**
 * GET /ask throughput over HTTP, as a ratio of a bare node:http hello-world server measured in the
 * same run on the same machine. The server runs pinned to core 0 and the load generator to core 1,
 * so the two never compete for a core. The load generator is wrk (C; Debian package `wrk`), because
 * a JavaScript client parsing ~9 KB answers saturates its own core before the server does. When wrk
 * is missing and the bench runs as root on Debian, it installs the package first (as .ci/run does
 * for Chromium; FRONTDOOR_BENCH_INSTALL_WRK=0 skips that); failing that it falls back to
 * autocannon, and the report says so and gives no verdict on the ratios.
 *
 * Besides the hello world, a bare node:http server sending the bytes of a real /ask answer (as a
 * string and as a Buffer: the cost of the answer itself), and on the app (the bundled sample site):
 * - /healthz: the smallest route, i.e. the app's own per-request cost (hooks, headers, ids);
 * - /ask, popular: 8 questions asked over and over, so after the first round the answer cache
 *   (src/nlweb/service.ts, an LRU of DEFAULT_ANSWER_CACHE_SIZE answers) serves them;
 * - /ask, distinct: tens of thousands of different questions drawn from the site's headings and
 *   text, in one global sequence, so every request asks a question not asked before and nothing
 *   comes from the cache;
 * - /ask, popular, with the default request logging: a second app server at LOG_LEVEL=info (one
 *   line per request) writing its log to a file, next to the first one at LOG_LEVEL=warn (no
 *   request lines): what the per-request log line costs /ask.
 * Both /ask loads also run against a server with INSIGHT=off, each right after its own hello world:
 * insight's cost is the ratio of the two. All requests come from one address, so no question ever
 * reaches k distinct clients and every request pays for the keyed hash of its client: insight's
 * worst case (docs/insight.md).
 */
import { seededRandom } from './seeded-random.js';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { BUNDLED_CONTENT_DIR } from '../src/config/index.js';
import type { Site } from '../src/content/index.js';
import { loadSite } from '../src/content/index.js';
import { DEFAULT_ANSWER_CACHE_SIZE } from '../src/nlweb/service.js';
import { normaliseQuery } from '../src/nlweb/request.js';
import { analyzeQuery } from '../src/search/index.js';
import { repoRoot, sharedDataDir } from './paths.js';
import type { ServerEntry } from './server.js';
import { canPin, pinned, serverEntry, spawnServer, stopServer } from './server.js';

/** One load-generator run. */
export interface LoadRun {
  rps: number;
  /** Latency under this load (all connections busy), not the latency of one request alone. */
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Average response size including headers (wrk's transfer ÷ requests); null with autocannon. */
  bytesPerResponse: number | null;
  /**
   * CPU time the server process used per request during the run (user + system, µs), read from
   * /proc; null where /proc is not there.
   */
  cpuUsPerRequest: number | null;
}

/** The same load measured in every round; the summary fields are medians over the rounds. */
export interface LoadSeries {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** All rounds together. */
  requests: number;
  bytesPerResponse: number | null;
  /** Median over the rounds of the server's CPU per request (µs); null without /proc. */
  cpuUsPerRequest: number | null;
  rounds: LoadRun[];
}

export interface RatioSeries extends LoadSeries {
  /** Median over the rounds of (this rps ÷ the geometric mean of the hello worlds just before and after it). */
  ratio: number;
  ratioMin: number;
  ratioMax: number;
  /**
   * Median over the rounds of the hello world's CPU per request ÷ this load's: the same comparison
   * as `ratio`, in the server's CPU time instead of requests per second. It moves much less from
   * round to round on a shared machine (±3 % where the throughput ratio moves ±20 %).
   */
  cpuRatio: number | null;
  /** Different paths (query texts) in the measured requests. */
  distinctQueries: number;
}

export interface HttpBenchResult {
  loadGenerator: 'wrk' | 'autocannon';
  /** Servers and load generator pinned to separate cores (taskset). */
  pinnedToSeparateCores: boolean;
  server: { runner: ServerEntry['runner']; reason: string; site: string };
  /** Each load (and the hello world before it) runs this long in every round. */
  secondsPerLoad: number;
  rounds: number;
  connections: number;
  answerCacheSize: number;
  helloWorld: LoadSeries;
  /**
   * Bare node:http sending the bytes of a real /ask answer, as a JS string (what the app sends)
   * and as a prepared Buffer: the cost of the answer's size and encoding, without the app.
   */
  answerString: RatioSeries;
  answerBuffer: RatioSeries;
  /**
   * Bare node:http serialising the same answer (JSON.stringify of its parsed value) and sending it,
   * per request: what turning an answer into bytes costs a never-asked question even when ranking,
   * snippets and the app cost nothing — the ceiling for any design that builds such an answer.
   */
  answerSerialised: RatioSeries;
  /** The smallest route of the same app: its request pipeline without /ask's work. */
  healthz: RatioSeries;
  askPopular: RatioSeries & { queries: string[] };
  askDistinct: RatioSeries & { sample: string[]; warmUpQueries: number; everyRequestNew: boolean };
  /** The same /ask loads on a server with INSIGHT=off. */
  askPopularInsightOff: RatioSeries;
  askDistinctInsightOff: RatioSeries;
  /** /ask throughput with insight on ÷ off (each first taken as a ratio to its own hello world). */
  insightCost: { popular: number; distinct: number };
  /**
   * The popular questions on a server at LOG_LEVEL=info (the default: one request line each),
   * logging to a file; `loggingCost` = 1 − its rps ÷ askPopular's rps, round by round (median).
   */
  askPopularLogged: RatioSeries & {
    logLevel: 'info';
    logBytesPerRequest: number;
    loggingCost: number;
  };
  /** Never-asked questions on the LOG_LEVEL=info server (the default): what the targets judge. */
  askDistinctLogged: RatioSeries;
  /**
   * Never-asked questions about the docs corpus (../shared/data/docs-corpus as one site, ~7,500
   * pages) on a server at the default LOG_LEVEL=info; null when the shared data is not there.
   */
  askDistinctDocs: (RatioSeries & { pages: number; sample: string[] }) | null;
}

/** Insight may cost /ask at most 5 % of its throughput. */
export const INSIGHT_THROUGHPUT_TARGET = 0.95;

/** The popular questions (the lead's set; asked in a cycle of 8, so cached). */
export const POPULAR_QUERIES = [
  'how do I export a protocol to ICH M11',
  'informed consent form draft',
  'schedule of activities',
  'does it support 21 CFR Part 11',
  'single sign-on',
  'what can a CRO suggest',
  'eligibility criteria library',
  'amendments and version control',
];

/**
 * `count` distinct free ports, probed all at once so that two servers of this run can never be
 * handed the same one (a port probed and released alone can be handed out again at once).
 */
export async function freePorts(count: number): Promise<number[]> {
  const probes = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<Server>((done, fail) => {
          const server = createServer();
          server.on('error', fail);
          server.listen(0, '127.0.0.1', () => done(server));
        }),
    ),
  );
  const ports = probes.map((server) => {
    const address = server.address();
    return typeof address === 'object' && address ? address.port : 0;
  });
  await Promise.all(probes.map((server) => new Promise((done) => server.close(done))));
  return ports;
}

/**
 * Waits until `url` answers 200 with the body `isExpected` recognises, so a load never runs against
 * some other process that happens to hold the port.
 */
export async function waitForHttp(
  url: string,
  isAlive: () => boolean,
  isExpected: (body: string) => boolean,
): Promise<void> {
  // 60 s: the docs-corpus server parses ~7,500 pages before it listens.
  for (let i = 0; i < 600; i++) {
    if (!isAlive()) throw new Error(`the server for ${url} exited`);
    try {
      const response = await fetch(url);
      const body = await response.text();
      if (response.ok) {
        if (!isExpected(body)) throw new Error(`${url} is answered by another server: ${body.slice(0, 80)}`);
        return;
      }
    } catch (error) {
      if ((error as Error).message.includes('another server')) throw error;
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server at ${url} did not answer`);
}

export interface RawLoad extends Omit<LoadRun, 'cpuUsPerRequest'> {
  non2xx: number;
}

/**
 * Clock ticks per second of /proc's CPU times: USER_HZ, which Linux fixes at 100 for user space on
 * the architectures Node runs on (`getconf CLK_TCK`).
 */
const USER_HZ = 100;

/**
 * CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat; null where there
 * is no /proc. The server is spawned through taskset, which execs it: the pid stays the server's.
 */
export function cpuSecondsOf(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces), from field 3: utime is 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / USER_HZ;
  } catch {
    return null;
  }
}

function hasWrk(): boolean {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    // wrk --version exits 1 after printing its version.
    return (error as { status?: number }).status === 1;
  }
}

/** Installs Debian's wrk package when that is possible here (root, apt-get); returns whether wrk runs. */
function provideWrk(): boolean {
  if (hasWrk()) return true;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!root || process.env.FRONTDOOR_BENCH_INSTALL_WRK === '0') return false;
  try {
    execFileSync('apt-get', ['--version'], { stdio: 'ignore' });
  } catch {
    return false;
  }
  console.log(
    'wrk is not installed: installing the Debian package wrk (FRONTDOOR_BENCH_INSTALL_WRK=0 skips this)',
  );
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  try {
    execFileSync('apt-get', ['install', '-y', '-qq', 'wrk'], { stdio: 'ignore', env });
  } catch {
    try {
      execFileSync('apt-get', ['update', '-qq'], { stdio: 'ignore', env });
      execFileSync('apt-get', ['install', '-y', '-qq', 'wrk'], { stdio: 'ignore', env });
    } catch (error) {
      console.log(`could not install wrk (${(error as Error).message.split('\n')[0]}); using autocannon`);
      return false;
    }
  }
  return hasWrk();
}

let wrkAvailable: boolean | undefined;
/** Whether this run uses wrk (decided, and wrk installed if possible, on first use). */
function useWrk(): boolean {
  wrkAvailable ??= provideWrk();
  return wrkAvailable;
}

/** wrk prints latencies like "1.23ms" and "850.00us". */
function milliseconds(value: string): number {
  const match = /^([\d.]+)(us|ms|s)$/.exec(value.trim());
  if (!match) return Number.NaN;
  const n = Number(match[1]);
  return match[2] === 'us' ? n / 1000 : match[2] === 's' ? n * 1000 : n;
}

/** wrk prints sizes like "12.34MB". */
function bytes(value: string): number {
  const match = /^([\d.]+)([KMGT]?)B$/.exec(value.trim());
  if (!match) return Number.NaN;
  const scale = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3, T: 1024 ** 4 }[match[2] as '' | 'K'];
  return Number(match[1]) * scale;
}

/** The paths go to a file the Lua script reads once; wrk's one thread walks them in order. */
function loadWithWrk(
  url: string,
  paths: string[],
  seconds: number,
  connections: number,
  headers: Record<string, string> = {},
): Promise<RawLoad> {
  const dir = mkdtempSync(path.join(tmpdir(), 'fd-wrk-'));
  const list = path.join(dir, 'paths.txt');
  const script = path.join(dir, 'paths.lua');
  writeFileSync(list, paths.join('\n') + '\n');
  writeFileSync(
    script,
    `local paths = {}\nfor line in io.lines(${JSON.stringify(list)}) do paths[#paths + 1] = line end\n` +
      'local i = 0\n' +
      Object.entries(headers)
        .map(([name, value]) => `wrk.headers[${JSON.stringify(name)}] = ${JSON.stringify(value)}\n`)
        .join('') +
      'request = function()\n  i = i % #paths + 1\n  return wrk.format("GET", paths[i])\nend\n' +
      'done = function(summary, latency, requests)\n' +
      '  io.write(string.format("non2xx %d\\n", summary.errors.status))\nend\n',
  );
  const { command, args } = pinned(1, 'wrk', [
    '-t1',
    `-c${connections}`,
    `-d${seconds}s`,
    '--latency',
    '-s',
    script,
    url,
  ]);
  return new Promise((done, fail) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) => {
      rmSync(dir, { recursive: true, force: true });
      if (code !== 0) return fail(new Error(`wrk exited ${code}`));
      const rps = /Requests\/sec:\s+([\d.]+)/.exec(out);
      const transfer = /Transfer\/sec:\s+(\S+)/.exec(out);
      const total = /(\d+) requests in/.exec(out);
      const p50 = /\s50%\s+(\S+)/.exec(out);
      const p99 = /\s99%\s+(\S+)/.exec(out);
      const non2xx = /non2xx (\d+)/.exec(out);
      if (!rps || !p50 || !p99 || !total || !transfer)
        return fail(new Error(`unreadable wrk output:\n${out}`));
      done({
        rps: Number(rps[1]),
        p50Ms: milliseconds(p50[1] as string),
        p99Ms: milliseconds(p99[1] as string),
        requests: Number(total[1]),
        bytesPerResponse: Math.round(bytes(transfer[1] as string) / Number(rps[1])),
        non2xx: Number(non2xx?.[1] ?? 0),
      });
    });
  });
}

/**
 * autocannon in a separate process pinned to core 1. One `setupRequest` shared by all connections
 * takes the next path of one global sequence (autocannon's plain `requests` list would make every
 * connection walk the same list from the start, repeating each query once per connection).
 */
function loadWithAutocannon(
  url: string,
  paths: string[],
  seconds: number,
  connections: number,
  headers: Record<string, string> = {},
): Promise<RawLoad> {
  const dir = mkdtempSync(path.join(tmpdir(), 'fd-autocannon-'));
  const list = path.join(dir, 'paths.json');
  writeFileSync(list, JSON.stringify(paths));
  const script = `
    const autocannon = require('autocannon');
    const paths = JSON.parse(require('node:fs').readFileSync(${JSON.stringify(list)}, 'utf8'));
    let i = 0;
    autocannon({ url: ${JSON.stringify(url)}, connections: ${connections}, duration: ${seconds}, headers: ${JSON.stringify(headers)},
      requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: paths[i++ % paths.length] }) }] },
      (err, r) => {
        if (err) { console.error(err); process.exit(1); }
        process.stdout.write(JSON.stringify({ rps: r.requests.average, p50Ms: r.latency.p50, p99Ms: r.latency.p99,
          requests: r.requests.total, bytesPerResponse: null, non2xx: r.non2xx }));
      });`;
  const { command, args } = pinned(1, process.execPath, ['-e', script]);
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) => {
      rmSync(dir, { recursive: true, force: true });
      if (code === 0) done(JSON.parse(out) as RawLoad);
      else fail(new Error(`autocannon exited ${code}`));
    });
  });
}

/**
 * Different questions about the site, in a fixed shuffled order: each section heading as such and
 * in three question forms, and runs of 4–7 consecutive words from every passage (what a reader
 * remembers of a page). Distinct after the service's own normalisation, ignoring case; only
 * questions with words to search for (others get a cheap elicitation, not an answer).
 */
export function distinctQuestions(site: Site): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  const add = (text: string): void => {
    const query = normaliseQuery(text);
    const key = query.toLowerCase();
    if (query.length === 0 || query.length > 200 || seen.has(key) || analyzeQuery(query).length === 0) return;
    seen.add(key);
    out.push(query);
  };
  for (const page of site.pages) {
    for (const passage of page.passages) {
      const heading = passage.headingPath.at(-1) ?? page.title;
      add(heading);
      add(`what is ${heading}`);
      add(`tell me about ${heading.toLowerCase()}`);
      add(`${page.title} ${heading.toLowerCase()}`);
      const words = passage.text
        .split(/\s+/)
        .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
        .filter((w) => /\p{L}/u.test(w));
      for (let length = 4; length <= 7; length++) {
        for (let start = 0; start + length <= words.length; start += 3)
          add(words.slice(start, start + length).join(' '));
      }
    }
  }
  const rand = seededRandom(20240611);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j] as string, out[i] as string];
  }
  return out;
}

/**
 * One load against `url` with wrk (installed when possible) or autocannon, the load generator
 * pinned to core 1; `headers` go with every request.
 */
export function loadHttp(
  url: string,
  paths: string[],
  seconds: number,
  connections: number,
  headers: Record<string, string> = {},
): Promise<RawLoad> {
  return (useWrk() ? loadWithWrk : loadWithAutocannon)(url, paths, seconds, connections, headers);
}

export const askPath = (query: string): string => `/ask?query=${encodeURIComponent(query)}`;

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

function series(rounds: LoadRun[]): LoadSeries {
  const sizes = rounds.map((r) => r.bytesPerResponse).filter((b): b is number => b !== null);
  const cpus = rounds.map((r) => r.cpuUsPerRequest);
  return {
    rps: Math.round(median(rounds.map((r) => r.rps))),
    p50Ms: median(rounds.map((r) => r.p50Ms)),
    p99Ms: median(rounds.map((r) => r.p99Ms)),
    requests: rounds.reduce((sum, r) => sum + r.requests, 0),
    bytesPerResponse: sizes.length > 0 ? Math.round(median(sizes)) : null,
    cpuUsPerRequest: cpus.every((c) => c !== null) ? Math.round(median(cpus) * 100) / 100 : null,
    rounds,
  };
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

function ratioSeries(rounds: LoadRun[], hello: readonly LoadRun[], distinctQueries: number): RatioSeries {
  const ratios = rounds.map((r, i) => r.rps / (hello[i] as LoadRun).rps);
  const cpuRatios = rounds.map((r, i) => {
    const helloCpu = (hello[i] as LoadRun).cpuUsPerRequest;
    return r.cpuUsPerRequest && helloCpu ? helloCpu / r.cpuUsPerRequest : null;
  });
  const known = <T>(values: (T | null)[]): values is T[] => values.every((v) => v !== null);
  return {
    ...series(rounds),
    ratio: round3(median(ratios)),
    ratioMin: round3(Math.min(...ratios)),
    ratioMax: round3(Math.max(...ratios)),
    cpuRatio: known(cpuRatios) ? round3(median(cpuRatios)) : null,
    distinctQueries,
  };
}

/**
 * The servers run side by side (pinned to core 0; an idle one costs nothing). In every round each
 * load — the answer bytes, /healthz, popular /ask, distinct /ask, popular /ask on the logging
 * server — runs between two hello worlds,
 * and its ratio is taken against their geometric mean: the shared machine's speed drifts over
 * seconds, so only neighbouring loads see the same machine. The summary is the median over rounds.
 */
export async function runHttpBench(
  secondsPerLoad = 2,
  rounds = 5,
  connections = 32,
): Promise<HttpBenchResult> {
  const wrk = useWrk();
  const { site } = await loadSite(BUNDLED_CONTENT_DIR);
  const questions = distinctQuestions(site);
  // A disjoint tail warms the server up; each round then gets its own slice of the rest, so the
  // measured requests start with no answer of theirs in the cache and never repeat a question.
  const warmUpCount = Math.min(2000, Math.floor(questions.length / 4));
  const warmUp = questions.slice(questions.length - warmUpCount);
  const measured = questions.slice(0, questions.length - warmUpCount);
  const sliceSize = Math.floor(measured.length / rounds);
  if (sliceSize <= DEFAULT_ANSWER_CACHE_SIZE * 4)
    throw new Error(`only ${measured.length} distinct questions: too few to bypass the answer cache`);

  const [askPort, helloPort, answerPort, loggedPort, askOffPort, docsPort] = (await freePorts(6)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  // The docs corpus as one site, for never-asked questions on a large site (when ../shared is there).
  const docsDir = path.join(sharedDataDir(), 'docs-corpus');
  const docsSite = existsSync(docsDir) ? (await loadSite(docsDir)).site : null;
  const docsQuestions = docsSite ? distinctQuestions(docsSite) : [];
  const docsWarmUp = docsQuestions.slice(
    docsQuestions.length - Math.min(2000, Math.floor(docsQuestions.length / 4)),
  );
  const docsSliceSize = Math.floor((docsQuestions.length - docsWarmUp.length) / rounds);
  const bareServers: ChildProcess[] = [];
  /** Each server's process, by its base URL: its CPU time is read around every load. */
  const pidOfBase = new Map<string, number | undefined>();
  /** A bare node:http server (pinned to core 0 like the app) running `script`; resolves to its base URL. */
  const startBare = async (
    script: string,
    port: number,
    isExpected: (body: string) => boolean,
    env: Record<string, string> = {},
  ): Promise<string> => {
    const { command, args } = pinned(0, process.execPath, ['-e', script]);
    const child = spawn(command, args, {
      env: { ...process.env, ...env, PORT: String(port) },
      stdio: 'ignore',
    });
    bareServers.push(child);
    const base = `http://127.0.0.1:${port}`;
    pidOfBase.set(base, child.pid);
    await waitForHttp(`${base}/`, () => child.exitCode === null, isExpected);
    return base;
  };
  const listen = `.listen(Number(process.env.PORT), '127.0.0.1');`;

  const entry = serverEntry();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fd-bench-http-'));
  const dataDirOff = mkdtempSync(path.join(tmpdir(), 'fd-bench-http-off-'));
  // LOG_LEVEL=warn: at info, Fastify logs every request, which measures the log, not /ask.
  const askServer = spawnServer(
    entry,
    {
      PORT: String(askPort),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      CONTENT_DIR: '',
      INSIGHT: 'on',
    },
    { core: 0, stdout: 'ignore' },
  );
  const askOffServer = spawnServer(
    entry,
    {
      PORT: String(askOffPort),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDirOff,
      CONTENT_DIR: '',
      INSIGHT: 'off',
    },
    { core: 0, stdout: 'ignore' },
  );
  // The same app at the default LOG_LEVEL=info: one line per request, into a file as a log
  // collector's file would receive it.
  const logFile = path.join(dataDir, 'requests.log');
  const logFd = openSync(logFile, 'w');
  const loggedServer = spawnServer(
    entry,
    {
      PORT: String(loggedPort),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DATA_DIR: path.join(dataDir, 'logged'),
      CONTENT_DIR: '',
    },
    { core: 0, stdout: logFd },
  );
  closeSync(logFd);
  const docsServer = docsSite
    ? spawnServer(
        entry,
        {
          PORT: String(docsPort),
          HOST: '127.0.0.1',
          LOG_LEVEL: 'info',
          DATA_DIR: path.join(dataDir, 'docs'),
          CONTENT_DIR: docsDir,
          CONTENT_WATCH: 'off',
        },
        { core: 0, stdout: 'ignore' },
      )
    : null;
  const run = wrk ? loadWithWrk : loadWithAutocannon;
  const measure = async (name: string, base: string, paths: string[], seconds: number): Promise<LoadRun> => {
    const pid = pidOfBase.get(base);
    const cpuBefore = cpuSecondsOf(pid);
    const { non2xx, ...load } = await run(base, paths, seconds, connections);
    const cpuAfter = cpuSecondsOf(pid);
    const result: LoadRun = {
      ...load,
      cpuUsPerRequest:
        cpuBefore !== null && cpuAfter !== null && load.requests > 0
          ? ((cpuAfter - cpuBefore) * 1e6) / load.requests
          : null,
    };
    if (non2xx > 0) throw new Error(`${name}: ${non2xx} non-2xx answers`);
    if (askServer.exitCode !== null) throw new Error(`the frontdoor server exited during ${name}`);
    if (loggedServer.exitCode !== null) throw new Error(`the logging frontdoor server exited during ${name}`);
    if (askOffServer.exitCode !== null)
      throw new Error(`the INSIGHT=off frontdoor server exited during ${name}`);
    if (docsServer && docsServer.exitCode !== null)
      throw new Error(`the docs-corpus frontdoor server exited during ${name}`);
    return result;
  };
  const askBase = `http://127.0.0.1:${askPort}`;
  const loggedBase = `http://127.0.0.1:${loggedPort}`;
  const askOffBase = `http://127.0.0.1:${askOffPort}`;
  const docsBase = `http://127.0.0.1:${docsPort}`;
  pidOfBase.set(askBase, askServer.pid);
  pidOfBase.set(loggedBase, loggedServer.pid);
  pidOfBase.set(askOffBase, askOffServer.pid);
  if (docsServer) pidOfBase.set(docsBase, docsServer.pid);
  const popularPaths = POPULAR_QUERIES.map(askPath);
  /** Every hello-world run in order; a hello world runs before each load and once at the end. */
  const hellos: LoadRun[] = [];
  /** Per load, the index in `hellos` of the run just before each of its runs. */
  const helloBefore = {
    answerString: [] as number[],
    answerBuffer: [] as number[],
    answerSerialised: [] as number[],
    healthz: [] as number[],
    popular: [] as number[],
    distinct: [] as number[],
    popularOff: [] as number[],
    distinctOff: [] as number[],
    popularLogged: [] as number[],
    distinctLogged: [] as number[],
    docsDistinct: [] as number[],
  };
  const distinctLoggedRuns: LoadRun[] = [];
  const docsDistinctRuns: LoadRun[] = [];
  const popularLoggedRuns: LoadRun[] = [];
  /** Log bytes written and requests answered by the logging server during the measured runs. */
  let loggedBytes = 0;
  let loggedRequests = 0;
  const answerStringRuns: LoadRun[] = [];
  const answerBufferRuns: LoadRun[] = [];
  const answerSerialisedRuns: LoadRun[] = [];
  const healthRuns: LoadRun[] = [];
  const popularRuns: LoadRun[] = [];
  const distinctRuns: LoadRun[] = [];
  const popularOffRuns: LoadRun[] = [];
  const distinctOffRuns: LoadRun[] = [];
  const scratch = mkdtempSync(path.join(tmpdir(), 'fd-bench-answer-'));
  try {
    const helloBase = await startBare(
      `require('node:http').createServer((q, s) => { s.writeHead(200, {'content-type': 'text/plain'}); ` +
        `s.end('hello world'); })${listen}`,
      helloPort,
      (body) => body === 'hello world',
    );
    await waitForHttp(
      `${askBase}/healthz`,
      () => askServer.exitCode === null,
      (body) => body === '{"status":"ok"}',
    );
    await waitForHttp(
      `${loggedBase}/healthz`,
      () => loggedServer.exitCode === null,
      (body) => body === '{"status":"ok"}',
    );
    await waitForHttp(
      `${askOffBase}/healthz`,
      () => askOffServer.exitCode === null,
      (body) => body === '{"status":"ok"}',
    );
    if (docsServer)
      await waitForHttp(
        `${docsBase}/healthz`,
        () => docsServer.exitCode === null,
        (body) => body === '{"status":"ok"}',
      );
    // The bytes of a real answer, served by bare node:http: what sending it costs without the app.
    const answer = await (await fetch(`${askBase}${popularPaths[0] as string}`)).text();
    if (!answer.includes('"version":"0.55"')) throw new Error(`not an NLWeb answer: ${answer.slice(0, 80)}`);
    const answerFile = path.join(scratch, 'answer.json');
    writeFileSync(answerFile, answer);
    const answerBase = await startBare(
      `const text = require('node:fs').readFileSync(process.env.ANSWER_FILE, 'utf8'); ` +
        `const bytes = Buffer.from(text, 'utf8'); const value = JSON.parse(text); ` +
        `require('node:http').createServer((q, s) => { s.writeHead(200, {'content-type': 'application/json; charset=utf-8'}); ` +
        `s.end(q.url === '/buffer' ? bytes : q.url === '/serialise' ? JSON.stringify(value) : text); })${listen}`,
      answerPort,
      (body) => body === answer,
      { ANSWER_FILE: answerFile },
    );
    // Warm-up (JIT, connections, the popular answers into the cache).
    await measure('hello world warm-up', helloBase, ['/'], 2);
    await measure('answer warm-up', answerBase, ['/', '/buffer', '/serialise'], 1);
    await measure('/healthz warm-up', askBase, ['/healthz'], 1);
    await measure('/ask popular warm-up', askBase, popularPaths, 1);
    await measure('/ask distinct warm-up', askBase, warmUp.map(askPath), 2);
    await measure('/ask popular warm-up, insight off', askOffBase, popularPaths, 1);
    await measure('/ask distinct warm-up, insight off', askOffBase, warmUp.map(askPath), 2);
    await measure('/ask popular, logged, warm-up', loggedBase, popularPaths, 1);
    // The logging server serves every request the other one serves (unmeasured when it is not the
    // comparison), so the two compare with the same caches and heap behind them.
    await measure('/ask distinct warm-up, logged', loggedBase, warmUp.map(askPath), 2);
    if (docsServer) await measure('/ask distinct warm-up, docs corpus', docsBase, docsWarmUp.map(askPath), 2);
    // Every load right after its own hello world: the machine's speed drifts over seconds, and a
    // ratio should compare two loads that saw the same machine.
    const paired = async (name: keyof typeof helloBefore, runs: LoadRun[], base: string, paths: string[]) => {
      helloBefore[name].push(hellos.length);
      hellos.push(await measure('hello world', helloBase, ['/'], secondsPerLoad));
      runs.push(await measure(name, base, paths, secondsPerLoad));
    };
    for (let r = 0; r < rounds; r++) {
      await paired('answerString', answerStringRuns, answerBase, ['/']);
      await paired('answerBuffer', answerBufferRuns, answerBase, ['/buffer']);
      await paired('answerSerialised', answerSerialisedRuns, answerBase, ['/serialise']);
      await paired('healthz', healthRuns, askBase, ['/healthz']);
      await paired('popular', popularRuns, askBase, popularPaths);
      // Logging on vs off: the same load on the two servers, one right after the other.
      const logSizeBefore = statSync(logFile).size;
      await paired('popularLogged', popularLoggedRuns, loggedBase, popularPaths);
      loggedBytes += statSync(logFile).size - logSizeBefore;
      loggedRequests += popularLoggedRuns.at(-1)!.requests;
      // Insight on vs off: the INSIGHT=off server gets the same loads, each after its own hello world.
      await paired('popularOff', popularOffRuns, askOffBase, popularPaths);
      const slice = measured.slice(r * sliceSize, (r + 1) * sliceSize).map(askPath);
      await paired('distinct', distinctRuns, askBase, slice);
      // The same never-asked questions at the default LOG_LEVEL=info (new to this server too).
      await paired('distinctLogged', distinctLoggedRuns, loggedBase, slice);
      if (docsServer)
        await paired(
          'docsDistinct',
          docsDistinctRuns,
          docsBase,
          docsQuestions.slice(r * docsSliceSize, (r + 1) * docsSliceSize).map(askPath),
        );
      // The same questions for the INSIGHT=off server (it has its own cache, so they are new to it).
      await paired('distinctOff', distinctOffRuns, askOffBase, slice);
    }
    hellos.push(await measure('hello world', helloBase, ['/'], secondsPerLoad));
  } finally {
    for (const child of bareServers) await stopServer(child);
    await stopServer(askServer);
    await stopServer(askOffServer);
    await stopServer(loggedServer);
    if (docsServer) await stopServer(docsServer);
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(dataDirOff, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  }
  // Each load against the hello worlds on both sides of it (geometric mean): a drift that is
  // steady over the few seconds cancels out.
  const reference = (name: keyof typeof helloBefore): LoadRun[] =>
    helloBefore[name].map((i) => {
      const before = hellos[i] as LoadRun;
      const after = hellos[i + 1] as LoadRun;
      const cpu =
        before.cpuUsPerRequest !== null && after.cpuUsPerRequest !== null
          ? Math.sqrt(before.cpuUsPerRequest * after.cpuUsPerRequest)
          : null;
      return { ...before, rps: Math.sqrt(before.rps * after.rps), cpuUsPerRequest: cpu };
    });
  const distinct = ratioSeries(
    distinctRuns,
    reference('distinct'),
    Math.min(measured.length, sliceSize * rounds),
  );
  const popular = ratioSeries(popularRuns, reference('popular'), POPULAR_QUERIES.length);
  const popularOff = ratioSeries(popularOffRuns, reference('popularOff'), POPULAR_QUERIES.length);
  const distinctOff = ratioSeries(
    distinctOffRuns,
    reference('distinctOff'),
    Math.min(measured.length, sliceSize * rounds),
  );
  const popularLogged = ratioSeries(popularLoggedRuns, reference('popularLogged'), POPULAR_QUERIES.length);
  const distinctLogged = ratioSeries(
    distinctLoggedRuns,
    reference('distinctLogged'),
    Math.min(measured.length, sliceSize * rounds),
  );
  return {
    loadGenerator: wrk ? 'wrk' : 'autocannon',
    pinnedToSeparateCores: canPin(),
    server: { runner: entry.runner, reason: entry.reason, site: 'bundled sample site (content/)' },
    secondsPerLoad,
    rounds,
    connections,
    answerCacheSize: DEFAULT_ANSWER_CACHE_SIZE,
    helloWorld: series(hellos),
    answerString: ratioSeries(answerStringRuns, reference('answerString'), 1),
    answerBuffer: ratioSeries(answerBufferRuns, reference('answerBuffer'), 1),
    answerSerialised: ratioSeries(answerSerialisedRuns, reference('answerSerialised'), 1),
    healthz: ratioSeries(healthRuns, reference('healthz'), 1),
    askPopular: { ...popular, queries: POPULAR_QUERIES },
    askDistinct: {
      ...distinct,
      warmUpQueries: warmUp.length,
      everyRequestNew: [...distinctRuns, ...distinctOffRuns].every((d) => d.requests <= sliceSize),
      sample: measured.slice(0, 8),
    },
    askPopularInsightOff: popularOff,
    askDistinctInsightOff: distinctOff,
    insightCost: {
      popular: round3(popular.ratio / popularOff.ratio),
      distinct: round3(distinct.ratio / distinctOff.ratio),
    },
    askPopularLogged: {
      ...popularLogged,
      logLevel: 'info',
      // The file may lag the last requests by the logger's buffer: a lower bound per request.
      logBytesPerRequest: loggedRequests > 0 ? Math.round(loggedBytes / loggedRequests) : 0,
      // Both against their own hello worlds, so the machine's drift between the two runs cancels.
      loggingCost: round3(1 - popularLogged.ratio / popular.ratio),
    },
    askDistinctLogged: distinctLogged,
    askDistinctDocs: docsServer
      ? {
          ...ratioSeries(docsDistinctRuns, reference('docsDistinct'), docsSliceSize * rounds),
          pages: docsSite!.pages.length,
          sample: docsQuestions.slice(0, 8),
        }
      : null,
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runHttpBench().then(
    (result) => console.log(JSON.stringify(result, null, 2)),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
