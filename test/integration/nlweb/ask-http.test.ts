import type { LightMyRequestResponse } from 'fastify';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AskResult, NlWebResponse } from '../../../src/contract/index.js';
import type { AskApp } from '../../support/servers.js';
import { startAskApp, withoutRequestId } from '../../nlweb/helpers.js';

let server: AskApp;
beforeAll(async () => {
  server = await startAskApp();
});
afterAll(async () => {
  await server?.close();
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** GET /ask with the given query parameters (each value may repeat). */
async function get(
  params: Record<string, string | string[]>,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) for (const v of [value].flat()) search.append(name, v);
  return server.app.inject({ method: 'GET', url: `/ask?${search.toString()}`, headers });
}

async function post(body: unknown, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return server.app.inject({
    method: 'POST',
    url: '/ask',
    headers: { 'content-type': 'application/json', ...headers },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Checks the status, the NLWeb body against the served /openapi.json, and the CORS header. */
function expectNlWeb(response: LightMyRequestResponse, status: number, method = 'GET'): NlWebResponse {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(response.headers['access-control-allow-origin']).toBe('*');
  const body = response.json() as NlWebResponse;
  server.contract.expectResponse(method, '/ask', status, 'application/json', body);
  expect(body._meta.version).toBe('0.55');
  expect(body._meta.request_id).toMatch(UUID);
  expect(body.content[0]!.type).toBe('text');
  return body;
}

function text(body: NlWebResponse): string {
  return (body.content[0] as { text: string }).text;
}

function resultsOf(body: NlWebResponse): AskResult[] {
  return body.content.flatMap((item) => (item.type === 'resource' ? [item.resource.data as AskResult] : []));
}

describe('GET /ask', () => {
  it('answers a question with an NLWeb Answer, the security headers and Vary: Accept, Accept-Encoding', async () => {
    const response = await get({ query: 'encryption keys' });
    const body = expectNlWeb(response, 200);
    expect(body._meta.response_type).toBe('Answer');
    expect(resultsOf(body).length).toBeGreaterThan(0);
    expect(text(body)).toMatch(/^Found \d+ results? for “encryption keys” on Acme Widgets\./);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers.vary).toBe('Accept, Accept-Language, Accept-Encoding');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it.each([
    ['missing', {}],
    ['empty', { query: '' }],
    ['blank', { query: '   \t ' }],
  ])('refuses a %s query with 400 Elicitation asking for one', async (_name, params) => {
    const body = expectNlWeb(await get(params), 400);
    expect(body._meta.response_type).toBe('Elicitation');
    expect(body.content).toHaveLength(1);
    expect(text(body)).toMatch(/^What would you like to search for\? The query is missing or blank/);
  });

  it('accepts 1000 characters and refuses 1001, counting code points like the schema', async () => {
    const ok = expectNlWeb(await get({ query: `encryption ${'x'.repeat(989)}` }), 200);
    expect(ok._meta.response_type).toBe('Answer');
    const tooLong = expectNlWeb(await get({ query: `encryption ${'x'.repeat(990)}` }), 400);
    expect(tooLong._meta.response_type).toBe('Elicitation');
    expect(text(tooLong)).toContain('query has 1001 characters and at most 1000 are allowed');
    // 1000 emoji are 2000 UTF-16 units but 1000 characters.
    expectNlWeb(await get({ query: '😀'.repeat(1000) }), 200);
    expectNlWeb(await get({ query: '😀'.repeat(1001) }), 400);
  });

  it('answers a query with nothing searchable with 200 Elicitation', async () => {
    for (const query of ['the of and', '?!…', 'to be']) {
      const body = expectNlWeb(await get({ query }), 200);
      expect(body._meta.response_type).toBe('Elicitation');
      expect(body.content).toHaveLength(1);
      expect(text(body)).toMatch(/^What would you like to find on Acme Widgets\?/);
    }
  });

  it('answers an unmatched query with an Answer that suggests rephrasing', async () => {
    const body = expectNlWeb(await get({ query: 'zebra quasar' }), 200);
    expect(body._meta.response_type).toBe('Answer');
    expect(body.content).toHaveLength(1);
    expect(text(body)).toMatch(/^Nothing on Acme Widgets matched “zebra quasar”\. Try other words/);
  });

  it('refuses a repeated query parameter', async () => {
    const body = expectNlWeb(await get({ query: ['a', 'b'] }), 400);
    expect(text(body)).toContain('query was sent more than once');
  });

  it.each(['true', '1', 'TRUE', 'false', '0', 'False'])('accepts streaming=%s', async (value) => {
    // Only the JSON cases are checked here (inject does not stream); the stream tests use a socket.
    if (['false', '0', 'False'].includes(value))
      expectNlWeb(await get({ query: 'widgets', streaming: value }), 200);
    else {
      const response = await server.app.inject({
        method: 'GET',
        url: `/ask?query=widgets&streaming=${value}`,
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    }
  });

  it.each(['yes', '', '2', 'on'])('refuses streaming=%j with 400', async (value) => {
    const body = expectNlWeb(await get({ query: 'widgets', streaming: value }), 400);
    expect(text(body)).toContain(`streaming "${value}" is not a boolean`);
    expect(text(body)).toContain('send streaming=true or streaming=false');
  });

  it('honours max_results from 1 to 50 and counts larger values as 50', async () => {
    expect(resultsOf(expectNlWeb(await get({ query: 'encryption', max_results: '1' }), 200))).toHaveLength(1);
    expect(resultsOf(expectNlWeb(await get({ query: 'encryption', max_results: '2' }), 200))).toHaveLength(2);
    const fifty = expectNlWeb(await get({ query: 'encryption', max_results: '50' }), 200);
    const huge = expectNlWeb(await get({ query: 'encryption', max_results: '1000000' }), 200);
    expect(withoutRequestId(huge)).toEqual(withoutRequestId(fifty));
    const byDefault = resultsOf(expectNlWeb(await get({ query: 'widget' }), 200));
    expect(byDefault.length).toBeLessThanOrEqual(10);
  });

  it.each(['0', '-1', 'abc', '1.5', '', '10000000000'])('refuses max_results=%j', async (value) => {
    const body = expectNlWeb(await get({ query: 'encryption', max_results: value }), 400);
    expect(text(body)).toContain('max_results');
  });

  it('accepts mode=list and refuses other modes', async () => {
    expectNlWeb(await get({ query: 'widgets', mode: 'list' }), 200);
    for (const mode of ['summarize', 'generate', 'LIST']) {
      const body = expectNlWeb(await get({ query: 'widgets', mode }), 400);
      expect(text(body)).toContain(`mode "${mode}" is not supported`);
    }
  });

  it('ignores site (once or repeated) and the other parameters NLWeb clients send', async () => {
    const plain = expectNlWeb(await get({ query: 'encryption' }), 200);
    const withExtras = expectNlWeb(
      await get({
        query: 'encryption',
        site: ['acme.test', 'other.test'],
        prev: 'earlier question',
        query_id: 'q-1',
        last_ans: '[]',
        generate_mode: 'list',
      }),
      200,
    );
    expect(withoutRequestId(withExtras)).toEqual(withoutRequestId(plain));
  });

  it('echoes conversation_id up to 200 characters', async () => {
    const body = expectNlWeb(await get({ query: 'widgets', conversation_id: 'conv-1' }), 200);
    expect(body._meta.conversation_id).toBe('conv-1');
    expectNlWeb(await get({ query: 'widgets', conversation_id: 'c'.repeat(200) }), 200);
    const tooLong = expectNlWeb(await get({ query: 'widgets', conversation_id: 'c'.repeat(201) }), 400);
    expect(text(tooLong)).toContain('conversation_id is longer than 200 characters');
  });

  it('reports every invalid parameter at once', async () => {
    const body = expectNlWeb(await get({ query: 'widgets', streaming: 'maybe', mode: 'generate' }), 400);
    expect(text(body)).toContain('streaming');
    expect(text(body)).toContain('mode');
  });

  it('never streams a HEAD request', async () => {
    const response = await server.app.inject({
      method: 'HEAD',
      url: '/ask?query=widgets',
      headers: { accept: 'text/event-stream' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.body).toBe('');
  });
});

describe('POST /ask', () => {
  it('answers exactly as GET does for the same question', async () => {
    const viaPost = expectNlWeb(await post({ query: { text: 'encryption keys' } }), 200, 'POST');
    const viaGet = expectNlWeb(await get({ query: 'encryption keys' }), 200);
    expect(withoutRequestId(viaPost)).toEqual(withoutRequestId(viaGet));
    expect(viaPost._meta.request_id).not.toBe(viaGet._meta.request_id);
  });

  it('accepts query.site as a string or an array, and context, prefer and meta members', async () => {
    const plain = withoutRequestId(
      expectNlWeb(await post({ query: { text: 'hosting region' } }), 200, 'POST'),
    );
    for (const site of ['acme.test', ['acme.test', 'b.test']]) {
      const body = expectNlWeb(
        await post({
          query: { text: 'hosting region', site, itemType: 'WebPage' },
          context: { prev: ['pricing'] },
          prefer: { mode: 'list', streaming: false, lang: 'en' },
          meta: { api_version: '0.55' },
        }),
        200,
        'POST',
      );
      expect(withoutRequestId(body)).toEqual(plain);
    }
  });

  it('refuses unknown top-level members', async () => {
    const body = expectNlWeb(await post({ query: { text: 'widgets' }, return_response: {} }), 400, 'POST');
    expect(body._meta.response_type).toBe('Elicitation');
    expect(text(body)).toContain('return_response is not a recognised field');
  });

  it.each([
    ['a missing query', {}],
    ['a missing query.text', { query: {} }],
    ['an empty query.text', { query: { text: '' } }],
    ['a blank query.text', { query: { text: '  \n ' } }],
    ['a query.text of control characters', { query: { text: '\u0000\u0001' } }],
  ])('asks for the query on %s', async (_name, body) => {
    const answer = expectNlWeb(await post(body), 400, 'POST');
    expect(answer._meta.response_type).toBe('Elicitation');
    expect(text(answer)).toMatch(/^What would you like to search for\?/);
  });

  it('accepts a query.text of 1000 characters and refuses 1001', async () => {
    expectNlWeb(await post({ query: { text: `encryption ${'x'.repeat(989)}` } }), 200, 'POST');
    const body = expectNlWeb(await post({ query: { text: `encryption ${'x'.repeat(990)}` } }), 400, 'POST');
    expect(text(body)).toContain('query.text has 1001 characters and at most 1000 are allowed');
  });

  it('refuses wrong types and values in the known members', async () => {
    const cases: [unknown, string][] = [
      [{ query: { text: 42 } }, 'query.text must be a string'],
      [{ query: 'widgets' }, 'query must be an object'],
      [{ query: { text: 'widgets', site: 7 } }, 'query.site'],
      [
        { query: { text: 'widgets' }, prefer: { mode: 'summarize' } },
        'prefer.mode "summarize" is not an allowed value',
      ],
      [{ query: { text: 'widgets' }, prefer: { streaming: 'yes' } }, 'prefer.streaming must be a boolean'],
      [{ query: { text: 'widgets' }, prefer: { max_results: 0 } }, 'prefer.max_results'],
      [{ query: { text: 'widgets' }, meta: { conversation_id: 'c'.repeat(201) } }, 'meta.conversation_id'],
      [['widgets'], 'body must be a JSON object'],
    ];
    for (const [body, expected] of cases) {
      const answer = expectNlWeb(await post(body), 400, 'POST');
      expect(text(answer)).toContain(expected);
    }
  });

  it('honours prefer.max_results and echoes meta.conversation_id', async () => {
    const body = expectNlWeb(
      await post({
        query: { text: 'encryption' },
        prefer: { max_results: 2 },
        meta: { conversation_id: 'c-9' },
      }),
      200,
      'POST',
    );
    expect(resultsOf(body)).toHaveLength(2);
    expect(body._meta.conversation_id).toBe('c-9');
    const capped = expectNlWeb(
      await post({ query: { text: 'encryption' }, prefer: { max_results: 500 } }),
      200,
      'POST',
    );
    const fifty = expectNlWeb(await get({ query: 'encryption', max_results: '50' }), 200);
    expect(withoutRequestId(capped)).toEqual(withoutRequestId(fifty));
  });

  it('answers invalid and empty JSON with a 400 NLWeb body', async () => {
    const invalid = expectNlWeb(await post('{"query": {"text": "widgets"'), 400, 'POST');
    expect(text(invalid)).toMatch(/^The request body is not valid JSON/);
    const empty = expectNlWeb(await post(''), 400, 'POST');
    expect(text(empty)).toContain('not valid JSON');
  });

  it.each([
    ['text/plain', 'widgets'],
    ['application/x-www-form-urlencoded', 'query=widgets'],
    ['multipart/form-data; boundary=x', '--x--'],
  ])('refuses a %s body with a 400 NLWeb body naming application/json', async (contentType, payload) => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/ask',
      headers: { 'content-type': contentType },
      payload,
    });
    const body = expectNlWeb(response, 400, 'POST');
    expect(text(body)).toContain(`Content-Type "${contentType.split(';')[0]}" is not accepted here`);
    expect(text(body)).toContain('Send the body as application/json');
  });

  it('refuses a request without a body or content type', async () => {
    const body = expectNlWeb(await server.app.inject({ method: 'POST', url: '/ask' }), 400, 'POST');
    expect(text(body)).toContain('application/json');
  });

  it('answers a body over the limit with 413 and an NLWeb body', async () => {
    const payload = JSON.stringify({ query: { text: 'widgets' }, context: { text: 'x'.repeat(70_000) } });
    const body = expectNlWeb(await post(payload), 413, 'POST');
    expect(body._meta.response_type).toBe('Elicitation');
    expect(text(body)).toContain('larger than the limit of 65536 bytes');
  });
});

describe('CORS', () => {
  it('answers the preflight with 204 and the allowed methods and headers, without credentials', async () => {
    const response = await server.app.inject({
      method: 'OPTIONS',
      url: '/ask',
      headers: {
        origin: 'https://chat.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect(response.headers).toMatchObject({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, POST, OPTIONS',
      'access-control-allow-headers': 'Content-Type, Accept',
      'access-control-max-age': '86400',
    });
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('lets any origin read answers and errors of both methods', async () => {
    const origin = { origin: 'https://elsewhere.example' };
    for (const response of [
      await get({ query: 'widgets' }, origin),
      await get({}, origin),
      await post({ query: { text: 'widgets' } }, origin),
      await post('{', origin),
    ]) {
      expect(response.headers['access-control-allow-origin']).toBe('*');
    }
  });
});

describe('hostile input', () => {
  it('never answers 5xx to odd query strings', async () => {
    const odd = [
      '/ask?__proto__=x&query=widgets',
      '/ask?query=%E0%A4%A',
      '/ask?query=%00',
      '/ask?query[]=a',
      '/ask?query=a&&&=&streaming',
      '/ask?constructor=1&query=widgets',
      `/ask?query=${'%F0%9F%98%80'.repeat(1001)}`,
      '/ask?query=%ED%A0%80',
    ];
    for (const url of odd) {
      const response = await server.app.inject({ method: 'GET', url });
      expect([200, 400], `${url} → ${response.statusCode}`).toContain(response.statusCode);
      expectNlWeb(response, response.statusCode);
    }
  });

  it('never answers 5xx to arbitrary query values and JSON bodies', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(
          fc.constantFrom('query', 'streaming', 'max_results', 'mode', 'site', 'conversation_id', 'prev'),
          fc.oneof(fc.string({ maxLength: 40 }), fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 })),
        ),
        fc.jsonValue({ maxDepth: 4 }),
        async (params, body) => {
          const viaGet = await get({ ...params, streaming: 'false' });
          expect([200, 400]).toContain(viaGet.statusCode);
          expectNlWeb(viaGet, viaGet.statusCode);
          const viaPost = await post(JSON.stringify(body));
          expect([200, 400]).toContain(viaPost.statusCode);
          expectNlWeb(viaPost, viaPost.statusCode, 'POST');
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('/ask scope and corrections', () => {
  it('limits results to a path prefix (GET scope) and says so, valid under /openapi.json', async () => {
    const all = resultsOf(expectNlWeb(await get({ query: 'encryption' }), 200));
    expect(all.map((r) => new URL(r.url).pathname)).toContain('/security');
    const body = expectNlWeb(await get({ query: 'encryption', scope: '/docs/' }), 200);
    const scoped = resultsOf(body);
    expect(scoped.map((r) => new URL(r.url).pathname)).toEqual(['/docs/getting-started']);
    expect(text(body)).toContain('(scope “/docs/”)');
  });

  it('takes the scope from POST query.scope: a tag or a section name', async () => {
    const byTag = resultsOf(
      expectNlWeb(await post({ query: { text: 'encryption', scope: 'tag:security' } }), 200, 'POST'),
    );
    expect(byTag.map((r) => new URL(r.url).pathname)).toEqual(['/security']);
    const bySection = resultsOf(
      expectNlWeb(await post({ query: { text: 'encryption', scope: 'docs' } }), 200, 'POST'),
    );
    expect(bySection.map((r) => new URL(r.url).pathname)).toEqual(['/docs/getting-started']);
    const none = expectNlWeb(await get({ query: 'encryption', scope: '/nowhere/' }), 200);
    expect(resultsOf(none)).toEqual([]);
  });

  it('refuses a scope that is too long, naming the field', async () => {
    const body = expectNlWeb(await get({ query: 'encryption', scope: `/${'a'.repeat(300)}` }), 400);
    expect(text(body)).toContain('scope');
    const posted = await post({ query: { text: 'encryption', scope: 'a'.repeat(300) } });
    expect(posted.statusCode).toBe(400);
  });

  it('says what it searched for when a word was corrected', async () => {
    const body = expectNlWeb(await get({ query: 'encryptoin keys' }), 200);
    // The count is for the corrected words: the misspelling is not named beside the correction.
    expect(text(body)).toMatch(
      /^Showing results for “encryption keys”\. Found \d+ results? for “encryption keys”/,
    );
    expect(text(body)).not.toContain('encryptoin');
    expect(new URL(resultsOf(body)[0]!.url).pathname).toBe('/security');
  });
});
