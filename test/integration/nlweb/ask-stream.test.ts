import { once } from 'node:events';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NlWebResponse } from '../../../src/contract/index.js';
import { rawRequest, waitFor, type RawResponse } from '../../support/net.js';
import type { AskApp } from '../../support/servers.js';
import { parseEventStream, reassemble, startAskApp, withoutRequestId } from '../../nlweb/helpers.js';

let server: AskApp;
beforeAll(async () => {
  // Batches of two, so that the five pages of the fixture site fill several.
  server = await startAskApp({ streaming: { batchSize: 2 } });
});
afterAll(async () => {
  await server?.close();
});

const SSE = 'text/event-stream; charset=utf-8';

function getAsk(params: Record<string, string>, headers: Record<string, string> = {}): Promise<RawResponse> {
  return rawRequest(`${server.url}/ask?${new URLSearchParams(params).toString()}`, { headers });
}

function postAsk(body: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
  return rawRequest(`${server.url}/ask`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/** Reads a JSON answer, validated against the served contract. */
function json(response: RawResponse, method: 'GET' | 'POST', status = 200): NlWebResponse {
  expect(response.status, response.body).toBe(status);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  const body = JSON.parse(response.body) as NlWebResponse;
  server.contract.expectResponse(method, '/ask', status, 'application/json', body);
  return body;
}

/** Reads a streamed answer: checks the framing and headers, reassembles it by NLWeb's rule. */
function streamed(response: RawResponse, method: 'GET' | 'POST'): NlWebResponse {
  expect(response.status, response.body).toBe(200);
  expect(response.headers['content-type']).toBe(SSE);
  expect(response.headers['cache-control']).toBe('no-cache');
  expect(response.headers['x-accel-buffering']).toBe('no');
  expect(response.headers['access-control-allow-origin']).toBe('*');
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['content-security-policy']).toContain("default-src 'self'");
  expect(response.headers['strict-transport-security']).toContain('max-age=');
  expect(response.headers.vary).toBe('Accept, Accept-Language');
  server.contract.expectResponse(method, '/ask', 200, 'text/event-stream', response.body);

  const { events } = parseEventStream(response.body);
  // The first event carries _meta alone; no later event carries _meta; content follows in small
  // batches; the last event is the end marker NLWeb's chat UI closes its EventSource on.
  expect(Object.keys(events[0]!)).toEqual(['_meta']);
  expect(events.at(-1)).toEqual({ message_type: 'complete' });
  expect(events.filter((event) => 'message_type' in event)).toHaveLength(1);
  for (const event of events.slice(1, -1)) expect(Object.keys(event)).toEqual(['content']);
  const [textEvent, ...resourceEvents] = events.slice(1, -1) as { content: { type: string }[] }[];
  expect(textEvent!.content.map((item) => item.type)).toEqual(['text']);
  for (const event of resourceEvents) {
    expect(event.content.length).toBeGreaterThanOrEqual(1);
    expect(event.content.length).toBeLessThanOrEqual(server.ask.streaming.batchSize);
    expect(event.content.every((item) => item.type === 'resource')).toBe(true);
  }
  const answer = reassemble(events);
  server.contract.expectResponse(method, '/ask', 200, 'application/json', answer);
  return answer;
}

const QUERIES: Record<string, string>[] = [
  { query: 'encryption' },
  { query: 'encryption keys', max_results: '1' },
  { query: 'hosting region widgets', max_results: '7' },
  { query: 'encryption', max_results: '50', conversation_id: 'conv-3' },
  { query: 'zebra quasar' },
  { query: 'the of and' },
];

describe('stream equivalence: the reassembled stream is the JSON answer', () => {
  it.each(QUERIES)('GET %j with streaming=true', async (params) => {
    const fromStream = streamed(await getAsk({ ...params, streaming: 'true' }), 'GET');
    const fromJson = json(await getAsk(params), 'GET');
    expect(withoutRequestId(fromStream)).toEqual(withoutRequestId(fromJson));
    expect(fromStream._meta.request_id).not.toBe(fromJson._meta.request_id);
  });

  it.each(QUERIES)('GET %j with Accept: text/event-stream (EventSource)', async (params) => {
    const fromStream = streamed(await getAsk(params, { accept: 'text/event-stream' }), 'GET');
    const fromJson = json(await getAsk(params, { accept: 'application/json' }), 'GET');
    expect(withoutRequestId(fromStream)).toEqual(withoutRequestId(fromJson));
  });

  it.each(QUERIES)('POST %j with prefer.streaming', async (params) => {
    const body = {
      query: { text: params.query },
      prefer: { mode: 'list', ...(params.max_results ? { max_results: Number(params.max_results) } : {}) },
      ...(params.conversation_id ? { meta: { conversation_id: params.conversation_id } } : {}),
    };
    const fromStream = streamed(
      await postAsk({ ...body, prefer: { ...body.prefer, streaming: true } }),
      'POST',
    );
    const fromJson = json(await postAsk({ ...body, prefer: { ...body.prefer, streaming: false } }), 'POST');
    expect(withoutRequestId(fromStream)).toEqual(withoutRequestId(fromJson));
    const fromAccept = streamed(await postAsk(body, { accept: 'text/event-stream' }), 'POST');
    expect(withoutRequestId(fromAccept)).toEqual(withoutRequestId(fromJson));
  });

  it('streams many results in several batches', async () => {
    const response = await getAsk({ query: 'encryption widgets hosting', max_results: '50', streaming: '1' });
    const answer = streamed(response, 'GET');
    const resources = answer.content.length - 1;
    expect(resources).toBeGreaterThan(server.ask.streaming.batchSize);
    // _meta, the text item, the batches of resources, the end marker.
    expect(parseEventStream(response.body).events).toHaveLength(
      3 + Math.ceil(resources / server.ask.streaming.batchSize),
    );
  });

  it('ends with the event NLWeb’s chat UI closes on, so a client knows the answer is whole', async () => {
    // Read as NLWeb's chat UI does (static/managed-event-source.js): unnamed events, each `data: `
    // line parsed as JSON and dispatched on `message_type`; at "complete" it closes the source.
    // Here the reader stops at that event without waiting for the connection to end.
    const params = { query: 'encryption widgets hosting', max_results: '50' };
    const response = await fetch(`${server.url}/ask?${new URLSearchParams(params).toString()}`, {
      headers: { accept: 'text/event-stream' },
    });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    const events: Record<string, unknown>[] = [];
    let buffer = '';
    let complete = false;
    while (!complete) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let end: number;
      while (!complete && (end = buffer.indexOf('\n\n')) !== -1) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (!line.startsWith('data: ')) continue;
        const message = JSON.parse(line.slice('data: '.length)) as Record<string, unknown>;
        if (message.message_type === 'complete') complete = true;
        else events.push(message);
      }
    }
    await reader.cancel();
    expect(complete).toBe(true);
    // What came before the marker is the whole answer: the JSON body of the same request.
    const fromJson = json(await getAsk({ ...params, streaming: 'false' }), 'GET');
    expect(withoutRequestId(reassemble(events))).toEqual(withoutRequestId(fromJson));
    // A stream cut off before the marker is told apart: every prefix of the stream lacks it.
    const whole = await getAsk({ ...params, streaming: 'true' });
    const cut = whole.body.slice(0, whole.body.lastIndexOf('data: '));
    expect(parseEventStream(cut).events.some((event) => event.message_type === 'complete')).toBe(false);
  });
});

