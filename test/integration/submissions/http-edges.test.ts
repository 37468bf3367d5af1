import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublishedContract } from '../../support/openapi.js';
import {
  BODY_TYPES,
  encode,
  expectContract,
  expectValidationError,
  post,
  postRaw,
  uniqueEmail,
  type Answer,
} from '../../support/client.js';
import { startTestServer, type TestServer } from '../../support/servers.js';

const LEADS = '/api/leads';
const SUGGESTIONS = '/api/document-suggestions';
const PATHS = [LEADS, SUGGESTIONS];

let server: TestServer;
let contract: PublishedContract;
let clockMs = Date.UTC(2026, 0, 5, 9, 0, 0);

beforeAll(async () => {
  server = await startTestServer({ env: { BODY_LIMIT_BYTES: '16384' }, submissions: { now: () => clockMs } });
  contract = await server.contract();
});
afterAll(() => server.close());

const validBody = (path: string): Record<string, string> =>
  path === LEADS
    ? { name: 'Dana Reyes', email: uniqueEmail(), message: 'Protocol-driven ICF drafts' }
    : {
        companyType: 'research-site',
        persona: 'principal-investigator',
        suggestion: `Visit schedule ${uniqueEmail()}`,
      };
const successStatus = (path: string) => (path === LEADS ? 200 : 201);

async function checked(path: string, answer: Promise<Answer>): Promise<Answer> {
  const result = await answer;
  expectContract(contract, path, result);
  return result;
}

const storedCount = async () => (await server.submissions.store.list({ limit: 10_000 })).length;

describe.each(PATHS)('%s transport errors', (path) => {
  it('answers INVALID_JSON 400 for broken and empty JSON', async () => {
    for (const payload of ['{"email": ', '{name: "x"}', '', '   ']) {
      const answer = await checked(
        path,
        postRaw(server.url, path, payload, { 'content-type': 'application/json' }),
      );
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('INVALID_JSON');
    }
  });

  it.each(BODY_TYPES)('answers PAYLOAD_TOO_LARGE 413 over the body limit (%s)', async (type) => {
    const big = { ...validBody(path), padding: 'x'.repeat(16_400) };
    const { contentType, payload } = encode(type, big);
    const answer = await checked(path, postRaw(server.url, path, payload, { 'content-type': contentType }));
    expect(answer.status).toBe(413);
    expect(answer.body.code).toBe('PAYLOAD_TOO_LARGE');
    expect(String(answer.body.message)).toContain('16384');
  });

  it.each([
    'text/plain',
    'multipart/form-data; boundary=x',
    'application/xml',
    'application/json-patch+json',
  ])('refuses Content-Type %s with 400 VALIDATION_ERROR', async (contentType) => {
    const answer = await checked(
      path,
      postRaw(server.url, path, 'email=a@b.co', { 'content-type': contentType }),
    );
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('VALIDATION_ERROR');
    expect(String(answer.body.resolution)).toContain('application/x-www-form-urlencoded');
  });

  it('refuses a request without a body', async () => {
    const response = await fetch(`${server.url}${path}`, { method: 'POST' });
    const answer: Answer = {
      status: response.status,
      contentType: response.headers.get('content-type') ?? '',
      headers: response.headers,
      body: (await response.json()) as Record<string, unknown>,
    };
    expectContract(contract, path, answer);
    expectValidationError(answer, ['body']);
  });

  it('refuses __proto__, constructor and prototype keys without polluting anything', async () => {
    const before = await storedCount();
    const json = `{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}, ${JSON.stringify(
      validBody(path),
    ).slice(1)}`;
    const answer = await checked(
      path,
      postRaw(server.url, path, json, { 'content-type': 'application/json' }),
    );
    expectValidationError(answer, ['__proto__', 'constructor']);
    const form = `__proto__[polluted]=yes&prototype=x&${new URLSearchParams(validBody(path)).toString()}`;
    const formAnswer = await checked(
      path,
      postRaw(server.url, path, form, { 'content-type': 'application/x-www-form-urlencoded' }),
    );
    expectValidationError(formAnswer, ['__proto__[polluted]', 'prototype']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await storedCount()).toBe(before);
  });

  it('refuses a repeated form key, naming it', async () => {
    const body = validBody(path);
    const repeated = body.email ? 'email' : 'persona';
    const form = `${new URLSearchParams(body).toString()}&${repeated}=${encodeURIComponent(body[repeated] ?? 'x@y.co')}`;
    const answer = await checked(
      path,
      postRaw(server.url, path, form, { 'content-type': 'application/x-www-form-urlencoded' }),
    );
    expectValidationError(answer, [repeated]);
    expect(String(answer.body.message)).toContain('more than once');
  });

  it('sends no CORS permission on the write route', async () => {
    const answer = await checked(path, post(server.url, path, 'json', validBody(path)));
    expect(answer.status).toBe(successStatus(path));
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });
});

