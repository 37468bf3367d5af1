import fc from 'fast-check';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createAdminServer } from '../../src/admin/index.js';

// Issue 37, finding 4's class: the admin listener answers only requests naming itself, whatever
// else a page reached through DNS rebinding puts in Host.

const admin = createAdminServer({ host: '127.0.0.1', port: 0, logger: pino({ level: 'silent' }) });
admin.addRoutes(async (app) => {
  app.get('/probe', async () => ({ ok: true }));
});
afterAll(() => admin.close());

const OWN = new Set(['127.0.0.1', 'localhost', '[::1]']);
const hostName = fc.oneof(
  fc.constantFrom(
    '127.0.0.1',
    'LOCALHOST',
    '[::1]',
    'localhost.evil.example',
    '127.0.0.1.nip.io',
    '[::ffff:127.0.0.1]',
  ),
  fc.constantFrom('evil.example', '0.0.0.0', '10.0.0.1', '127.0.0.2', '[::]', 'xn--80ak6aa92e.com'),
  fc.domain(),
  fc.ipV4(),
  fc.ipV6().map((address) => `[${address}]`),
  // Fastify's inject puts its own Host in place of an empty one: not a case it can show.
  fc.string({ maxLength: 30 }).filter((text) => text.trim() !== ''),
);

describe('the admin listener', () => {
  it('answers a Host naming itself, on any port, and refuses every other with 421 and the envelope', async () => {
    await fc.assert(
      fc.asyncProperty(hostName, fc.option(fc.integer({ min: 0, max: 65_535 })), async (name, port) => {
        const host = port === null ? name : `${name}:${port}`;
        let response;
        try {
          response = await admin.app.inject({ method: 'GET', url: '/probe', headers: { host } });
        } catch {
          return; // a header value HTTP itself cannot carry never reaches the listener
        }
        if (OWN.has(name.trim().toLowerCase())) expect(response.statusCode, host).toBe(200);
        else {
          expect(response.statusCode, host).toBe(421);
          expect(response.json()).toMatchObject({ ok: false, code: 'VALIDATION_ERROR' });
        }
      }),
      { numRuns: 500 },
    );
  });
});