describe('choosing between JSON and a stream', () => {
  it.each([
    ['streaming=false wins over Accept: text/event-stream', { streaming: 'false' }, 'text/event-stream'],
    ['streaming=0 wins over Accept: text/event-stream', { streaming: '0' }, 'text/event-stream'],
    ['Accept ranking JSON first', {}, 'text/event-stream;q=0.5, application/json'],
    ['Accept */*', {}, '*/*'],
    ['no Accept', {}, ''],
  ])('answers JSON with %s', async (_name, params, accept) => {
    const response = await getAsk({ query: 'widgets', ...params }, accept ? { accept } : {});
    json(response, 'GET');
  });

  it('lets prefer.streaming=false win over the Accept header on POST', async () => {
    json(
      await postAsk(
        { query: { text: 'widgets' }, prefer: { streaming: false } },
        { accept: 'text/event-stream' },
      ),
      'POST',
    );
  });

  it('streams for streaming=true whatever the Accept header says', async () => {
    streamed(await getAsk({ query: 'widgets', streaming: 'true' }, { accept: 'application/json' }), 'GET');
  });

  it('answers errors as JSON even when a stream was asked for', async () => {
    const missing = json(await getAsk({ streaming: 'true' }, { accept: 'text/event-stream' }), 'GET', 400);
    expect(missing._meta.response_type).toBe('Elicitation');
    json(await getAsk({ query: 'widgets', streaming: 'maybe' }, { accept: 'text/event-stream' }), 'GET', 400);
    const badPost = json(await postAsk({ query: { text: '' }, prefer: { streaming: true } }), 'POST', 400);
    expect(badPost._meta.response_type).toBe('Elicitation');
  });
});

