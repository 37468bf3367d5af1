import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPRESSION_MIN_BYTES } from '../../../src/compression/index.js';
import { waitFor } from '../../support/net.js';
import { startTestServer, type TestServer } from '../../support/servers.js';

/**
 * HTTP compression end to end, over real sockets (the /ask fast path answers ahead of Fastify):
 * negotiation, Vary, an ETag per coding and its 304, bytes identical once decoded, Server-Sent
 * Events left uncompressed, and COMPRESSION=off.
 */
let server: TestServer;
let off: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  off = await startTestServer({ env: { COMPRESSION: 'off' } });
});
afterAll(async () => {
  await server.close();
  await off.close();
});

interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  /** The bytes as sent. */
  body: Buffer;
  /** Decoded from its content-encoding. */
  decoded: Buffer;
  /** The first chunk of the body that arrived. */
  firstChunk: Buffer | null;
}

/** A request over a socket of its own; with a body, a POST. */
function get(base: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${base}${path}`,
      { headers, method: body === undefined ? 'GET' : 'POST' },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          const coding = res.headers['content-encoding'];
          const decoded =
            coding === 'br' ? brotliDecompressSync(body) : coding === 'gzip' ? gunzipSync(body) : body;
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            decoded,
            firstChunk: chunks[0] ?? null,
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** An answer's JSON with its request id blanked (every response has its own). */
const answerText = (bytes: Buffer) =>
  bytes.toString('utf8').replace(/"request_id":"[^"]+"/, '"request_id":"*"');

const NEGOTIATION: [string | undefined, string | undefined][] = [
  ['br', 'br'],
  ['gzip', 'gzip'],
  ['gzip, deflate, br', 'br'],
  ['br;q=0, gzip', 'gzip'],
  ['br;q=0, gzip;q=0', undefined],
  ['identity', undefined],
  ['zstd, compress', undefined],
  [undefined, undefined],
];

describe('pages', () => {
  for (const [acceptEncoding, expected] of NEGOTIATION)
    it(`Accept-Encoding ${JSON.stringify(acceptEncoding)} → ${expected ?? 'identity'}, the same bytes decoded`, async () => {
      const identity = await get(server.url, '/pricing', { 'accept-encoding': 'identity' });
      const headers: Record<string, string> =
        acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding };
      // Asked twice: the first is compressed for its response, the second from the kept variant.
      for (let i = 0; i < 2; i++) {
        const response = await get(server.url, '/pricing', headers);
        expect(response.status).toBe(200);
        expect(response.headers['content-encoding']).toBe(expected);
        expect(response.headers.vary).toBe('Accept, Accept-Encoding');
        expect(response.decoded.equals(identity.body)).toBe(true);
        expect(response.headers['content-length']).toBe(String(response.body.length));
        if (expected) expect(response.body.length).toBeLessThan(identity.body.length / 2);
      }
    });

  it('tags a page compressed for one response weakly, and its kept (smaller) variant strongly: both revalidate', async () => {
    const first = await get(server.url, '/compliance', { 'accept-encoding': 'br' });
    expect(first.headers.etag).toMatch(/^W\/".*\.br"$/);
    // The second request keeps the page; its variants are made on the thread pool, in their own time.
    const kept = await waitFor('the kept brotli variant', async () => {
      const response = await get(server.url, '/compliance', { 'accept-encoding': 'br' });
      return response.headers.etag!.startsWith('W/') ? null : response;
    });
    expect(kept.headers.etag).toBe(first.headers.etag!.slice(2));
    expect(kept.body.length).toBeLessThan(first.body.length);
    expect(kept.decoded.equals(first.decoded)).toBe(true);
    const revalidated = await get(server.url, '/compliance', {
      'accept-encoding': 'br',
      'if-none-match': first.headers.etag!,
    });
    expect(revalidated.status).toBe(304);
  });

  it('has an ETag per coding, and answers 304 only for the coding the client holds', async () => {
    const tags = new Map<string, string>();
    for (const coding of ['br', 'gzip', 'identity']) {
      const response = await get(server.url, '/security', { 'accept-encoding': coding });
      tags.set(coding, response.headers.etag!);
      const again = await get(server.url, '/security', {
        'accept-encoding': coding,
        'if-none-match': response.headers.etag!,
      });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
      expect(again.headers.etag!.replace(/^W\//, '')).toBe(response.headers.etag!.replace(/^W\//, ''));
      expect(again.headers.vary).toBe('Accept, Accept-Encoding');
    }
    expect(new Set(tags.values()).size).toBe(3);
    expect(tags.get('br')!.replace(/^W\//, '')).toBe(tags.get('identity')!.replace(/"$/, '.br"'));
    // The brotli variant's tag does not stand for the gzip variant.
    const other = await get(server.url, '/security', {
      'accept-encoding': 'gzip',
      'if-none-match': tags.get('br')!,
    });
    expect(other.status).toBe(200);
    expect(other.headers['content-encoding']).toBe('gzip');
  });
});

describe('discovery documents and assets', () => {
  it('sends /openapi.json and llms.txt coded, with a tag per coding and its 304', async () => {
    for (const path of ['/openapi.json', '/llms.txt']) {
      const identity = await get(server.url, path);
      const br = await get(server.url, path, { 'accept-encoding': 'br' });
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.decoded.equals(identity.body)).toBe(true);
      expect(br.headers.etag).not.toBe(identity.headers.etag);
      expect(br.headers.vary).toContain('Accept-Encoding');
      const revalidated = await get(server.url, path, {
        'accept-encoding': 'br',
        'if-none-match': br.headers.etag!,
      });
      expect(revalidated.status).toBe(304);
    }
  });

  it('sends the stylesheet coded', async () => {
    const page = (await get(server.url, '/')).body.toString('utf8');
    const css = /href="(\/assets\/[^"]+\.css[^"]*)"/.exec(page)![1]!.replace(/&amp;/g, '&');
    const identity = await get(server.url, css);
    const gzip = await get(server.url, css, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.decoded.equals(identity.body)).toBe(true);
  });
});

describe('/ask', () => {
  it('negotiates a JSON answer like a page, and the decoded answer is the identity answer', async () => {
    const question = `/ask?query=${encodeURIComponent('protocol amendments and consent')}`;
    for (const [acceptEncoding, expected] of NEGOTIATION) {
      const identity = await get(server.url, question, { 'accept-encoding': 'identity' });
      const headers: Record<string, string> =
        acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding };
      const response = await get(server.url, question, headers);
      expect(response.status).toBe(200);
      // A popular answer (asked more than once: kept) prefers gzip, spliced from bytes deflated once.
      const popularExpected = acceptEncoding === 'gzip, deflate, br' ? 'gzip' : expected;
      expect(response.headers['content-encoding'], String(acceptEncoding)).toBe(popularExpected);
      expect(response.headers.vary).toBe('Accept, Accept-Language, Accept-Encoding');
      expect(answerText(response.decoded)).toBe(answerText(identity.body));
      expect(response.headers['content-length']).toBe(String(response.body.length));
    }
  });

  it('compresses a never-asked answer in brotli when accepted, several times smaller', async () => {
    const question = `/ask?query=${encodeURIComponent('schedule of activities template')}`;
    const br = await get(server.url, question, { 'accept-encoding': 'gzip, deflate, br' });
    const identity = await get(server.url, question, { 'accept-encoding': 'identity' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(answerText(br.decoded)).toBe(answerText(identity.body));
    expect(br.body.length * 3).toBeLessThan(identity.body.length);
  });

  it('sends a POST answer coded too (the route, not the fast path)', async () => {
    const response = await get(
      server.url,
      '/ask',
      { 'content-type': 'application/json', 'accept-encoding': 'br' },
      JSON.stringify({ query: { text: 'electronic signatures' } }),
    );
    expect(response.status, response.decoded.toString('utf8')).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(JSON.parse(response.decoded.toString('utf8'))).toMatchObject({
      _meta: { response_type: 'Answer' },
    });
  });

  it('sends a small answer as it is', async () => {
    const response = await get(server.url, '/ask?query=the%20of%20and', { 'accept-encoding': 'br, gzip' });
    expect(response.body.length).toBeLessThan(COMPRESSION_MIN_BYTES);
    expect(response.headers['content-encoding']).toBeUndefined();
  });

  it('never compresses Server-Sent Events: each event leaves as it is written', async () => {
    const question = '/ask?query=consent&streaming=true';
    const plain = await get(server.url, question);
    const accepted = await get(server.url, question, { 'accept-encoding': 'br, gzip' });
    for (const response of [plain, accepted]) {
      expect(response.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(response.headers['content-encoding']).toBeUndefined();
      // The first bytes received are already a whole event, readable as they are.
      expect(response.firstChunk!.toString('utf8')).toMatch(
        /^(event: [^\n]+\n)?(id: [^\n]+\n)?data: [^\n]+\n\n/,
      );
    }
    const events = (raw: Raw) => raw.body.toString('utf8').replace(/"request_id":"[^"]+"/g, '*');
    expect(events(accepted)).toBe(events(plain));
  });
});

describe('COMPRESSION=off', () => {
  it('sends identity whatever the client accepts, without Vary: Accept-Encoding', async () => {
    for (const path of ['/pricing', '/openapi.json', '/ask?query=consent']) {
      const response = await get(off.url, path, { 'accept-encoding': 'br, gzip' });
      expect(response.status).toBe(200);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.headers.vary ?? '').not.toContain('Accept-Encoding');
    }
  });
});
