import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LeadRequestSchema,
  MAX_FORM_FIELDS,
  MAX_REPORTED_PROBLEMS,
  NOT_A_PATH,
  SINGLE_LINE,
  SuggestionRequestSchema,
} from '../../src/contract/index.js';
import { postRaw } from '../support/client.js';
import type { PublishedContract } from '../support/openapi.js';
import { startTestServer, type TestServer } from '../support/servers.js';

let server: TestServer;
let contract: PublishedContract;
beforeAll(async () => {
  server = await startTestServer({ env: { LEAD_DELIVERY: 'none', SUGGESTION_DELIVERY: 'none' } });
  contract = await server.contract();
});
afterAll(() => server.close());

/** Every member either request schema knows, and keys that attack plain objects. */
const FIELDS = [
  ...new Set([
    ...Object.keys(LeadRequestSchema.properties),
    ...Object.keys(SuggestionRequestSchema.properties),
  ]),
  '__proto__',
  'constructor',
];
/** Text an attacker sends: controls (C0, C1 CSI/NEL), bidi overrides, zero-width characters, NUL. */
const hostileText = fc
  .array(
    fc.constantFrom(
      'a',
      ' ',
      '\u0000',
      '\r\n',
      '\u009b',
      '\u0085',
      '\u202e',
      '\u2066',
      '\u200b',
      '\ufeff',
      'Bcc: x@y.z',
    ),
    { maxLength: 8 },
  )
  .map((parts) => parts.join(''));
/** Paths that start with a slash without being a path of this site. */
const offSitePath = fc.constantFrom(
  '//evil.example/x',
  '/\\evil.example',
  '/\\/evil.example',
  '///evil.example',
);
const value = fc.oneof(
  fc.string({ maxLength: 40 }),
  hostileText,
  offSitePath,
  fc.constantFrom('cro', 'sponsor', 'research-site', 'study-start-up', 'a@b.co', '/solutions/cros', ''),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 2 }),
);
const body = fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), fc.string({ maxLength: 8 })), value, {
  maxKeys: 8,
});
const path = fc.constantFrom('/api/leads', '/api/document-suggestions');
const PATHS_AND_FORMS = [
  '/api/leads',
  '/api/document-suggestions',
  '/forms/demo-request',
  '/forms/document-suggestion',
];
const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=utf-7',
  'text/plain',
  'application/xml',
);

function encode(type: string, data: Record<string, unknown>, raw: string | null): string {
  if (raw !== null) return raw;
  if (type.startsWith('application/x-www-form-urlencoded'))
    return new URLSearchParams(
      Object.entries(data).map(([k, v]): [string, string] => [
        k,
        typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v),
      ]),
    ).toString();
  return JSON.stringify(data);
}