describe.each(PATHS)('%s cross-site protection', (path) => {
  it('accepts requests from the site itself and requests without an Origin', async () => {
    const same = await checked(
      path,
      post(server.url, path, 'form', validBody(path), {
        origin: server.url,
        'sec-fetch-site': 'same-origin',
      }),
    );
    expect(same.status).toBe(successStatus(path));
    const none = await checked(path, post(server.url, path, 'json', validBody(path)));
    expect(none.status).toBe(successStatus(path));
  });

  it.each([
    ['another site', { origin: 'https://evil.example' }],
    ['the same host on another port', { origin: 'http://127.0.0.1:1' }],
    ['an opaque origin', { origin: 'null' }],
    ['a malformed origin', { origin: 'not a url' }],
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
  ])('refuses %s with 400 naming Origin, storing nothing', async (_label, headers) => {
    const before = await storedCount();
    for (const type of BODY_TYPES) {
      const answer = await checked(path, post(server.url, path, type, validBody(path), headers));
      expectValidationError(answer, ['Origin']);
    }
    expect(await storedCount()).toBe(before);
  });
});

describe.each(PATHS)('%s duplicates', (path) => {
  it('answers a double submit with the original answer and stores it once', async () => {
    const body = validBody(path);
    const before = await storedCount();
    const first = await checked(path, post(server.url, path, 'form', body));
    const second = await checked(path, post(server.url, path, 'json', body));
    expect(first.status).toBe(successStatus(path));
    expect(second.status).toBe(first.status);
    expect(second.body).toEqual(first.body);
    expect(await storedCount()).toBe(before + 1);
  });

  it('treats the e-mail case and surrounding white space as the same person', async () => {
    const body = { ...validBody(path), email: uniqueEmail() };
    const before = await storedCount();
    await checked(path, post(server.url, path, 'json', body));
    const again = await checked(
      path,
      post(server.url, path, 'json', { ...body, email: body.email!.toUpperCase() }),
    );
    expect(again.status).toBe(successStatus(path));
    expect(await storedCount()).toBe(before + 1);
  });

  it('stores different content and content repeated after the 10-minute window', async () => {
    const body = validBody(path);
    const before = await storedCount();
    await checked(path, post(server.url, path, 'json', body));
    await checked(path, post(server.url, path, 'json', { ...body, email: uniqueEmail() }));
    expect(await storedCount()).toBe(before + 2);
    clockMs += 9 * 60_000;
    await checked(path, post(server.url, path, 'json', body));
    expect(await storedCount()).toBe(before + 2);
    clockMs += 60_001;
    await checked(path, post(server.url, path, 'json', body));
    expect(await storedCount()).toBe(before + 3);
  });
});

