import { once } from 'node:events';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnServe, type ServeProcess } from '../../support/process.js';

const running: ServeProcess[] = [];
afterEach(() => {
  for (const server of running.splice(0)) server.child.kill('SIGKILL');
});

describe('frontdoor serve (child process)', () => {
  it('serves the embedded defaults and shuts down cleanly on SIGTERM and SIGINT', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const server = spawnServe({});
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

  it('shuts down at once while a connection that never sent a request is open', async () => {
    // What Chrome leaves open ahead of need: Node's close() waited for it, and the shutdown ended
    // in the forced exit (code 1) 15 s later.
    const server = spawnServe({});
    running.push(server);
    const { hostname, port } = new URL(await server.url);
    const silent = connect(Number(port), hostname);
    silent.on('error', () => undefined);
    await once(silent, 'connect');
    const silentClosed = once(silent, 'close');
    // A keep-alive connection that has had its answer is open beside it.
    expect((await fetch(`${await server.url}/healthz`)).status).toBe(200);
    const stopped = Date.now();
    server.child.kill('SIGTERM');
    expect(await server.exit).toBe(0);
    expect(Date.now() - stopped).toBeLessThan(10_000);
    await silentClosed;
  });

  it('refuses to start on bad configuration, naming the variable and the fix', async () => {
    const server = spawnServe({ LEAD_DELIVERY: 'carrier-pigeon', PORT: 'x' });
    running.push(server);
    expect(await server.exit).toBe(78);
    expect(server.output()).toContain('PORT="x" is not valid: set it to a whole number');
    expect(server.output()).toContain(
      'LEAD_DELIVERY="carrier-pigeon" is not valid: use one of log, email-service, crm, none',
    );
  });
});
