import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LeadRequestSchema, SuggestionRequestSchema } from '../../src/contract/index.js';
import type { PublishedContract } from '../helpers/openapi.js';
import { startTestServer, type TestServer } from './harness.js';

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
const value = fc.oneof(
  fc.string({ maxLength: 40 }),
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
const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/x-www-form-urlencoded',
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
