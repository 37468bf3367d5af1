import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { defuseControlEscapes, resolveLogFormat } from '../../../src/runtime/log-format.js';
import { REPO_ROOT } from '../../support/files.js';
import { waitFor } from '../../support/net.js';
import { SERVE_ARGS, serveEnv } from '../../support/process.js';

const running: ChildProcess[] = [];

/** Every process below `pid`, deepest first (`ps --ppid`, one level at a time). */
function descendantsOf(pid: number): number[] {
  let listed = '';
  try {
    listed = execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' });
  } catch {
    return []; // ps exits 1 when no process has this parent
  }
  const children = listed
    .split('\n')
    .map((line) => Number(line.trim()))
    .filter((child) => Number.isInteger(child) && child > 0);
  return children.flatMap((child) => [...descendantsOf(child), child]);
}

afterEach(() => {
  // `script` starts the server in a session of its own (the terminal's), so killing script's
  // process group leaves the server running: each process under it is killed by its pid.
  for (const child of running.splice(0)) {
    if (child.pid === undefined || child.exitCode !== null) continue;
    for (const pid of [...descendantsOf(child.pid), child.pid]) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
  }
});

// Colour and cursor sequences, stripped to read what a person sees.
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

/**
 * `frontdoor serve` with its stdout on a pseudo-terminal: util-linux `script` gives the child a
 * terminal and copies what is printed on it to our pipe (`-e`: its exit code is the child's).
 */
function serveOnTerminal(env: Record<string, string>) {
  const command = [process.execPath, ...SERVE_ARGS].join(' ');
  const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], {
    cwd: REPO_ROOT,
    env: serveEnv(env),
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  running.push(child);
  let printed = '';
  child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  const text = () => printed.replace(ANSI, '').replace(/\r/g, '');
  return { child, text, raw: () => printed };
}

async function listeningUrl(text: () => string): Promise<string> {
  const match = await waitFor(
    'the listening line',
    () => /frontdoor listening on (http:\/\/[^\s"]+)/.exec(text()),
    30_000,
  );
  return match[1]!;
}

describe('the console format', () => {
  it('prints readable lines on a terminal: time, level, the message, a request as one phrase', async () => {
    const { text, raw } = serveOnTerminal({});
    const url = await listeningUrl(text);
    await fetch(`${url}/no-such-page`);
    await waitFor('the request line', () => text().includes('GET /no-such-page 404'));
    const lines = text()
      .split('\n')
      .filter((line) => line.trim() !== '');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(line, line).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] (INFO|WARN|ERROR): \S/);
    expect(text()).toMatch(/INFO: GET \/no-such-page 404 in \d+ ms/);
    // Coloured for the terminal, and no JSON record line.
    expect(raw()).toMatch(ANSI);
    expect(lines.some((line) => line.startsWith('{'))).toBe(false);
  });

  it('keeps JSON on a terminal when LOG_FORMAT=json', async () => {
    const { text } = serveOnTerminal({ LOG_FORMAT: 'json' });
    await listeningUrl(text);
    const lines = text()
      .split('\n')
      .filter((line) => line.trim() !== '');
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ level: expect.any(Number) });
  });

  it('chooses by the terminal when LOG_FORMAT is unset', () => {
    expect(resolveLogFormat('auto', true)).toBe('pretty');
    expect(resolveLogFormat('auto', false)).toBe('json');
    expect(resolveLogFormat('json', true)).toBe('json');
    expect(resolveLogFormat('pretty', false)).toBe('pretty');
  });

  it('never lets a logged value drive the terminal: control characters stay escapes', async () => {
    const line = JSON.stringify({ msg: 'x', userAgent: 'bot\u001b[2J\r\nFAKE\u0007', path: 'a\\u001b' });
    const defused = defuseControlEscapes(line);
    const parsed = JSON.parse(defused) as Record<string, string>;
    expect(parsed.userAgent).toBe('bot\\u001b[2J\\r\\nFAKE\\u0007');
    // An escaped backslash followed by "u001b" is text, not an escape: left as it was.
    expect(parsed.path).toBe('a\\u001b');
    const { logStream } = await import('../../../src/runtime/log-format.js');
    const written: string[] = [];
    const sink = { write: (text: string) => written.push(text) };
    const stream = await logStream('pretty', sink, false);
    stream.write(`${line}\n`);
    // eslint-disable-next-line no-control-regex
    expect(written.join('')).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
  });
});