describe.each(PATHS)('%s Idempotency-Key', (path) => {
  it('replays the stored answer for the same key and body, across content types', async () => {
    const body = validBody(path);
    const key = `key-${uniqueEmail()}`;
    const before = await storedCount();
    const first = await checked(path, post(server.url, path, 'json', body, { 'idempotency-key': key }));
    const replay = await checked(
      path,
      post(server.url, path, 'form', body, { 'idempotency-key': `"${key}"` }),
    );
    expect(replay.status).toBe(successStatus(path));
    expect(replay.body).toEqual(first.body);
    expect(await storedCount()).toBe(before + 1);
    const stored = (await server.submissions.store.list({ limit: 10_000 })).filter(
      (record) => record.idempotencyKey === key,
    );
    expect(stored).toHaveLength(1);
  });

  it('refuses the same key with another body, naming Idempotency-Key, storing nothing', async () => {
    const key = `key-${uniqueEmail()}`;
    await checked(path, post(server.url, path, 'json', validBody(path), { 'idempotency-key': key }));
    const before = await storedCount();
    const conflict = await checked(
      path,
      post(server.url, path, 'json', validBody(path), { 'idempotency-key': key }),
    );
    expectValidationError(conflict, ['Idempotency-Key']);
    expect(await storedCount()).toBe(before);
  });

  it.each(['', 'has space', 'x'.repeat(256), 'tab\there', 'ünicode'])(
    'refuses the malformed key %j',
    async (key) => {
      const answer = await checked(
        path,
        post(server.url, path, 'json', validBody(path), { 'idempotency-key': key }),
      );
      expectValidationError(answer, ['Idempotency-Key']);
    },
  );

  it('scopes keys per endpoint', async () => {
    const key = `shared-${uniqueEmail()}`;
    const lead = await checked(
      LEADS,
      post(server.url, LEADS, 'json', validBody(LEADS), { 'idempotency-key': key }),
    );
    const suggestion = await checked(
      SUGGESTIONS,
      post(server.url, SUGGESTIONS, 'json', validBody(SUGGESTIONS), { 'idempotency-key': key }),
    );
    expect(lead.status).toBe(200);
    expect(suggestion.status).toBe(201);
  });
});

describe('what is stored with a submission', () => {
  it('records the request id, client address, user agent and key, and the fields field by field', async () => {
    const body = { ...validBody(LEADS), company: 'Example Therapeutics' };
    await checked(
      LEADS,
      post(server.url, LEADS, 'json', body, {
        'user-agent': 'agent-test/1.0',
        'idempotency-key': 'meta-key-1',
      }),
    );
    const record = (await server.submissions.store.list({ limit: 10_000, kind: 'lead' })).find(
      (stored) => stored.idempotencyKey === 'meta-key-1',
    );
    expect(record!.fields).toEqual(body);
    expect(record!.clientIp).toBe('127.0.0.1');
    expect(record!.userAgent).toBe('agent-test/1.0');
    expect(record!.idempotencyKey).toBe('meta-key-1');
    const requestLog = server.logs.find(
      (line) => line.msg === 'submission stored' && line.submissionId === record!.id,
    );
    expect(requestLog?.requestId).toBe(record!.requestId);
  });
});

describe('when the store cannot write', () => {
  it('answers 500 INTERNAL_ERROR on both routes without leaking internals', async () => {
    const broken = await startTestServer();
    try {
      const brokenContract = await broken.contract();
      await broken.submissions.store.close();
      for (const path of PATHS) {
        const answer = await post(broken.url, path, 'json', validBody(path));
        brokenContract.expectResponse('POST', path, answer.status, answer.contentType, answer.body);
        expect(answer.status).toBe(500);
        expect(answer.body.code).toBe('INTERNAL_ERROR');
        expect(JSON.stringify(answer.body)).not.toMatch(/sqlite|database|connection|stack|at \w+ \(/i);
      }
      const failure = broken.logs.filter((line) => line.msg === 'submission could not be stored');
      expect(failure).toHaveLength(2);
      expect(Object.keys(failure[0]!).sort()).toEqual([
        'errorClass',
        'hostname',
        'level',
        'msg',
        'pid',
        'requestId',
        'time',
      ]);
    } finally {
      await broken.close();
    }
  });
});
