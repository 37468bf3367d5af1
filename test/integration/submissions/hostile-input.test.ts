/**
 * The second hardening pass (issue 37), each attack sent over a real socket to the listening
 * server, with the real webhook peer where the attack aimed at it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ECHOED_CHARACTERS, SINGLE_LINE } from '../../../src/contract/index.js';
import { rawRequest, type RawResponse } from '../../support/net.js';
import type { PublishedContract } from '../../support/openapi.js';
import { startWebhookPeer, WEBHOOK_SECRET, type WebhookPeer } from '../../support/peers.js';
import { startTestServer, type TestServer } from '../../support/servers.js';

let server: TestServer;
let crm: WebhookPeer;
let contract: PublishedContract;
beforeAll(async () => {
  crm = await startWebhookPeer();
  server = await startTestServer({
    env: {
      LEAD_DELIVERY: 'crm',
      SUGGESTION_DELIVERY: 'crm',
      CRM_WEBHOOK_URL: crm.url,
      CRM_WEBHOOK_SECRET: WEBHOOK_SECRET,
    },
  });
  contract = await server.contract();
});
afterAll(async () => {
  await server.close();
  await crm.close();
});

const JSON_TYPE = { 'content-type': 'application/json' };

async function postJson(path: string, body: unknown, headers: Record<string, string> = JSON_TYPE) {
  const answer = await rawRequest(`${server.url}${path}`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { ...answer, json: JSON.parse(answer.body) as Record<string, unknown> };
}

function expectEnvelope(path: string, answer: RawResponse & { json: Record<string, unknown> }) {
  contract.expectResponse('POST', path, answer.status, String(answer.headers['content-type']), answer.json);
}

/** Each C0 and C1 control, DEL and the two Unicode line separators: what URL parsers and mail readers act on. */
const CONTROLS = [
  ...Array.from({ length: 0x20 }, (_, code) => String.fromCharCode(code)),
  '\u007f',
  '\u0085',
  '\u009b',
  '\u2028',
  '\u2029',
];

