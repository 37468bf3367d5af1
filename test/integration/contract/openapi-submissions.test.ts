import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DUPLICATE_WINDOW_MS } from '../../../src/contract/index.js';
import { startTestServer, type TestServer } from '../../support/servers.js';

// What the submission routes do beyond their body schema must be in the published contract too.
let server: TestServer;
let doc: { paths: Record<string, { post: { parameters?: unknown[]; description: string } }> };
beforeAll(async () => {
  server = await startTestServer();
  doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as typeof doc;
});
afterAll(() => server.close());

describe('/openapi.json for the submission operations', () => {
  for (const path of ['/api/leads', '/api/document-suggestions']) {
    it(`${path} documents the Idempotency-Key header, the duplicate window and the Origin rule`, () => {
      const operation = doc.paths[path]!.post;
      expect(operation.parameters).toContainEqual(
        expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false }),
      );
      expect(operation.description).toContain(`within ${DUPLICATE_WINDOW_MS / 60_000} minutes`);
      expect(operation.description).toContain('naming `Origin`');
      expect(operation.description).toContain('naming `Idempotency-Key`');
    });
  }

  it('matches what the server does with a cross-site Origin', async () => {
    const response = await fetch(`${server.url}/api/leads`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://elsewhere.example' },
      body: JSON.stringify({ name: 'Ada', email: 'ada@example.com' }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { code: string; message: string };
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(body.message).toContain('Origin');
  });
});
