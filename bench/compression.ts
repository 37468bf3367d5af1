/**
 * Part 7 of `npm run bench`: bytes on the wire with and without compression, and /ask throughput
 * against the ceilings measured in the same run (issue 35):
 * - popular questions ÷ a bare node:http server sending the same answer bytes (target ≥ 0.7);
 * - never-asked questions ÷ a bare node:http server that serialises and sends the same kind of
 *   answer objects (answers to other questions of the same site), per request: sample site ≥ 0.4,
 *   docs corpus ≥ 0.25;
 * - never-asked questions with `Accept-Encoding: gzip, deflate, br` (a browser's) ÷ the same
 *   without (≥ 0.8).
 * Every server runs `frontdoor serve` at its default LOG_LEVEL (info, one line per request, into a
 * file), pinned to core 0; wrk runs on core 1. Each frontdoor load runs right after its ceiling,
 * and a ratio is taken within a round.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { BUNDLED_CONTENT_DIR } from '../src/config/index.js';
import { loadSite } from '../src/content/index.js';
import {
  askPath,
  cpuSecondsOf,
  distinctQuestions,
  freePorts,
  loadHttp,
  POPULAR_QUERIES,
  waitForHttp,
  type LoadRun,
} from './http.js';
import { sharedDataDir } from './paths.js';
import { canPin, pinned, serverEntry, spawnServer, stopServer } from './server.js';

export const COMPRESSION_TARGETS = {
  /** Identity bytes ÷ brotli bytes, per answer and per page. */
  brotliFewerBytes: 4,
  popularOfBareBytes: 0.7,
  neverAskedOfBareSerialise: 0.4,
  neverAskedDocsOfBareSerialise: 0.25,
  compressedOfIdentity: 0.8,
} as const;

/** Mean body bytes of one kind of response in each coding. */
export interface ByteSizes {
  count: number;
  identity: number;
  br: number;
  gzip: number;
  /** identity ÷ br. */
  brFewer: number;
  /** identity ÷ gzip. */
  gzipFewer: number;
}

export interface ThroughputRatio {
  /** Median over rounds of frontdoor's rps ÷ the ceiling's (or the identity run's) in that round. */
  ratio: number;
  ratioMin: number;
  ratioMax: number;
  /** Median rps of the frontdoor load and of its ceiling. */
  rps: number;
  ceilingRps: number;
  /** Median server CPU µs per request, frontdoor and ceiling. */
  cpuUs: number | null;
  ceilingCpuUs: number | null;
  /** Mean bytes per response (headers included) wrk saw for the frontdoor load. */
  bytesPerResponse: number | null;
}

export interface CompressionBenchResult {
  loadGenerator: string;
  pinnedToSeparateCores: boolean;
  secondsPerLoad: number;
  rounds: number;
  connections: number;
  bytes: {
    /** Never-asked answers: brotli and gzip at the `fresh` levels. */
    neverAskedAnswers: ByteSizes;
    /** Popular answers: gzip spliced from the kept deflate, brotli at the `fresh` level. */
    popularAnswers: ByteSizes;
    /** Pages (HTML) from their kept variants. */
    pages: ByteSizes;
  };
  popular: ThroughputRatio;
  neverAsked: ThroughputRatio;
  neverAskedDocs: (ThroughputRatio & { pages: number }) | null;
  /** Never-asked with Accept-Encoding: gzip, deflate, br ÷ the same without, sample site. */
  neverAskedCompressed: ThroughputRatio;
}

const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br';

