import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SUBMISSION_RETRY_AFTER_SECONDS } from '../../../src/contract/index.js';
import { post } from '../../support/client.js';
import { startTestServer, type TestServer } from '../../support/servers.js';

const lead = {
  name: 'Dana Reyes',
  email: 'dana@sponsor.example',
  companyType: 'sponsor',
  persona: 'medical-writing',
};

async function get(url: string) {
  const response = await fetch(url);
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    cacheControl: response.headers.get('cache-control'),
    body: (await response.json()) as Record<string, unknown>,
  };
}

describe('/healthz and /readyz', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('say alive and ready while the store answers, as /openapi.json documents, without a request log line', async () => {
    const contract = await server.contract();
    const health = await get(`${server.url}/healthz`);
    expect(health).toMatchObject({ status: 200, cacheControl: 'no-store', body: { status: 'ok' } });
    contract.expectResponse('GET', '/healthz', 200, health.contentType, health.body);
    const ready = await get(`${server.url}/readyz`);
    expect(ready).toMatchObject({
      status: 200,
      cacheControl: 'no-store',
      body: { status: 'ready', checks: { store: 'ok', index: 'ok' }, reasons: [] },
    });
    contract.expectResponse('GET', '/readyz', 200, ready.contentType, ready.body);
    const wrongMethod = await post(server.url, '/readyz', 'json', {});
    expect(wrongMethod.status).toBe(405);
    // The 405 is documented on the path's one operation.
    contract.expectResponse('GET', '/readyz', 405, wrongMethod.contentType, wrongMethod.body);
    const probeLines = server.logs.filter((line) => JSON.stringify(line).match(/\/(healthz|readyz)/));
    expect(probeLines.filter((line) => !JSON.stringify(line).includes('POST'))).toEqual([]);
  });

  it('say not ready, with the reason, when the store fails; writes get 500 with Retry-After; pages still work', async () => {
    const contract = await server.contract();
    await server.submissions.store.close();
    // The readiness result is reused for one second: move the clock past it. Only Date is faked, so
    // sockets and timers run as before (afterEach puts the real clock back).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 1_100 });
    const ready = await get(`${server.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ status: 'unavailable', checks: { store: 'failing', index: 'ok' } });
    expect((ready.body.reasons as string[])[0]).toMatch(/^submissions database: /);
    contract.expectResponse('GET', '/readyz', 503, ready.contentType, ready.body);
    expect((await get(`${server.url}/healthz`)).status).toBe(200);

    const answer = await post(server.url, '/api/leads', 'json', lead);
    expect(answer.status).toBe(500);
    expect(answer.headers.get('retry-after')).toBe(String(SUBMISSION_RETRY_AFTER_SECONDS));
    contract.expectResponse('POST', '/api/leads', 500, answer.contentType, answer.body);
    const search = await fetch(`${server.url}/ask?query=security`);
    expect(search.status).toBe(200);
  });
});
