/**
 * GET /ask throughput over HTTP, as a ratio of a bare node:http hello-world server measured in the
 * same run on the same machine. The server runs pinned to core 0 and the load generator to core 1,
 * so the two never compete for a core. The load generator is wrk (C; Debian package `wrk`) when it
 * is installed, because a JavaScript client parsing ~9 KB answers saturates its own core before the
 * server does; otherwise autocannon, and the report says which one ran.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(import.meta.url), '..', '..');

export interface HttpBenchResult {
  loadGenerator: 'wrk' | 'autocannon';
  durationSeconds: number;
  connections: number;
  helloWorldRps: number;
  askRps: number;
  ratio: number;
  askLatencyP50Ms: number;
  askLatencyP99Ms: number;
  queries: string[];
}

const QUERIES = [
  'how do I export a protocol to ICH M11',
  'informed consent form draft',
  'schedule of activities',
  'does it support 21 CFR Part 11',
  'single sign-on',
  'what can a CRO suggest',
  'eligibility criteria library',
  'amendments and version control',
];

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => done(port));
    });
    server.on('error', fail);
  });
}

const pinned = (core: number, command: string, args: string[]) =>
  existsSync('/usr/bin/taskset')
    ? { command: 'taskset', args: ['-c', String(core), command, ...args] }
    : { command, args };

async function waitForHttp(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server at ${url} did not answer`);
}

interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
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

const WRK = hasWrk();

/** wrk parses "50%  1.23ms" style latencies. */
function milliseconds(value: string): number {
  const match = /^([\d.]+)(us|ms|s)$/.exec(value.trim());
  if (!match) return Number.NaN;
  const n = Number(match[1]);
  return match[2] === 'us' ? n / 1000 : match[2] === 's' ? n * 1000 : n;
}

function loadWithWrk(
  url: string,
  paths: string[],
  seconds: number,
  connections: number,
): Promise<LoadResult> {
  const script = join(mkdtempSync(join(tmpdir(), 'fd-wrk-')), 'paths.lua');
  writeFileSync(
    script,
    `local paths = {${paths.map((p) => JSON.stringify(p)).join(', ')}}\nlocal i = 0\n` +
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
      if (code !== 0) return fail(new Error(`wrk exited ${code}`));
      const rps = /Requests\/sec:\s+([\d.]+)/.exec(out);
      const p50 = /\s50%\s+(\S+)/.exec(out);
      const p99 = /\s99%\s+(\S+)/.exec(out);
      const non2xx = /non2xx (\d+)/.exec(out);
      if (!rps || !p50 || !p99) return fail(new Error(`unreadable wrk output:\n${out}`));
      done({
        rps: Number(rps[1]),
        p50: milliseconds(p50[1]!),
        p99: milliseconds(p99[1]!),
        non2xx: Number(non2xx?.[1] ?? 0),
      });
    });
  });
}

function load(url: string, paths: string[], seconds: number, connections: number): Promise<LoadResult> {
  return WRK
    ? loadWithWrk(url, paths, seconds, connections)
    : loadWithAutocannon(url, paths, seconds, connections);
}

/** Runs autocannon in a separate process pinned to core 1 and returns its summary. */
function loadWithAutocannon(
  url: string,
  paths: string[],
  seconds: number,
  connections: number,
): Promise<LoadResult> {
  const script = `
    const autocannon = require('autocannon');
    const paths = ${JSON.stringify(paths)};
    autocannon({ url: ${JSON.stringify(url)}, connections: ${connections}, duration: ${seconds},
      requests: paths.map((path) => ({ method: 'GET', path })) }, (err, r) => {
      if (err) { console.error(err); process.exit(1); }
      process.stdout.write(JSON.stringify({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99,
        non2xx: r.non2xx }));
    });`;
  const { command, args } = pinned(1, process.execPath, ['-e', script]);
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) =>
      code === 0 ? done(JSON.parse(out) as LoadResult) : fail(new Error(`autocannon ${code}`)),
    );
  });
}

async function measure(
  name: string,
  start: (port: number) => ChildProcess,
  readyPath: string,
  paths: string[],
  seconds: number,
  connections: number,
): Promise<LoadResult> {
  const port = await freePort();
  const child = start(port);
  try {
    await waitForHttp(`http://127.0.0.1:${port}${readyPath}`, child);
    await load(`http://127.0.0.1:${port}`, paths, 2, connections); // warm-up (JIT, caches)
    const result = await load(`http://127.0.0.1:${port}`, paths, seconds, connections);
    if (result.non2xx > 0) throw new Error(`${name}: ${result.non2xx} non-2xx answers`);
    return result;
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

export async function runHttpBench(seconds = 8, connections = 32): Promise<HttpBenchResult> {
  const hello = `require('node:http').createServer((q, s) => { s.writeHead(200, {'content-type': 'text/plain'});
    s.end('hello world'); }).listen(Number(process.env.PORT), '127.0.0.1');`;
  const helloResult = await measure(
    'hello world',
    (port) => {
      const { command, args } = pinned(0, process.execPath, ['-e', hello]);
      return spawn(command, args, { env: { ...process.env, PORT: String(port) }, stdio: 'ignore' });
    },
    '/',
    ['/'],
    seconds,
    connections,
  );

  const built = existsSync(resolve(ROOT, 'dist/cli/main.js'));
  const serverArgs = built ? ['dist/cli/main.js', 'serve'] : ['--import', 'tsx', 'src/cli/main.ts', 'serve'];
  const askPaths = QUERIES.map((q) => `/ask?query=${encodeURIComponent(q)}`);
  const askResult = await measure(
    '/ask',
    (port) => {
      const { command, args } = pinned(0, process.execPath, serverArgs);
      return spawn(command, args, {
        cwd: ROOT,
        env: {
          ...process.env,
          PORT: String(port),
          HOST: '127.0.0.1',
          LOG_LEVEL: 'warn',
          DATA_DIR: resolve(ROOT, 'data/bench'),
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
    },
    '/healthz',
    askPaths,
    seconds,
    connections,
  );
  return {
    loadGenerator: WRK ? 'wrk' : 'autocannon',
    durationSeconds: seconds,
    connections,
    helloWorldRps: Math.round(helloResult.rps),
    askRps: Math.round(askResult.rps),
    ratio: Math.round((askResult.rps / helloResult.rps) * 1000) / 1000,
    askLatencyP50Ms: askResult.p50,
    askLatencyP99Ms: askResult.p99,
    queries: QUERIES,
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runHttpBench().then(
    (result) => console.log(JSON.stringify(result, null, 2)),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
