import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { runCheck } from '../../../src/cli/check.js';
import { loadSite } from '../../../src/content/index.js';
import {
  goingLiveWarnings,
  localAddress,
  startServer,
  type RunningServer,
} from '../../../src/runtime/index.js';
import { runCommand } from '../../support/cli.js';
import { contentFolder, REPO_ROOT, tempDir } from '../../support/files.js';
import { freePort } from '../../support/net.js';
import { testConfig } from '../../support/servers.js';

const NORTHBEAM = join(REPO_ROOT, 'test', 'fixtures', 'northbeam');
const running: RunningServer[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.close();
});

const LIVE_ENV = {
  LEAD_DELIVERY: 'crm',
  SUGGESTION_DELIVERY: 'crm',
  CRM_WEBHOOK_URL: 'https://crm.example.com/hooks/frontdoor',
  CRM_WEBHOOK_SECRET: `whsec_${Buffer.from('a secret of thirty-two bytes!!!!').toString('base64')}`,
  PUBLIC_BASE_URL: 'https://www.northbeam.example',
};

describe('the going-live warnings', () => {
  it('say when submissions reach only the log, the public address is local and there is no privacy page', async () => {
    const noPrivacy = contentFolder({ 'index.md': '---\ntitle: Home\ndescription: Home.\n---\n\nHello.\n' });
    const { site } = await loadSite(noPrivacy);
    const warnings = goingLiveWarnings(testConfig({ PUBLIC_BASE_URL: 'http://localhost:3000' }), site);
    expect(warnings).toHaveLength(4);
    expect(warnings[0]).toMatch(/^Demo requests are only written to the server log: no one is e-mailed/);
    expect(warnings[1]).toMatch(/^Suggestions from the site are only written to the server log/);
    expect(warnings[2]).toMatch(/^PUBLIC_BASE_URL is http:\/\/localhost:3000, an address of this computer/);
    expect(warnings[3]).toMatch(/no privacy page: add privacy\.md/);
  });

  it('are silent for a site ready to go live', async () => {
    const { site } = await loadSite(NORTHBEAM);
    expect(goingLiveWarnings(testConfig(LIVE_ENV), site)).toEqual([]);
  });

  it('call private and local addresses local, and public ones not', () => {
    for (const url of [
      'http://127.0.0.1:3000',
      'http://[::1]:8080',
      'http://192.168.1.20',
      'http://intranet',
      'http://site.local',
    ])
      expect(localAddress(url), url).not.toBeNull();
    for (const url of ['https://www.example.com', 'https://203.0.113.9', 'https://northbeam.example/site'])
      expect(localAddress(url), url).toBeNull();
  });
});

describe('frontdoor check --production', () => {
  it('prints the going-live warnings and counts them, and --strict fails on them', async () => {
    const relaxed = await runCommand(runCheck, ['--content', NORTHBEAM, '--production'], {});
    expect(relaxed.code).toBe(0);
    const lines = relaxed.out.trim().split('\n');
    expect(lines.filter((line) => line.startsWith('before going live: warning: '))).toHaveLength(3);
    expect(lines.at(-1)).toMatch(/6 pages loaded, 0 errors, 3 warnings$/);
    const strict = await runCommand(runCheck, ['--content', NORTHBEAM, '--strict'], {
      NODE_ENV: 'production',
    });
    expect(strict.code).toBe(1);
    const ready = await runCommand(runCheck, ['--content', NORTHBEAM, '--production', '--strict'], LIVE_ENV);
    expect(ready.out).not.toContain('before going live');
    expect(ready.code).toBe(0);
  });

  it('without --production or NODE_ENV=production says nothing about going live', async () => {
    const result = await runCommand(runCheck, ['--content', NORTHBEAM], {});
    expect(result.out).not.toContain('before going live');
  });
});

describe('start-up in production', () => {
  async function start(
    env: Record<string, string>,
  ): Promise<{ server: RunningServer; logs: { level: number; msg: string }[] }> {
    const logs: { level: number; msg: string }[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n'))
          if (line.trim() !== '') logs.push(JSON.parse(line) as { level: number; msg: string });
        done();
      },
    });
    const port = await freePort();
    const config = testConfig({
      PORT: String(port),
      DATA_DIR: tempDir('frontdoor-live-'),
      CONTENT_DIR: NORTHBEAM,
      ...env,
    });
    const server = await startServer(config, pino({ level: 'info' }, sink));
    running.push(server);
    return { server, logs };
  }

  it('logs each warning in plain words, and /readyz still answers for what it checks', async () => {
    const { server, logs } = await start({
      NODE_ENV: 'production',
      PUBLIC_BASE_URL: 'http://127.0.0.1:3000',
    });
    const warnings = logs.filter(
      (record) => record.level === 40 && record.msg.startsWith('before going live: '),
    );
    expect(warnings.map((record) => record.msg.slice(0, 60))).toEqual([
      'before going live: Demo requests are only written to the ser',
      'before going live: Suggestions from the site are only writte',
      'before going live: PUBLIC_BASE_URL is http://127.0.0.1:3000,',
    ]);
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as { status: string }).status).toBe('ready');
  });

  it('logs none outside production', async () => {
    const { logs } = await start({});
    expect(logs.some((record) => record.msg.startsWith('before going live'))).toBe(false);
  });
});
