import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LIMITS_OFF } from '../support/limits.js';

const ROOT = resolve(import.meta.dirname, '..', '..');

interface ServerProcess {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
  url: Promise<string>;
  exit: Promise<number | null>;
}

/** Starts the real CLI (`frontdoor serve`) as a child process, as an operator would. */
function serve(env: Record<string, string>): ServerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      LOG_LEVEL: 'info',
      ...LIMITS_OFF,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'fd-srv-')),
      ...env,
    },
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const url = new Promise<string>((done, fail) => {
    const onData = () => {
      const match = /frontdoor listening on (http:\/\/[^\s"]+)/.exec(out);
      if (match) {
        child.stdout.off('data', onData);
        done(match[1]!);
      }
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => fail(new Error(`exited ${code} before listening:\n${out}`)));
  });
  url.catch(() => undefined);
  const exit = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return { child, output: () => out, url, exit };
}

const running: ServerProcess[] = [];
afterEach(() => {
  for (const server of running.splice(0)) server.child.kill('SIGKILL');
});

describe('frontdoor serve (child process)', () => {
  it('serves the embedded defaults and shuts down cleanly on SIGTERM and SIGINT', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const server = serve({});
      running.push(server);
      const url = await server.url;
      const home = await fetch(`${url}/`, { headers: { accept: 'text/html' } });
      expect(home.status).toBe(200);
      expect(await home.text()).toContain('<html');
      const health = await fetch(`${url}/healthz`);
      expect(await health.json()).toEqual({ status: 'ok' });
      server.child.kill(signal);
      expect(await server.exit).toBe(0);
      expect(server.output()).toContain('shutting down');
    }
  });

  it('refuses to start on bad configuration, naming the variable and the fix', async () => {
    const server = serve({ LEAD_DELIVERY: 'carrier-pigeon', PORT: 'x' });
    running.push(server);
    expect(await server.exit).toBe(78);
    expect(server.output()).toContain('PORT="x" is not valid: set it to a whole number');
    expect(server.output()).toContain(
      'LEAD_DELIVERY="carrier-pigeon" is not valid: use one of log, email-service, crm, none',
    );
  });
});