/** GET `path` with an Accept-Encoding; the body as sent and decoded. */
function fetchCoded(
  base: string,
  pathAndQuery: string,
  acceptEncoding: string,
): Promise<{ sent: Buffer; decoded: Buffer; coding: string | undefined; etag: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${base}${pathAndQuery}`,
      { headers: { 'accept-encoding': acceptEncoding } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const sent = Buffer.concat(chunks);
          const coding = res.headers['content-encoding'];
          if (res.statusCode !== 200) return reject(new Error(`${pathAndQuery} answered ${res.statusCode}`));
          const decoded =
            coding === 'br' ? brotliDecompressSync(sent) : coding === 'gzip' ? gunzipSync(sent) : sent;
          resolve({ sent, decoded, coding, etag: res.headers.etag });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * A kept page's variant: its variants are made on the server's thread pool after the request
 * that keeps it, so the page is asked again until its tag is the strong one (at most ~2 s).
 */
async function keptVariant(base: string, url: string, coding: 'br' | 'gzip') {
  for (let attempt = 0; ; attempt++) {
    const response = await fetchCoded(base, url, coding);
    if (!response.etag?.startsWith('W/') || attempt === 100) return response;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const mean = (values: readonly number[]): number =>
  values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const round3 = (x: number): number => Math.round(x * 1000) / 1000;

/** Each coded size beside the identity size of the same response. */
interface Pairs {
  br: [number, number][];
  gzip: [number, number][];
}

/** `count`: the responses measured (a page or popular answer is measured in both codings). */
function sizes({ br, gzip }: Pairs, count: number): ByteSizes {
  const sum = (pairs: [number, number][], at: 0 | 1) => pairs.reduce((total, pair) => total + pair[at], 0);
  return {
    count,
    identity: Math.round(mean([...br, ...gzip].map(([identity]) => identity))),
    br: Math.round(mean(br.map(([, coded]) => coded))),
    gzip: Math.round(mean(gzip.map(([, coded]) => coded))),
    brFewer: round3(sum(br, 0) / sum(br, 1)),
    gzipFewer: round3(sum(gzip, 0) / sum(gzip, 1)),
  };
}

function ratioOf(runs: LoadRun[], ceilings: LoadRun[]): ThroughputRatio {
  const ratios = runs.map((run, i) => run.rps / ceilings[i]!.rps);
  const cpu = (list: LoadRun[]) =>
    list.every((r) => r.cpuUsPerRequest !== null)
      ? round3(median(list.map((r) => r.cpuUsPerRequest!)))
      : null;
  return {
    ratio: round3(median(ratios)),
    ratioMin: round3(Math.min(...ratios)),
    ratioMax: round3(Math.max(...ratios)),
    rps: Math.round(median(runs.map((r) => r.rps))),
    ceilingRps: Math.round(median(ceilings.map((r) => r.rps))),
    cpuUs: cpu(runs),
    ceilingCpuUs: cpu(ceilings),
    bytesPerResponse: runs[0]?.bytesPerResponse ?? null,
  };
}

/**
 * A bare node:http server on core 0: `popular` sends the answer bytes kept for its path;
 * `serialise` holds answer objects and sends JSON.stringify of the next one per request.
 */
const BARE_SERVER = `
const fs = require('node:fs');
const answers = JSON.parse(fs.readFileSync(process.env.ANSWERS_FILE, 'utf8'));
const byPath = new Map(Object.entries(answers.popular).map(([p, text]) => [p, Buffer.from(text, 'utf8')]));
const objects = answers.objects;
let next = 0;
const headers = { 'content-type': 'application/json; charset=utf-8' };
require('node:http').createServer((q, s) => {
  if (q.url === '/') { s.writeHead(200, headers); return s.end('{"ok":true}'); }
  const kept = byPath.get(q.url);
  s.writeHead(200, headers);
  s.end(kept ?? JSON.stringify(objects[next++ % objects.length]));
}).listen(Number(process.env.PORT), '127.0.0.1');
`;

export async function runCompressionBench(
  secondsPerLoad = 2,
  rounds = 2,
  connections = 32,
): Promise<CompressionBenchResult> {
  const { site } = await loadSite(BUNDLED_CONTENT_DIR);
  const questions = distinctQuestions(site);
  const docsDir = path.join(sharedDataDir(), 'docs-corpus');
  const docsSite = existsSync(docsDir) ? (await loadSite(docsDir)).site : null;
  const docsQuestions = docsSite ? distinctQuestions(docsSite) : [];
  // The last 300 questions: byte counts and the ceilings' answer objects; the rest, in slices,
  // the measured never-asked loads (each slice used once, so every request is a new question).
  const sampleCount = 300;
  const sample = questions.slice(-sampleCount);
  const measured = questions.slice(0, -sampleCount);
  const slice = Math.floor(measured.length / (2 * rounds + 1));
  const docsSample = docsQuestions.slice(-sampleCount);
  const docsMeasured = docsQuestions.slice(0, -sampleCount);
  const docsSlice = Math.floor(docsMeasured.length / (rounds + 1));

  const [samplePort, docsPort, barePort, docsBarePort] = (await freePorts(4)) as [
    number,
    number,
    number,
    number,
  ];
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fd-bench-compression-'));
  const entry = serverEntry();
  const logFd = openSync(path.join(dataDir, 'requests.log'), 'w');
  const start = (port: number, contentDir: string, name: string) =>
    spawnServer(
      entry,
      {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: path.join(dataDir, name),
        CONTENT_DIR: contentDir,
        CONTENT_WATCH: 'off',
      },
      { core: 0, stdout: logFd },
    );
  const servers: ChildProcess[] = [start(samplePort, '', 'sample')];
  const docsServer = docsSite ? start(docsPort, docsDir, 'docs') : null;
  if (docsServer) servers.push(docsServer);
  closeSync(logFd);
  const sampleBase = `http://127.0.0.1:${samplePort}`;
  const docsBase = `http://127.0.0.1:${docsPort}`;
  const pidOf = new Map<string, number | undefined>([
    [sampleBase, servers[0]!.pid],
    [docsBase, docsServer?.pid],
  ]);
  const measure = async (base: string, paths: string[], headers: Record<string, string> = {}) => {
    const pid = pidOf.get(base);
    const before = cpuSecondsOf(pid);
    const { non2xx, ...load } = await loadHttp(base, paths, secondsPerLoad, connections, headers);
    const after = cpuSecondsOf(pid);
    if (non2xx > 0) throw new Error(`${base}: ${non2xx} non-2xx answers`);
    for (const server of servers)
      if (server.exitCode !== null) throw new Error('a server exited during the load');
    return {
      ...load,
      cpuUsPerRequest:
        before !== null && after !== null && load.requests > 0
          ? ((after - before) * 1e6) / load.requests
          : null,
    };
  };
  const isHealthy = (body: string) => body === '{"status":"ok"}';
  try {
    await waitForHttp(`${sampleBase}/healthz`, () => servers[0]!.exitCode === null, isHealthy);
    if (docsServer) await waitForHttp(`${docsBase}/healthz`, () => docsServer.exitCode === null, isHealthy);

    // ---- Bytes per answer and per page.
    const half = sampleCount / 2;
    const never: Pairs = { br: [], gzip: [] };
    // First asks: half of the sample in brotli, the other half in gzip; then each in identity.
    for (const [i, question] of sample.entries()) {
      const coding = i < half ? 'br' : 'gzip';
      const coded = await fetchCoded(sampleBase, askPath(question), coding);
      const identity = await fetchCoded(sampleBase, askPath(question), 'identity');
      if (coded.coding !== coding) continue; // a small answer (nothing found) goes out as it is
      never[coding].push([identity.sent.length, coded.sent.length]);
    }
    const popular: Pairs = { br: [], gzip: [] };
    const popularAnswers: Record<string, string> = {};
    for (const question of POPULAR_QUERIES) {
      const identity = await fetchCoded(sampleBase, askPath(question), 'identity');
      popularAnswers[askPath(question)] = identity.sent.toString('utf8');
      const gzip = await fetchCoded(sampleBase, askPath(question), BROWSER_ACCEPT_ENCODING);
      const br = await fetchCoded(sampleBase, askPath(question), 'br');
      popular.gzip.push([identity.sent.length, gzip.sent.length]);
      popular.br.push([identity.sent.length, br.sent.length]);
    }
    const pages: Pairs = { br: [], gzip: [] };
    for (const page of site.pages) {
      const url = encodeURI(page.url);
      const identity = await fetchCoded(sampleBase, url, 'identity');
      await fetchCoded(sampleBase, url, 'identity'); // the second request keeps it, with its variants
      const br = await keptVariant(sampleBase, url, 'br');
      const gzip = await keptVariant(sampleBase, url, 'gzip');
      if (!br.decoded.equals(identity.sent) || !gzip.decoded.equals(identity.sent))
        throw new Error(`${page.url}: a coded page differs from its identity bytes once decoded`);
      pages.br.push([identity.sent.length, br.sent.length]);
      pages.gzip.push([identity.sent.length, gzip.sent.length]);
    }

    // ---- The ceilings: bare node:http with the same answer bytes / answer objects.
    const objectsOf = async (base: string, list: string[]) => {
      const objects: unknown[] = [];
      for (const question of list)
        objects.push(
          JSON.parse((await fetchCoded(base, askPath(question), 'identity')).sent.toString('utf8')),
        );
      return objects;
    };
    const startBare = async (port: number, answers: object) => {
      const file = path.join(dataDir, `answers-${port}.json`);
      writeFileSync(file, JSON.stringify(answers));
      const { command, args } = pinned(0, process.execPath, ['-e', BARE_SERVER]);
      const child = spawn(command, args, {
        env: { ...process.env, PORT: String(port), ANSWERS_FILE: file },
        stdio: 'ignore',
      });
      servers.push(child);
      const base = `http://127.0.0.1:${port}`;
      pidOf.set(base, child.pid);
      await waitForHttp(
        `${base}/`,
        () => child.exitCode === null,
        (body) => body === '{"ok":true}',
      );
      return base;
    };
    const bareBase = await startBare(barePort, {
      popular: popularAnswers,
      objects: await objectsOf(sampleBase, sample),
    });
    const docsBareBase = docsServer
      ? await startBare(docsBarePort, { popular: {}, objects: await objectsOf(docsBase, docsSample) })
      : null;

    // ---- Warm-up, then the rounds.
    const popularPaths = POPULAR_QUERIES.map(askPath);
    const sliceOf = (list: string[], size: number, k: number) =>
      list.slice(k * size, (k + 1) * size).map(askPath);
    await measure(bareBase, popularPaths);
    await measure(bareBase, ['/serialise']);
    await measure(sampleBase, popularPaths);
    await measure(sampleBase, sliceOf(measured, slice, 2 * rounds), {
      'accept-encoding': BROWSER_ACCEPT_ENCODING,
    });
    if (docsServer && docsBareBase) {
      await measure(docsBareBase, ['/serialise']);
      await measure(docsBase, sliceOf(docsMeasured, docsSlice, rounds));
    }
    const runs = {
      bareBytes: [] as LoadRun[],
      popular: [] as LoadRun[],
      bareSerialise: [] as LoadRun[],
      neverAsked: [] as LoadRun[],
      neverAskedCompressed: [] as LoadRun[],
      docsBare: [] as LoadRun[],
      docs: [] as LoadRun[],
    };
    for (let r = 0; r < rounds; r++) {
      runs.bareBytes.push(await measure(bareBase, popularPaths));
      runs.popular.push(await measure(sampleBase, popularPaths));
      runs.bareSerialise.push(await measure(bareBase, ['/serialise']));
      runs.neverAsked.push(await measure(sampleBase, sliceOf(measured, slice, 2 * r)));
      runs.neverAskedCompressed.push(
        await measure(sampleBase, sliceOf(measured, slice, 2 * r + 1), {
          'accept-encoding': BROWSER_ACCEPT_ENCODING,
        }),
      );
      if (docsServer && docsBareBase) {
        runs.docsBare.push(await measure(docsBareBase, ['/serialise']));
        runs.docs.push(await measure(docsBase, sliceOf(docsMeasured, docsSlice, r)));
      }
    }
    return {
      loadGenerator: 'wrk (autocannon when wrk cannot be installed)',
      pinnedToSeparateCores: canPin(),
      secondsPerLoad,
      rounds,
      connections,
      bytes: {
        neverAskedAnswers: sizes(never, never.br.length + never.gzip.length),
        popularAnswers: sizes(popular, popular.br.length),
        pages: sizes(pages, pages.br.length),
      },
      popular: ratioOf(runs.popular, runs.bareBytes),
      neverAsked: ratioOf(runs.neverAsked, runs.bareSerialise),
      neverAskedDocs:
        docsSite && runs.docs.length > 0
          ? { ...ratioOf(runs.docs, runs.docsBare), pages: docsSite.pages.length }
          : null,
      neverAskedCompressed: ratioOf(runs.neverAskedCompressed, runs.neverAsked),
    };
  } finally {
    for (const server of servers) await stopServer(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The part's lines in the summary of targets. */
interface Row {
  target: string;
  measured: string;
  pass: boolean | null;
  note: string;
}

export function compressionTargetRows(result: CompressionBenchResult): Row[] {
  const t = COMPRESSION_TARGETS;
  const { bytes } = result;
  const fewer = (s: ByteSizes) => `br ${s.brFewer.toFixed(1)}×, gzip ${s.gzipFewer.toFixed(1)}×`;
  const ratio = (r: ThroughputRatio) =>
    `${r.ratio.toFixed(2)} (${r.ratioMin.toFixed(2)}–${r.ratioMax.toFixed(2)})`;
  const rps = (r: ThroughputRatio) =>
    `${r.rps.toLocaleString('en-US')} vs ${r.ceilingRps.toLocaleString('en-US')} req/s`;
  const rows: Row[] = [
    {
      target: `Bytes per never-asked answer: brotli ≥ ${t.brotliFewerBytes}× fewer`,
      measured: fewer(bytes.neverAskedAnswers),
      pass: bytes.neverAskedAnswers.brFewer >= t.brotliFewerBytes,
      note: `${bytes.neverAskedAnswers.identity} B → br ${bytes.neverAskedAnswers.br} B, gzip ${bytes.neverAskedAnswers.gzip} B`,
    },
    {
      target: `Bytes per popular answer: brotli ≥ ${t.brotliFewerBytes}× fewer`,
      measured: fewer(bytes.popularAnswers),
      pass: bytes.popularAnswers.brFewer >= t.brotliFewerBytes,
      note: `${bytes.popularAnswers.identity} B → br ${bytes.popularAnswers.br} B, gzip (spliced) ${bytes.popularAnswers.gzip} B`,
    },
    {
      target: `Bytes per page: brotli ≥ ${t.brotliFewerBytes}× fewer`,
      measured: fewer(bytes.pages),
      pass: bytes.pages.brFewer >= t.brotliFewerBytes,
      note: `${bytes.pages.count} pages, ${bytes.pages.identity} B → br ${bytes.pages.br} B, gzip ${bytes.pages.gzip} B`,
    },
    {
      target: `/ask popular ÷ bare node:http sending the same bytes ≥ ${t.popularOfBareBytes}`,
      measured: ratio(result.popular),
      pass: result.popular.ratio >= t.popularOfBareBytes,
      note: rps(result.popular),
    },
    {
      target: `/ask never-asked ÷ bare node:http serialising answers ≥ ${t.neverAskedOfBareSerialise} (sample site)`,
      measured: ratio(result.neverAsked),
      pass: result.neverAsked.ratio >= t.neverAskedOfBareSerialise,
      note: rps(result.neverAsked),
    },
    {
      target: `/ask never-asked with Accept-Encoding ÷ without ≥ ${t.compressedOfIdentity}`,
      measured: ratio(result.neverAskedCompressed),
      pass: result.neverAskedCompressed.ratio >= t.compressedOfIdentity,
      note: rps(result.neverAskedCompressed),
    },
  ];
  const docs = result.neverAskedDocs;
  rows.push(
    docs
      ? {
          target: `/ask never-asked ÷ bare node:http serialising answers ≥ ${t.neverAskedDocsOfBareSerialise} (docs corpus)`,
          measured: ratio(docs),
          pass: docs.ratio >= t.neverAskedDocsOfBareSerialise,
          note: `${docs.pages} pages; ${rps(docs)}`,
        }
      : {
          target: `/ask never-asked ÷ bare serialising ≥ ${t.neverAskedDocsOfBareSerialise} (docs corpus)`,
          measured: 'not run',
          pass: null,
          note: 'the docs corpus is not in FRONTDOOR_SHARED_DATA',
        },
  );
  return rows;
}