describe('finding 1: control characters in sourcePage and every single-line field', () => {
  it.each([
    ['tab', '/\t/evil.example/phish'],
    ['LF', '/\n/evil.example/phish'],
    ['CRLF', '/\r\n/evil.example/phish'],
    ['NUL', '/\u0000/evil.example/phish'],
  ])(
    'a lead with sourcePage "/<%s>/evil.example" is refused and never reaches the webhook',
    async (_label, sourcePage) => {
      // What the receiver would have made of it: the URL parser drops tab and line breaks.
      const resolved = new URL(sourcePage, 'https://www.example.test/');
      if (sourcePage.includes('\u0000')) expect(resolved.host).toBe('www.example.test');
      else expect(resolved.host).toBe('evil.example');
      const before = crm.received.length;
      const answer = await postJson('/api/leads', { name: 'T', email: 't@example.com', sourcePage });
      expect(answer.status).toBe(400);
      expectEnvelope('/api/leads', answer);
      expect(String(answer.json.message)).toContain('sourcePage must be one line without control characters');
      expect(crm.received.length).toBe(before);
      expect(await server.submissions.store.list({ email: 't@example.com', limit: 5 })).toEqual([]);
    },
  );

  it('every control character is refused in every single-line field of both operations', async () => {
    const lead = ['name', 'firstName', 'lastName', 'company', 'role', 'teamSize', 'timeline', 'sourcePage'];
    for (const control of CONTROLS) {
      const base = { name: 'Dana', firstName: 'Dana', lastName: 'Reyes', email: 'dana@example.com' };
      const body = Object.fromEntries(
        lead.map((field) => [field, field === 'sourcePage' ? `/demo${control}x` : `Dana${control}x`]),
      );
      const answer = await postJson('/api/leads', { ...base, ...body });
      expect(answer.status, JSON.stringify(control)).toBe(400);
      for (const field of lead) expect(String(answer.json.message)).toContain(`${field} must be one line`);

      const suggestion = await postJson('/api/document-suggestions', {
        companyType: 'cro',
        persona: 'study-start-up',
        suggestion: 'A site activation checklist',
        sourcePage: `/solutions/cros${control}/x`,
      });
      expect(suggestion.status, JSON.stringify(control)).toBe(400);
      expect(String(suggestion.json.message)).toContain('sourcePage must be one line');
    }
    expect(crm.received.filter((hook) => hook.body.includes('dana@example.com'))).toEqual([]);
  });

  it('the free-text fields keep their line breaks, and a clean path is delivered as sent', async () => {
    const answer = await postJson('/api/leads', {
      name: 'Dana Reyes',
      email: 'clean.path@example.com',
      message: 'Line one\r\nLine two\tindented',
      sourcePage: '/solutions/cros?from=nav#top',
    });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ ok: true, provider: 'crm', delivered: true });
    const hook = crm.received.find((received) => received.body.includes('clean.path@example.com'))!;
    const data = (JSON.parse(hook.body) as { data: Record<string, string> }).data;
    expect(data.sourcePage).toBe('/solutions/cros?from=nav#top');
    expect(data.message).toBe('Line one\r\nLine two\tindented');
  });

  it('/openapi.json publishes the rule on every single-line field and on /ask scope and conversation_id', async () => {
    const published = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      components: { schemas: Record<string, { properties: Record<string, Record<string, unknown>> }> };
      paths: { '/ask': { get: { parameters: { name: string; schema: Record<string, unknown> }[] } } };
    };
    const { LeadRequest, SuggestionRequest, AskRequest } = published.components.schemas;
    for (const field of [
      'name',
      'firstName',
      'lastName',
      'company',
      'role',
      'teamSize',
      'timeline',
      'sourcePage',
    ]) {
      expect(LeadRequest!.properties[field]!.pattern, field).toBe(SINGLE_LINE);
      expect(String(LeadRequest!.properties[field]!.description)).toContain('One line: control characters');
    }
    expect(LeadRequest!.properties.message!.pattern).toBeUndefined();
    expect(SuggestionRequest!.properties.sourcePage).toMatchObject({
      pattern: SINGLE_LINE,
      allOf: [{ pattern: '^/solutions/' }],
    });
    const askQuery = AskRequest!.properties.query as { properties: Record<string, Record<string, unknown>> };
    expect(askQuery.properties.scope!.pattern).toBe(SINGLE_LINE);
    const getParameters = Object.fromEntries(
      published.paths['/ask'].get.parameters.map((parameter) => [parameter.name, parameter.schema]),
    );
    expect(getParameters.scope!.pattern).toBe(SINGLE_LINE);
    expect(getParameters.conversation_id!.pattern).toBe(SINGLE_LINE);
  });

  it('/ask refuses a control character in scope or conversation_id, GET and POST alike', async () => {
    for (const query of ['scope=%2Fdocs%2F%09%2Fx', 'conversation_id=conv%0D%0Aforged']) {
      const answer = await rawRequest(`${server.url}/ask?query=protocol&${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body).toContain('must be one line without control characters');
    }
    for (const body of [
      { query: { text: 'protocol', scope: '/docs/\t/x' } },
      { query: { text: 'protocol' }, meta: { conversation_id: 'conv\u2028forged' } },
    ]) {
      const answer = await postJson('/ask', body);
      expect(answer.status).toBe(400);
      expect(answer.body).toContain('must be one line without control characters');
    }
  });
});

describe('finding 11: names of invisible letters are refused like blank names', () => {
  it.each([
    ['Hangul filler U+3164', { name: '\u3164' }],
    ['Hangul choseong and jungseong fillers U+115F U+1160', { name: '\u115f\u1160' }],
    ['halfwidth Hangul filler U+FFA0', { name: '\uffa0\uffa0' }],
    ['fillers with zero-width and bidi marks', { name: '\u3164\u200b\u200e\u2060\ufeff\u3164' }],
    ['Khmer inherent vowel U+17B4', { name: '\u17b4' }],
    ['filler first and last names', { firstName: '\u3164', lastName: '\uffa0' }],
  ])('a name of %s is refused', async (_label, names) => {
    const answer = await postJson('/api/leads', { ...names, email: 'filler@example.com' });
    expect(answer.status).toBe(400);
    expectEnvelope('/api/leads', answer);
    expect(String(answer.json.message)).toContain('name is required unless both firstName and lastName');
  });

  it('a suggestion of Hangul fillers is refused; a name with a real letter among fillers is accepted', async () => {
    const suggestion = await postJson('/api/document-suggestions', {
      companyType: 'cro',
      persona: 'study-start-up',
      suggestion: '\u3164\u3164\u3164',
    });
    expect(suggestion.status).toBe(400);
    expect(String(suggestion.json.message)).toContain('suggestion must contain a letter or a digit');
    const korean = await postJson('/api/leads', { name: '\u3164김민준', email: 'minjun@example.com' });
    expect(korean.status).toBe(200);
  });
});

describe(`finding 14: an error repeats at most ${MAX_ECHOED_CHARACTERS} characters of any value`, () => {
  const LONG = 'x'.repeat(8_000);
  /** The longest run of the repeated value in the answer: the echo itself. */
  const longestRun = (text: string) => Math.max(0, ...[...text.matchAll(/x+/g)].map((m) => m[0].length));

  it.each([
    ['Content-Type', () => postJson('/api/leads', '{}', { 'content-type': `application/${LONG}` })],
    [
      'a charset',
      () => postJson('/api/leads', '{}', { 'content-type': `application/json; charset=${LONG}` }),
    ],
    [
      'Origin',
      () =>
        postJson(
          '/api/leads',
          { name: 'D', email: 'd@example.com' },
          { ...JSON_TYPE, origin: `https://${LONG}.example` },
        ),
    ],
    [
      'an unknown JSON field name',
      () => postJson('/api/leads', { name: 'D', email: 'd@example.com', [LONG]: 1 }),
    ],
    [
      'a repeated form field name',
      () =>
        postJson('/api/leads', `${LONG}=1&${LONG}=2`, {
          'content-type': 'application/x-www-form-urlencoded',
        }),
    ],
    ['a persona', () => postJson('/api/leads', { name: 'D', email: 'd@example.com', persona: LONG })],
    ['GET /ask streaming', () => rawRequest(`${server.url}/ask?query=protocol&streaming=${LONG}`)],
    ['GET /ask mode', () => rawRequest(`${server.url}/ask?query=protocol&mode=${LONG}`)],
    ['GET /ask max_results', () => rawRequest(`${server.url}/ask?query=protocol&max_results=${LONG}`)],
    ['POST /ask Content-Type', () => postJson('/ask', '{}', { 'content-type': `text/${LONG}` })],
    ['an unknown API path', () => rawRequest(`${server.url}/api/${LONG}`, { method: 'DELETE' })],
  ])('%s of 8,000 characters is cut in a short answer', async (_label, send) => {
    const answer = await send();
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(answer.body.length).toBeLessThan(1_500);
    expect(longestRun(answer.body)).toBeGreaterThan(0);
    expect(longestRun(answer.body)).toBeLessThanOrEqual(MAX_ECHOED_CHARACTERS);
    expect(answer.body).toContain('…');
  });
});

