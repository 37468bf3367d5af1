import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config/index.js';
import { holdsAddress } from '../../../src/submissions/store/erasure.js';
import { openSqliteStore } from '../../../src/submissions/store/index.js';
import { headerText } from '../../../src/submissions/safe-text.js';
import type { QuarantineReason } from '../../../src/submissions/index.js';
import {
  LeadRequestSchema,
  MAX_ECHOED_CHARACTERS,
  MAX_FORM_FIELDS,
  MAX_REPORTED_PROBLEMS,
  NOT_A_PATH,
  SINGLE_LINE,
  SuggestionRequestSchema,
} from '../../../src/contract/index.js';
import { postRaw } from '../../support/client.js';
import { tempDir } from '../../support/files.js';
import { decodeEncodedWords, WEBHOOK_SECRET } from '../../support/peers.js';
import { newSubmission, T0 } from '../../support/submissions.js';
import type { PublishedContract } from '../../support/openapi.js';
import { startTestServer, type TestServer } from '../../support/servers.js';

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

/** The classes of the second hardening pass (issue 37), as properties. */
describe('issue 37 classes', () => {
  const BASE = 'https://www.example.test';
  /** Characters that change what a URL parser or a mail reader makes of a path or a name. */
  const pathPart = fc.constantFrom(
    '/',
    '\\',
    '\t',
    '\n',
    '\r',
    '\u0000',
    '\u001f',
    '\u007f',
    '\u0085',
    '\u2028',
    ' ',
    '%2F',
    '%5C',
    '%09',
    'evil.example',
    'x',
    '?',
    '#',
    '@',
    ':',
    '.',
    '..',
  );
  const lead = (fields: Record<string, unknown>) =>
    server.app.inject({
      method: 'POST',
      url: '/api/leads',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'Dana', email: 'fuzz.path@example.com', ...fields }),
    });

  it('an accepted sourcePage never leaves the site once a URL parser reads it, and holds no control character', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(pathPart, { minLength: 1, maxLength: 8 }), async (parts) => {
        const sourcePage = `/${parts.join('')}`;
        const answer = await lead({ sourcePage });
        const controls = /[\p{Cc}\u2028\u2029]/u.test(sourcePage);
        if (controls) expect(answer.statusCode).toBe(400);
        if (answer.statusCode === 200) expect(new URL(sourcePage, BASE).origin).toBe(BASE);
        else expect(answer.statusCode).toBe(400);
      }),
      { numRuns: 300 },
    );
  });

  /** Characters that render as nothing, or as blank: default-ignorable letters, marks, spaces. */
  const invisible = fc.constantFrom(
    '\u3164',
    '\u115f',
    '\u1160',
    '\uffa0',
    '\u17b4',
    '\u17b5',
    '\u200b',
    '\u200c',
    '\u200d',
    '\u2060',
    '\ufeff',
    '\u00ad',
    '\u034f',
    '\u180e',
    '\u2800',
    '\u202e',
    '\u2066',
    ' ',
    '\u00a0',
    '\u3000',
    '.',
    '-',
  );

  it('a name made only of invisible or blank characters is refused like a blank one', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(invisible, { minLength: 1, maxLength: 12 }), async (parts) => {
        const answer = await lead({ name: parts.join('') });
        expect(answer.statusCode).toBe(400);
        expect(answer.json().message).toContain('name is required unless both firstName and lastName');
      }),
      { numRuns: 200 },
    );
  });

  it(`an error repeats at most ${MAX_ECHOED_CHARACTERS} characters of a long value, wherever it was sent`, async () => {
    const long = fc.string({ unit: fc.constantFrom('q', 'z', 'Q', '7'), minLength: 61, maxLength: 6_000 });
    const where = fc.constantFrom(
      'streaming',
      'mode',
      'max_results',
      'content-type',
      'persona',
      'field',
      'origin',
    );
    await fc.assert(
      fc.asyncProperty(where, long, async (place, value) => {
        const json = { 'content-type': 'application/json' };
        const body = JSON.stringify({ name: 'D', email: 'd@example.com' });
        const answer =
          place === 'streaming' || place === 'mode' || place === 'max_results'
            ? await server.app.inject({ method: 'GET', url: `/ask?query=protocol&${place}=${value}` })
            : await server.app.inject({
                method: 'POST',
                url: '/api/leads',
                headers:
                  place === 'content-type'
                    ? { 'content-type': `application/${value}` }
                    : place === 'origin'
                      ? { ...json, origin: `https://${value}.example` }
                      : json,
                payload:
                  place === 'persona'
                    ? JSON.stringify({ name: 'D', email: 'd@example.com', persona: value })
                    : place === 'field'
                      ? JSON.stringify({ name: 'D', email: 'd@example.com', [value]: 1 })
                      : body,
              });
        expect(answer.statusCode).toBe(400);
        expect(answer.body).not.toContain(value.slice(0, MAX_ECHOED_CHARACTERS + 1));
        // The echo is the value's start, after what the request put before it (`application/`, `https://`).
        const before =
          { 'content-type': 'application/'.length, origin: 'https://'.length }[place as string] ?? 0;
        expect(answer.body).toContain(value.slice(0, MAX_ECHOED_CHARACTERS - before));
        expect(answer.body.length).toBeLessThan(1_500);
      }),
      { numRuns: 150 },
    );
  });

  /** One Content-Type parameter, with what it declares about the charset. */
  const parameter = fc.constantFrom(
    { text: 'charset=utf-8', charset: 'utf-8' },
    { text: 'charset="UTF-8"', charset: 'utf-8' },
    { text: 'Charset = utf8', charset: 'utf8' },
    { text: 'charset=utf-16', charset: 'utf-16' },
    { text: 'charset=iso-8859-1', charset: 'iso-8859-1' },
    { text: "charset*=utf-16''", charset: '*' },
    { text: "CHARSET*=UTF-8''", charset: '*' },
    { text: 'charset*0=utf-8', charset: '*' },
    { text: 'foo="a;charset=utf-16"', charset: null },
    { text: 'boundary=x', charset: null },
    { text: 'q=1', charset: null },
  );

  it('a body is read only when Content-Type declares one UTF-8 charset in the plain form, or none', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('application/json', 'application/x-www-form-urlencoded'),
        fc.array(parameter, { maxLength: 4 }),
        fc.constantFrom(';', '; ', ' ; '),
        async (type, parameters, separator) => {
          const header = [type, ...parameters.map((p) => p.text)].join(separator);
          const declared = parameters.filter((p) => p.charset !== null).map((p) => p.charset);
          const readable =
            declared.length === 0 || (declared.length === 1 && ['utf-8', 'utf8'].includes(declared[0]!));
          const answer = await server.app.inject({
            method: 'POST',
            url: '/api/leads',
            headers: { 'content-type': header },
            payload:
              type === 'application/json'
                ? '{"name":"Dana","email":"cs@example.com"}'
                : 'name=Dana&email=cs%40example.com',
          });
          expect(answer.statusCode, header).toBe(readable ? 200 : 400);
          if (!readable) expect(answer.json().message).toContain('Content-Type');
        },
      ),
      { numRuns: 300 },
    );
  });

  /** Fragments of RFC 2047 encoded words and what they may decode to. */
  const mimeFragment = fc.constantFrom(
    '=?',
    '?=',
    'utf-8',
    'UTF-8*en',
    '?q?',
    '?Q?',
    '?b?',
    '?B?',
    '=0D=0A',
    '=E2=80=AE',
    '=22',
    '=3C',
    'Bcc:_v@evil.example',
    'DQpCY2M6IHY=',
    '4oCu',
    ' ',
    'Eve',
    '\r\n',
    '\u202e',
    '"',
    '<',
    '@',
  );

  it('no header text made from submitted text decodes to anything but itself', () => {
    fc.assert(
      fc.property(fc.array(mimeFragment, { minLength: 1, maxLength: 16 }), (parts) => {
        const header = headerText(parts.join(''));
        // A lenient reader's decoding finds no encoded word, so it shows exactly this text.
        expect(decodeEncodedWords(header)).toBe(header);
        expect(header).not.toMatch(/[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u);
      }),
      { numRuns: 1_000 },
    );
  });

  it('erasure finds an address wherever it stands as a whole address, and never inside a longer one', () => {
    const label = fc
      .string({ unit: fc.constantFrom('a', 'b', '0', '-', 'é'), minLength: 1, maxLength: 6 })
      .filter((text) => /^[^-].*[^-]$|^[^-]$/u.test(text));
    const local = fc
      .string({ unit: fc.constantFrom('a', 'Z', '9', '.', '_', '+', "'"), minLength: 1, maxLength: 8 })
      .filter((text) => !text.startsWith('.') && !text.endsWith('.'));
    const separator = fc.constantFrom(' ', '', '<', '>', '"', ',', ';', '(', ')', '\n', ': ', '. ');
    fc.assert(
      fc.property(
        local,
        label,
        separator,
        separator,
        fc.constantFrom('a', '9', '.', '_', '+'),
        fc.constantFrom('a', '-', '9', '.x'),
        (user, host, left, right, glued, tail) => {
          const address = `${user}@${host}.example`;
          const shouted = address.toUpperCase();
          expect(holdsAddress(`${left}${shouted}${right}`, address)).toBe(true);
          expect(holdsAddress(`x${left === '' ? ' ' : left}${address}.`, address)).toBe(true);
          // Glued to an address character it is part of another address.
          expect(holdsAddress(`${glued}${address}`, address)).toBe(false);
          expect(holdsAddress(`${address}${tail}`, address)).toBe(false);
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it('a configuration problem never prints the password of a URL, whatever the password', () => {
    const secret = fc.string({
      unit: fc.constantFrom('a', 'Z', '9', '%40', '!', '$', '~', ';', '='),
      minLength: 1,
      maxLength: 20,
    });
    fc.assert(
      fc.property(
        secret,
        fc.constantFrom('http', 'ftp', 'https'),
        fc.constantFrom('', '/h', '/h?x=1'),
        (password, scheme, path) => {
          const config = {
            LEAD_DELIVERY: 'crm',
            CRM_WEBHOOK_SECRET: WEBHOOK_SECRET,
            CRM_WEBHOOK_URL: `${scheme}://user:pw${password}@evil.example${path}`,
            PUBLIC_BASE_URL: `ftp://user:pw${password}@www.example.com`,
          };
          const refused = (() => {
            try {
              loadConfig(config);
            } catch (error) {
              return error as ConfigError;
            }
            throw new Error('the configuration was accepted');
          })();
          expect(refused).toBeInstanceOf(ConfigError);
          expect(refused.problems.length).toBeGreaterThan(0);
          expect(`${refused.message}\n${refused.problems.join('\n')}`).not.toContain(`pw${password}`);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('repeats of one submission with any mix of tripped traps store one row, delivered once any send is clean', async () => {
    const store = openSqliteStore(join(tempDir('fd-fuzz-store-'), 'frontdoor.sqlite'));
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.constantFrom<QuarantineReason | null>(null, 'honeypot', 'too-fast'), {
            minLength: 1,
            maxLength: 6,
          }),
          fc.boolean(),
          async (traps, keyed) => {
            const key = keyed ? `key-${randomUUID()}` : null;
            const fingerprint = `fp-${randomUUID()}`;
            const outcomes = [];
            for (const [i, quarantineReason] of traps.entries())
              outcomes.push(
                await store.insert(
                  newSubmission({
                    receivedAtMs: T0 + i,
                    fingerprint,
                    idempotencyKey: key,
                    requestHash: 'same',
                    quarantineReason,
                  }),
                  T0 - 600_000,
                ),
              );
            const ids = new Set(outcomes.map((outcome) => ('record' in outcome ? outcome.record.id : null)));
            expect(ids.size).toBe(1);
            const row = await store.get([...ids][0]!);
            const firstClean = traps.indexOf(null);
            expect(row!.delivery!.state).toBe(firstClean === -1 ? 'quarantine' : 'pending');
            expect(row!.quarantineReason).toBe(traps[0]);
            // The first clean send is the one that released (or created) it; no later send does anything.
            outcomes.forEach((outcome, i) => {
              const expected =
                i === 0 ? 'created' : i === firstClean ? 'released' : keyed ? 'replay' : 'duplicate';
              expect(outcome.status).toBe(expected);
            });
          },
        ),
        { numRuns: 200 },
      );
    } finally {
      await store.close();
    }
  });
});