describe('stream lifecycle and limits', () => {
  it('releases every stream slot once the streams have ended', async () => {
    await Promise.all(
      Array.from({ length: 8 }, (_, i) => getAsk({ query: `encryption ${i}`, streaming: 'true' })),
    );
    await waitFor('every stream slot released', () => server.ask.streams.active === 0);
  });

  it('stops and frees the slot when the client disconnects right after asking', async () => {
    for (let i = 0; i < 5; i++) {
      const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
      await once(socket, 'connect');
      socket.write(
        `GET /ask?query=encryption&max_results=50 HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n`,
      );
      socket.destroy();
    }
    await waitFor('every stream slot released', () => server.ask.streams.active === 0);
    // The server goes on answering.
    streamed(await getAsk({ query: 'widgets', streaming: 'true' }), 'GET');
  });
});

describe('over the stream limits', () => {
  let limited: AskApp;
  beforeAll(async () => {
    limited = await startAskApp({ streaming: { maxStreams: 3, maxStreamsPerClient: 1 } });
  });
  afterAll(async () => {
    await limited?.close();
  });

  async function ask(): Promise<RawResponse> {
    return rawRequest(`${limited.url}/ask?query=encryption`, { headers: { accept: 'text/event-stream' } });
  }

  it('answers with the same answer as one JSON body while this client holds its stream slot', async () => {
    const held = limited.ask.streams.tryAcquire('127.0.0.1')!;
    try {
      const fallback = await ask();
      expect(fallback.status).toBe(200);
      expect(fallback.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(fallback.headers['access-control-allow-origin']).toBe('*');
      const body = JSON.parse(fallback.body) as NlWebResponse;
      limited.contract.expectResponse('GET', '/ask', 200, 'application/json', body);
      const reference = JSON.parse(
        (await rawRequest(`${limited.url}/ask?query=encryption`)).body,
      ) as NlWebResponse;
      expect(withoutRequestId(body)).toEqual(withoutRequestId(reference));
    } finally {
      held();
    }
    expect((await ask()).headers['content-type']).toBe(SSE);
  });

  it('falls back to JSON when all streams are taken by other clients', async () => {
    const others = ['192.0.2.1', '192.0.2.2', '192.0.2.3'].map((ip) => limited.ask.streams.tryAcquire(ip)!);
    try {
      expect((await ask()).headers['content-type']).toBe('application/json; charset=utf-8');
    } finally {
      for (const release of others) release();
    }
    expect((await ask()).headers['content-type']).toBe(SSE);
    await waitFor('every stream slot released', () => limited.ask.streams.active === 0);
  });
});