describe('charset parameters: only one UTF-8 charset, in the plain form', () => {
  const LEAD = JSON.stringify({ name: 'Dana', email: 'charset@example.com' });
  it.each([
    ['application/json; charset=utf-8; charset=utf-16', 'declares charset more than once'],
    ['application/json;charset=utf-16;charset=utf-8', 'declares charset more than once'],
    ["application/json; charset*=utf-16''", 'declares its charset in the extended form charset*='],
    ['application/json; charset*=UTF-8', 'declares its charset in the extended form charset*='],
    ['application/x-www-form-urlencoded; charset=utf-8; charset=utf-16', 'declares charset more than once'],
    ['application/json; charset="utf-16"', 'declares charset "utf-16", which is not accepted'],
  ])('Content-Type: %s is refused with 400 and the envelope', async (type, words) => {
    const body = type.startsWith('application/json') ? LEAD : 'name=Dana&email=charset%40example.com';
    for (const path of ['/api/leads', '/api/document-suggestions']) {
      const answer = await postJson(path, body, { 'content-type': type });
      expect(answer.status).toBe(400);
      expectEnvelope(path, answer);
      expect(String(answer.json.message)).toContain(`Content-Type ${words}`);
    }
    const ask = await postJson('/ask', JSON.stringify({ query: { text: 'protocol' } }), {
      'content-type': type,
    });
    expect(ask.status).toBe(400);
    expect(await server.submissions.store.list({ email: 'charset@example.com', limit: 5 })).toEqual([]);
  });

  it.each([
    'application/json; charset=utf-8',
    'application/json; charset="UTF-8"',
    'application/json; foo="a;charset=utf-16"; charset=utf-8',
  ])('Content-Type: %s is accepted', async (type) => {
    const answer = await postJson(
      '/api/leads',
      JSON.stringify({ name: 'Dana', email: `ok.${type.length}@example.com` }),
      {
        'content-type': type,
      },
    );
    expect(answer.status).toBe(200);
  });
});
