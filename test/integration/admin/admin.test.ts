import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { startServer, type RunningServer } from '../../../src/runtime/server.js';

describe('admin listener', () => {
  let server: RunningServer;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'frontdoor-admin-'));
    const config = loadConfig({ PORT: '0', METRICS_PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    server = await startServer(config, pino({ level: 'silent' }), {
      adminRoutes: [
        async (app) => {
          app.get('/report', async () => ({ report: 'from another folder' }));
        },
      ],
    });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('listens on loopback, on its own port, and serves Prometheus text at /metrics', async () => {
    expect(server.adminUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.adminUrl).not.toBe(server.url);
    const response = await fetch(`${server.adminUrl}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    expect(text).toContain('# TYPE frontdoor_http_request_duration_seconds histogram');
    expect(text).toContain('# TYPE frontdoor_outbox_pending gauge');
  });

  it('serves routes that other folders add through addRoutes', async () => {
    const response = await fetch(`${server.adminUrl}/report`);
    expect(await response.json()).toEqual({ report: 'from another folder' });
  });

  it('keeps metrics and admin routes off the public port', async () => {
    for (const path of ['/metrics', '/report']) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status).toBe(404);
    }
  });
});

describe('admin listener configuration', () => {
  it('is off unless METRICS_PORT is set, and binds loopback by default', () => {
    expect(loadConfig({}).admin).toBeNull();
    expect(loadConfig({ METRICS_PORT: '9464' }).admin).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5' }).admin).toEqual({
      host: '10.0.0.5',
      port: 9464,
    });
  });

  it('refuses the public port and bad values, naming the variable', () => {
    expect(() => loadConfig({ PORT: '3000', METRICS_PORT: '3000' })).toThrow(
      /METRICS_PORT=3000 is the public PORT/,
    );
    expect(() => loadConfig({ METRICS_PORT: 'abc' })).toThrow(/METRICS_PORT="abc" is not valid/);
  });
});
