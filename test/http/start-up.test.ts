import type { ChildProcess } from 'node:child_process';
import { closeSync, openSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, waitFor } from '../support/net.js';
import { spawnServe } from '../support/process.js';
import { tempDir } from '../support/files.js';

const running: ChildProcess[] = [];
const servers: Server[] = [];
afterEach(() => {
  for (const child of running.splice(0)) child.kill('SIGKILL');
  for (const server of servers.splice(0)) server.close();
});

/** Every stdout line is JSON; the fatal one carries the problems and the exit code. */
function expectFatalJson(stdout: string, exitCode: number, mentions: string): void {
  const lines = stdout.split('\n').filter((line) => line.trim() !== '');
  const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  const fatal = records.find((record) => record.level === 60);
  expect(fatal, stdout).toBeDefined();
  expect(fatal!.exitCode).toBe(exitCode);
  expect(JSON.stringify(fatal)).toContain(mentions);
}

describe('start-up failures name the variable and the fix (exit 78, JSON on stdout)', () => {
  it('DATA_DIR is a file', async () => {
    const file = join(tempDir('fd-file-'), 'data');
    writeFileSync(file, 'not a folder');
    const server = spawnServe({ DATA_DIR: file, PORT: '0' });
    running.push(server.child);
    expect(await server.exit).toBe(78);
    expect(server.stderr()).toContain(
      `DATA_DIR="${file}" is a file, not a folder: point DATA_DIR at a folder`,
    );
    expect(server.stderr()).not.toMatch(/\n\s+at /);
    expectFatalJson(server.stdout(), 78, 'DATA_DIR');
  });

  it('DATA_DIR is missing and cannot be created', async () => {
    const file = join(tempDir('fd-file-'), 'data');
    writeFileSync(file, 'not a folder');
    const server = spawnServe({ DATA_DIR: join(file, 'below'), PORT: '0' });
    running.push(server.child);
    expect(await server.exit).toBe(78);
    expect(server.stderr()).toMatch(
      /DATA_DIR=".*below" is below a file \(ENOTDIR\): point DATA_DIR at a folder/,
    );
    expectFatalJson(server.stdout(), 78, 'DATA_DIR');
  });

  it('DATA_DIR is not writable', async () => {
    // /proc/self is a folder nobody may write, root included.
    const server = spawnServe({ DATA_DIR: '/proc/self', PORT: '0' });
    running.push(server.child);
    expect(await server.exit).toBe(78);
    expect(server.stderr()).toMatch(
      /DATA_DIR="\/proc\/self" is not writable \(E[A-Z]+\): point DATA_DIR at a folder/,
    );
    expectFatalJson(server.stdout(), 78, 'DATA_DIR');
  });

  it('the port is in use', async () => {
    const blocker = createServer();
    servers.push(blocker);
    const port = await freePort();
    await new Promise<void>((done) => blocker.listen(port, '127.0.0.1', done));
    const server = spawnServe({ PORT: String(port), HOST: '127.0.0.1' });
    running.push(server.child);
    expect(await server.exit).toBe(78);
    expect(server.stderr()).toContain(
      `PORT=${port} is already in use on HOST 127.0.0.1: stop the other process or set PORT to a free port.`,
    );
    expectFatalJson(server.stdout(), 78, 'PORT');
  });

  it('CRM_WEBHOOK_URL with credentials is refused at start-up', async () => {
    const server = spawnServe({
      PORT: '0',
      LEAD_DELIVERY: 'crm',
      CRM_WEBHOOK_URL: 'https://user:s3cret@crm.example.com/hooks',
      CRM_WEBHOOK_SECRET: `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
    });
    running.push(server.child);
    expect(await server.exit).toBe(78);
    expect(server.stderr()).toContain('CRM_WEBHOOK_URL must not contain a user name or password');
    expect(server.stdout() + server.stderr()).not.toContain('s3cret');
    expectFatalJson(server.stdout(), 78, 'CRM_WEBHOOK_URL');
  });

  it('a configuration error is a JSON line too', async () => {
    const server = spawnServe({ LEAD_DELIVERY: 'carrier-pigeon', PORT: '0' });
    running.push(server.child);
    expect(await server.exit).toBe(78);
    expect(server.stderr()).toContain('LEAD_DELIVERY="carrier-pigeon" is not valid');
    expectFatalJson(server.stdout(), 78, 'LEAD_DELIVERY');
  });
});

describe('a full log disk (stdout on /dev/full, every write ENOSPC)', () => {
  it('keeps serving, does not count an unwritten log line as delivered, and stops on SIGTERM', async () => {
    const port = await freePort();
    const full = openSync('/dev/full', 'w');
    const server = spawnServe(
      {
        PORT: String(port),
        HOST: '127.0.0.1',
        LEAD_DELIVERY: 'log',
        DELIVERY_ATTEMPT_TIMEOUT_MS: '500',
        DELIVERY_INLINE_BUDGET_MS: '1000',
      },
      full,
    );
    closeSync(full);
    running.push(server.child);
    const url = `http://127.0.0.1:${port}`;
    // stdout is /dev/full, so the start-up line cannot tell the address: ask until it answers.
    const health = await waitFor(
      'the server to answer',
      () => fetch(`${url}/healthz`).catch(() => null),
      20_000,
    );
    expect(health.status, server.stderr()).toBe(200);

    const lead = await fetch(`${url}/api/leads`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Dana Reyes', email: 'dana@example.com' }),
    });
    expect(lead.status).toBe(200);
    // Stored (2xx), but the log line never left the process: not delivered.
    expect(await lead.json()).toEqual({ ok: true, provider: 'log', delivered: false });

    for (let i = 0; i < 20; i += 1) expect((await fetch(`${url}/healthz`)).status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exit).toBe(0);
  });
});