describe('arbitrary bodies', () => {
  it('never get a 5xx, and every answer matches /openapi.json', async () => {
    await fc.assert(
      fc.asyncProperty(
        path,
        contentType,
        body,
        fc.option(fc.string({ maxLength: 60 }), { freq: 4 }),
        async (route, type, data, raw) => {
          const response = await server.app.inject({
            method: 'POST',
            url: route,
            headers: { 'content-type': type },
            payload: encode(type, data, raw),
          });
          expect([200, 201, 400]).toContain(response.statusCode);
          // Never an amplifier: an error answer stays small whatever was sent.
          if (response.statusCode === 400) expect(response.body.length).toBeLessThan(4096);
          if (response.statusCode < 300) {
            const [stored] = await server.submissions.store.list({ limit: 1 });
            const fields = stored!.fields;
            // What was stored has visible names, single-line names and same-site paths only.
            for (const key of ['name', 'firstName', 'lastName', 'company', 'role'] as const)
              if (fields[key] !== undefined) expect(fields[key]).not.toMatch(/[\p{Cc}]/u);
            if (fields.sourcePage !== undefined) expect(fields.sourcePage).not.toMatch(/^\/[/\\]/);
          }
          contract.expectResponse(
            'POST',
            route,
            response.statusCode,
            response.headers['content-type'] as string,
            response.json(),
          );
        },
      ),
      { numRuns: 300 },
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

/** The attacks of the hardening campaign (issue 11), sent over a socket to the listening server. */
describe('hardening shapes over the socket', () => {
  const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

  it.each(PATHS_AND_FORMS)(
    'a 64 KB body of one repeated key is refused at once, naming it (%s)',
    async (route) => {
      const repeated = Array.from({ length: 16_000 }, () => 'a=1').join('&');
      const answer = await fetch(`${server.url}${route}`, { method: 'POST', headers: FORM, body: repeated });
      expect(answer.status).toBe(400);
      const text = await answer.text();
      expect(text).toContain('a was sent more than once');
      expect(text.length).toBeLessThan(repeated.length / 4);
    },
  );

  it('a 64 KB body of one repeated key sent to /ask is refused before any work per field', async () => {
    const repeated = Array.from({ length: 16_000 }, () => 'a=1').join('&');
    const answer = await fetch(`${server.url}/ask`, { method: 'POST', headers: FORM, body: repeated });
    expect(answer.status).toBe(400);
    expect((await answer.text()).length).toBeLessThan(4096);
  });

  it.each(PATHS_AND_FORMS)(
    'a form body of thousands of distinct fields is refused with a short answer (%s)',
    async (route) => {
      const fields = Array.from({ length: 9_500 }, (_, i) => `f${i}=1`).join('&');
      const answer = await fetch(`${server.url}${route}`, {
        method: 'POST',
        headers: FORM,
        body: fields.slice(0, 65_000),
      });
      expect(answer.status).toBe(400);
      const text = await answer.text();
      expect(text).toContain(`has more than ${MAX_FORM_FIELDS} form fields`);
      expect(text.length).toBeLessThan(16_384);
    },
  );

  it('a JSON body of 6,000 unknown fields gets at most ten problems, not a 15x larger answer', async () => {
    const body = JSON.stringify(
      Object.fromEntries(Array.from({ length: 6_000 }, (_, i) => [`k${i.toString(36)}`, 0])),
    );
    expect(body.length).toBeLessThan(65_536);
    const answer = await postRaw(server.url, '/api/leads', body, { 'content-type': 'application/json' });
    expect(answer.status).toBe(400);
    contract.expectResponse('POST', '/api/leads', 400, answer.contentType, answer.body);
    const message = String(answer.body.message);
    expect(message.match(/is not a recognised field/g)?.length).toBeLessThanOrEqual(MAX_REPORTED_PROBLEMS);
    expect(message).toMatch(/body has \d+ more problems not listed here/);
    expect(JSON.stringify(answer.body).length).toBeLessThan(4096);
  });

  it.each(['//evil.example/x', '/\\evil.example'])(
    'sourcePage %s is refused and documented',
    async (sourcePage) => {
      const answer = await postRaw(
        server.url,
        '/api/leads',
        JSON.stringify({ name: 'Dana', email: 'dana@example.com', sourcePage }),
        { 'content-type': 'application/json' },
      );
      expect(answer.status).toBe(400);
      expect(String(answer.body.message)).toContain(
        'sourcePage must be a path on this site, not another site',
      );
      const published = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
        components: { schemas: { LeadRequest: { properties: { sourcePage: Record<string, unknown> } } } };
      };
      expect(published.components.schemas.LeadRequest.properties.sourcePage).toMatchObject({
        pattern: SINGLE_LINE,
        allOf: [{ pattern: '^/' }],
        not: { pattern: NOT_A_PATH },
      });
    },
  );

  it.each(['utf-7', 'utf-16', 'iso-8859-1'])(
    'a declared charset %s is refused with 400 naming Content-Type',
    async (charset) => {
      for (const [type, body] of [
        ['application/json', JSON.stringify({ name: 'Dana', email: 'dana@example.com' })],
        ['application/x-www-form-urlencoded', 'name=Dana&email=dana%40example.com'],
      ] as const) {
        const answer = await postRaw(server.url, '/api/leads', body, {
          'content-type': `${type}; charset=${charset}`,
        });
        expect(answer.status).toBe(400);
        expect(String(answer.body.message)).toContain(
          `Content-Type declares charset "${charset}", which is not accepted`,
        );
      }
    },
  );

  it.each([
    ['only zero-width characters', { name: '\u200b\u200c\u200d\ufeff' }],
    ['a NUL', { name: 'Dana\u0000Reyes' }],
    ['zero-width first and last names', { firstName: '\u200b', lastName: '\u2060' }],
  ])('a name of %s is refused', async (_label, names) => {
    const answer = await postRaw(
      server.url,
      '/api/leads',
      JSON.stringify({ ...names, email: 'dana@example.com' }),
      { 'content-type': 'application/json' },
    );
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('VALIDATION_ERROR');
  });
});
