import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorSchema } from '../../../src/contract/index.js';
import { startTestServer, type TestServer } from '../../support/servers.js';
import { startWebhookPeer, WEBHOOK_SECRET, type WebhookPeer } from '../../support/peers.js';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Parses every HTTP/1.1 response in `text` (pipelined answers come one after the other). */
function parseResponses(text: string): RawAnswer[] {
  const answers: RawAnswer[] = [];
  let rest = text;
  while (rest.startsWith('HTTP/1.1 ')) {
    const end = rest.indexOf('\r\n\r\n');
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    // The text is latin1 (one character per byte), so lengths in characters are lengths in bytes.
    const body = Buffer.from(rest.slice(end + 4, end + 4 + length), 'latin1').toString('utf8');
    answers.push({ status: Number(statusLine!.split(' ')[1]), headers, body });
    rest = rest.slice(end + 4 + length);
  }
  return answers;
}

/** Writes raw bytes to the server and collects everything it answers until it closes (or `waitMs`). */
function raw(url: string, ...chunks: { afterMs: number; text: string }[]): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    socket.on('data', (data) => (received += data.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(received));
    for (const chunk of chunks) setTimeout(() => socket.writable && socket.write(chunk.text), chunk.afterMs);
    setTimeout(() => socket.destroy(), 20_000);
  });
}

/** The envelope and every security header the application sets on its own answers. */
function expectEnvelopeWithHeaders(answer: RawAnswer, status: number): Record<string, unknown> {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(answer.headers['content-security-policy']).toContain("default-src 'self'");
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  expect(answer.headers['x-frame-options']).toBe('DENY');
  expect(answer.headers['strict-transport-security']).toContain('max-age=');
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(Object.keys(ErrorSchema.properties).sort());
  expect(body.ok).toBe(false);
  return body;
}

let server: TestServer;
let crm: WebhookPeer;
beforeAll(async () => {
  crm = await startWebhookPeer();
  crm.delayMs = 1_500;
  server = await startTestServer({
    env: {
      PUBLIC_BASE_URL: 'https://www.example.com',
      LEAD_DELIVERY: 'crm',
      CRM_WEBHOOK_URL: crm.url,
      CRM_WEBHOOK_SECRET: WEBHOOK_SECRET,
      DELIVERY_INLINE_BUDGET_MS: '1000',
    },
  });
});
afterAll(async () => {
  await server.close();
  await crm.close();
});

describe('errors raised before any route answer with the envelope and the security headers', () => {
  it('a malformed percent-escape in the path (FST_ERR_BAD_URL), without echoing the path', async () => {
    const [answer] = parseResponses(
      await raw(server.url, {
        afterMs: 0,
        text: 'GET /%ff<script> HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      }),
    );
    const body = expectEnvelopeWithHeaders(answer!, 400);
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(body.message).toBe('Invalid request: path holds a malformed percent-escape.');
    expect(answer!.body).not.toContain('%ff');
    expect(answer!.body).not.toContain('script');
  });

  it("Node's 400 for a malformed request", async () => {
    const [answer] = parseResponses(
      await raw(server.url, { afterMs: 0, text: 'GET / HTTP/1.1\r\nBad Header\r\n\r\n' }),
    );
    expect(expectEnvelopeWithHeaders(answer!, 400).code).toBe('VALIDATION_ERROR');
  });

  it("Node's 431 for headers that are too large", async () => {
    const [answer] = parseResponses(
      await raw(server.url, {
        afterMs: 0,
        text: `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      }),
    );
    expect(expectEnvelopeWithHeaders(answer!, 431).error).toBe('Request header fields too large');
  });

  it("Node's 408 for headers that never finish", async () => {
    const [answer] = parseResponses(
      await raw(server.url, { afterMs: 0, text: 'GET / HTTP/1.1\r\nHost: x\r\n' }),
    );
    expect(expectEnvelopeWithHeaders(answer!, 408).error).toBe('Request timeout');
  }, 20_000);
});

describe('shutdown', () => {
  it('answers a request arriving while the server closes with 503, the envelope and Retry-After', async () => {
    // The first request waits on the slow CRM (the inline budget); the second, pipelined on the same
    // connection after close() began, meets the closing server.
    const lead = JSON.stringify({ name: 'Dana Reyes', email: 'dana@example.com' });
    const answering = raw(
      server.url,
      {
        afterMs: 0,
        text: `POST /api/leads HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${lead.length}\r\n\r\n${lead}`,
      },
      { afterMs: 400, text: 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n' },
    );
    setTimeout(() => void server.app.close(), 200);
    const [first, second] = parseResponses(await answering);
    expect(first!.status).toBe(200);
    const body = expectEnvelopeWithHeaders(second!, 503);
    expect(body.code).toBe('INTERNAL_ERROR');
    expect(second!.headers['retry-after']).toBe('5');
  });
});
