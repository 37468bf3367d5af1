import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/http/app.js';
import { waitFor } from '../../support/net.js';
import { startTestServer, type LogRecord, type TestServer } from '../../support/servers.js';

const SECRET = 'zebra orchid confidential';
const secretQuery = encodeURIComponent(SECRET);

async function traffic(server: TestServer, headers: Record<string, string> = {}) {
  const send = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${server.url}${path}`, {
      ...init,
      headers: { ...headers, ...init.headers },
    });
    await response.text();
    return response;
  };
  return [
    await send(`/ask?query=${secretQuery}`), // the fast path
    await send(`/ask?query=${secretQuery}`, { headers: { accept: 'text/event-stream' } }), // streamed
    await send('/ask', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: { text: SECRET } }),
    }),
    await send(`/docs?q=${secretQuery}`),
  ];
}

/** Lines written while `run` ran: until one request completed line per request it made (its responses, or one). */
async function linesDuring(server: TestServer, run: () => Promise<unknown>): Promise<LogRecord[]> {
  const before = server.logs.length;
  const made = await run();
  const requests = Array.isArray(made) ? made.length : 1;
  // The streamed answer's line is written when the stream has ended, after its response is read.
  await waitFor(
    `${requests} request completed lines`,
    () => server.logs.slice(before).filter((line) => line.msg === 'request completed').length >= requests,
  );
  return server.logs.slice(before);
}

describe('request logs at info', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('write one line per request, without the query text', async () => {
    const lines = await linesDuring(server, () => traffic(server));
    const completed = lines.filter((line) => line.msg === 'request completed');
    expect(completed.map((line) => (line.req as { url: string }).url)).toEqual([
      '/ask',
      '/ask',
      '/ask',
      '/docs',
    ]);
    expect(lines.filter((line) => line.level === 30)).toHaveLength(4);
    expect(JSON.stringify(lines)).not.toMatch(/zebra|orchid|confidential/);
    for (const line of completed) {
      expect(line).toMatchObject({ res: { statusCode: 200 } });
      expect(typeof line.requestId).toBe('string');
      expect(typeof line.responseTime).toBe('number');
    }
  });

  it('ignore an X-Request-Id when no proxy is trusted, and echo the id they use', async () => {
    const responses = await traffic(server, { 'x-request-id': 'client-chosen-id-1234' });
    for (const response of responses) {
      const id = response.headers.get('x-request-id');
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});

describe('request logs at debug', () => {
  it('carry the query text on a separate debug line', async () => {
    const server = await startTestServer({ env: { LOG_LEVEL: 'debug' } });
    try {
      const lines = await linesDuring(server, () => traffic(server));
      const queries = lines.filter((line) => line.msg === 'ask query');
      expect(queries.map((line) => [line.level, line.query])).toEqual([
        [20, SECRET],
        [20, SECRET],
        [20, SECRET],
      ]);
      expect(lines.filter((line) => line.msg === 'request completed')).toHaveLength(4);
    } finally {
      await server.close();
    }
  });
});

describe('X-Request-Id from a trusted proxy', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { TRUST_PROXY_HOPS: '1' } });
  });
  afterAll(() => server.close());

  it('is kept, echoed, logged and used as the answer request_id on both /ask paths', async () => {
    for (const [index, init] of [
      {},
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":{"text":"trial"}}' },
    ].entries()) {
      const id = `nginx-7f3a9c-${index}`;
      const lines = await linesDuring(server, async () => {
        const response = await fetch(`${server.url}/ask${init.method ? '' : '?query=trial'}`, {
          ...init,
          headers: { ...(init as { headers?: Record<string, string> }).headers, 'x-request-id': id },
        });
        expect(response.headers.get('x-request-id')).toBe(id);
        const body = (await response.json()) as { _meta: { request_id: string } };
        expect(body._meta.request_id).toBe(id);
      });
      expect(lines.find((line) => line.msg === 'request completed')?.requestId).toBe(id);
    }
  });

  it('is replaced when it is too short, too long or has other characters', async () => {
    for (const sent of ['short', 'x'.repeat(129), 'has spaces in it', 'line\u00e9break-1234']) {
      const response = await fetch(`${server.url}/ask?query=trial`, { headers: { 'x-request-id': sent } });
      expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});

describe('a route with its own log level', () => {
  it('stays out of the request log (as the health checks do)', async () => {
    const server = await startTestServer();
    try {
      // A second app on the same context, with two probe routes added before it is ready.
      const app = await buildApp(server.context);
      app.get('/quiet-probe', { logLevel: 'silent' }, async () => ({ ok: true }));
      app.get('/loud-probe', async () => ({ ok: true }));
      const before = server.logs.length;
      expect((await app.inject({ method: 'GET', url: '/quiet-probe' })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/loud-probe' })).statusCode).toBe(200);
      const urls = server.logs
        .slice(before)
        .filter((line) => line.msg === 'request completed')
        .map((line) => (line.req as { url: string }).url);
      expect(urls).toEqual(['/loud-probe']);
      await app.close();
    } finally {
      await server.close();
    }
  });
});
