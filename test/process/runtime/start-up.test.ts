import type { ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { chmodSync, closeSync, mkdirSync, openSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, waitFor } from '../../support/net.js';
import { spawnServe } from '../../support/process.js';
import { contentFolder, tempDir } from '../../support/files.js';
import { ConfigError, listenError } from '../../../src/config/index.js';
import { readContent } from '../../../src/content/index.js';
import { contentSnapshotKey, SNAPSHOT_FILE } from '../../../src/runtime/content-snapshot.js';
import { writeSnapshot } from '../../../src/snapshot/index.js';

const running: ChildProcess[] = [];
const servers: Server[] = [];
afterEach(() => {
  for (const child of running.splice(0)) child.kill('SIGKILL');
  for (const server of servers.splice(0)) server.close();
});

/** The lowest port any user may bind (Linux's net.ipv4.ip_unprivileged_port_start; 1024 elsewhere). */
function lowestUnprivilegedPort(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_unprivileged_port_start', 'utf8').trim());
  } catch {
    return 1024;
  }
}

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

  describe('issue 37, finding 10', () => {
    it('METRICS_PORT is in use', async () => {
      const blocker = createServer();
      servers.push(blocker);
      const port = await freePort();
      await new Promise<void>((done) => blocker.listen(port, '127.0.0.1', done));
      const server = spawnServe({ PORT: '0', METRICS_PORT: String(port) });
      running.push(server.child);
      expect(await server.exit).toBe(78);
      expect(server.stderr()).toContain(
        `METRICS_PORT=${port} is already in use on METRICS_HOST 127.0.0.1: stop the other process or set METRICS_PORT to a free port.`,
      );
      expect(server.stderr()).not.toMatch(/\n\s+at /);
      expectFatalJson(server.stdout(), 78, 'METRICS_PORT');
    });

    it('METRICS_HOST is not an address of this machine', async () => {
      const server = spawnServe({ PORT: '0', METRICS_PORT: '0', METRICS_HOST: '203.0.113.9' });
      running.push(server.child);
      expect(await server.exit).toBe(78);
      expect(server.stderr()).toContain(
        'METRICS_HOST="203.0.113.9" is not an address of this machine: set METRICS_HOST to 127.0.0.1',
      );
      expect(server.stderr()).not.toMatch(/\n\s+at /);
      expectFatalJson(server.stdout(), 78, 'METRICS_HOST');
    });

    it('METRICS_PORT below 1024 without the privilege (EACCES) names the variable', () => {
      // This suite runs as root, which may bind port 81: the mapping is what is tested here.
      const error = listenError(
        Object.assign(new Error('listen EACCES'), { code: 'EACCES' }),
        '127.0.0.1',
        81,
        {
          host: 'METRICS_HOST',
          port: 'METRICS_PORT',
        },
      );
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual([
        'METRICS_PORT=81 needs privileges this process lacks: set METRICS_PORT to 1024 or above.',
      ]);
    });

    /**
     * The real case: `frontdoor serve` as a user without privileges, over a real listen. A suite
     * running as root plays that user (nobody, 65534); one running without privileges is that user.
     * Only a kernel that lets every user bind port 81 (net.ipv4.ip_unprivileged_port_start ≤ 81)
     * leaves nothing to test.
     */
    const rootRuns = process.getuid?.() === 0;
    const nobody = rootRuns ? { uid: 65534, gid: 65534 } : undefined;
    const unprivilegedStart = lowestUnprivilegedPort();
    it.skipIf(unprivilegedStart <= 81)(
      `METRICS_PORT=81 as a user without privileges, over a real listen${rootRuns ? ' (played by nobody, as this suite runs as root)' : ''}`,
      async () => {
        const dataDir = tempDir('fd-unprivileged-');
        // The played user must be able to write its DATA_DIR.
        if (rootRuns) chmodSync(dataDir, 0o777);
        const server = spawnServe({ PORT: '0', METRICS_PORT: '81', DATA_DIR: dataDir }, undefined, nobody);
        running.push(server.child);
        expect(await server.exit, server.output()).toBe(78);
        expect(server.stderr()).toContain(
          'METRICS_PORT=81 needs privileges this process lacks: set METRICS_PORT to 1024 or above.',
        );
        expect(server.stderr()).not.toMatch(/\n\s+at /);
        expectFatalJson(server.stdout(), 78, 'METRICS_PORT');
      },
    );

    const sqliteCases: [string, (file: string) => void, string][] = [
      [
        'of random bytes',
        (file) => writeFileSync(file, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251))),
        'which is not a SQLite database',
      ],
      ['that is a folder', (file) => mkdirSync(file), 'which is not a regular file (a folder, link or pipe)'],
      [
        'that is a FIFO',
        (file) => execFileSync('mkfifo', [file]),
        'which is not a regular file (a folder, link or pipe)',
      ],
    ];
    it.each(sqliteCases)('a frontdoor.sqlite %s', async (_what, make, message) => {
      const dataDir = tempDir('fd-sqlite-');
      const file = join(dataDir, 'frontdoor.sqlite');
      make(file);
      const server = spawnServe({ PORT: '0', DATA_DIR: dataDir });
      running.push(server.child);
      expect(await server.exit).toBe(78);
      expect(server.stderr()).toContain(`DATA_DIR holds "${file}", ${message}: move it out of DATA_DIR`);
      expect(server.stderr()).not.toMatch(/\n\s+at /);
      expectFatalJson(server.stdout(), 78, 'DATA_DIR');
    });

    it(`an unreadable frontdoor.sqlite${rootRuns ? ' (read by nobody, as root may read any file)' : ''}`, async () => {
      const dataDir = tempDir('fd-sqlite-');
      if (rootRuns) chmodSync(dataDir, 0o777);
      const file = join(dataDir, 'frontdoor.sqlite');
      writeFileSync(file, '');
      chmodSync(file, 0o000);
      const server = spawnServe({ PORT: '0', DATA_DIR: dataDir }, undefined, nobody);
      running.push(server.child);
      expect(await server.exit).toBe(78);
      expect(server.stderr()).toContain('which this process cannot read and write (EACCES)');
      expectFatalJson(server.stdout(), 78, 'DATA_DIR');
    });

    it.each([
      ['null', null],
      ['{}', {}],
      ['pages: null', { info: {}, pages: null, problems: [], files: [], index: {}, copies: {} }],
    ])(
      'a snapshot with a valid CRC and the payload %s is discarded and the site rebuilt',
      async (_what, payload) => {
        const contentDir = contentFolder({ 'index.md': '# Home\n\nThe kettle site.\n' });
        const dataDir = tempDir('fd-snapshot-');
        const { hash } = await readContent(contentDir);
        await writeSnapshot(join(dataDir, SNAPSHOT_FILE), contentSnapshotKey(hash), payload);
        const server = spawnServe({ CONTENT_DIR: contentDir, DATA_DIR: dataDir, CONTENT_WATCH: 'off' });
        running.push(server.child);
        const url = await server.url;
        expect(server.stdout()).toContain('content snapshot not used: its payload is not a content snapshot');
        expect(await (await fetch(`${url}/`)).text()).toContain('The kettle site.');
        // The rebuilt snapshot replaces it.
        await waitFor('the rebuilt snapshot', () => server.stdout().includes('content snapshot saved'));
      },
    );

    it('a FIFO at content-snapshot.bin is never opened to wait on: it is discarded and replaced', async () => {
      const contentDir = contentFolder({ 'index.md': '# Home\n\nThe kettle site.\n' });
      const dataDir = tempDir('fd-snapshot-');
      const snapshot = join(dataDir, SNAPSHOT_FILE);
      execFileSync('mkfifo', [snapshot]);
      const server = spawnServe({ CONTENT_DIR: contentDir, DATA_DIR: dataDir, CONTENT_WATCH: 'off' });
      running.push(server.child);
      const url = await server.url;
      expect(server.stdout()).toContain('content snapshot not used: not a regular file');
      expect((await fetch(`${url}/`)).status).toBe(200);
      await waitFor('the rebuilt snapshot', () => server.stdout().includes('content snapshot saved'));
      expect(statSync(snapshot).isFile()).toBe(true);
    });
  });
});
