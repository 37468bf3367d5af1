import { once } from 'node:events';
import {
  createServer,
  get as httpGet,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { NlWebResponse } from '../../../src/contract/index.js';
import {
  EventStream,
  formatEvent,
  HEARTBEAT,
  StreamRegistry,
  streamEvents,
  type EventSink,
} from '../../../src/nlweb/index.js';
import { parseEventStream, reassemble } from '../../nlweb/helpers.js';

/** A response stand-in that accepts data slowly, counting what a careless writer would do. */
class SlowSink extends Writable {
  status = 0;
  headers: Record<string, string> = {};
  chunks: string[] = [];
  writesWhileFull = 0;
  maxBuffered = 0;
  drains = 0;

  constructor(
    private readonly delayMs: number | null,
    highWaterMark: number,
  ) {
    super({ highWaterMark, decodeStrings: false });
    this.on('drain', () => this.drains++);
  }

  writeHead(status: number, headers: Record<string, string>): this {
    this.status = status;
    this.headers = headers;
    return this;
  }

  override write(chunk: string): boolean {
    if (this.writableNeedDrain) this.writesWhileFull++;
    const ok = super.write(chunk);
    this.maxBuffered = Math.max(this.maxBuffered, this.writableLength);
    return ok;
  }

  override _write(chunk: string, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.chunks.push(String(chunk));
    // null: a client that never reads again.
    if (this.delayMs !== null) setTimeout(done, this.delayMs);
  }

  asSink(): EventSink {
    return this as unknown as EventSink;
  }
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function closedPromise(stream: EventStream): Promise<void> {
  return new Promise((resolve) => stream.onClosed(resolve));
}

const ANSWER: NlWebResponse = {
  _meta: { response_type: 'Answer', version: '0.55', request_id: 'r-1', conversation_id: 'c' },
  content: [
    { type: 'text', text: 'Found 7 results.\nSecond line\r\nand a \u2028 separator' },
    ...Array.from({ length: 7 }, (_, i) => ({
      type: 'resource' as const,
      resource: { uri: `https://x.test/${i}`, mimeType: 'text/html', data: { name: `R${i}`, score: 7 - i } },
    })),
  ],
};

describe('event framing', () => {
  it('writes each event as one unnamed data line and a blank line', () => {
    const event = formatEvent({ text: 'a\nb\rc' });
    expect(event).toBe('data: {"text":"a\\nb\\rc"}\n\n');
    expect(event.slice(0, -2)).not.toMatch(/[\r\n]/);
  });

  it('sends _meta alone, then the text item, then resources in batches; reassembly gives the answer back', () => {
    const events = streamEvents(ANSWER, 3) as Record<string, unknown>[];
    expect(events[0]).toEqual({ _meta: ANSWER._meta });
    expect(events[1]).toEqual({ content: [ANSWER.content[0]] });
    expect(events.slice(2, -1).map((e) => (e.content as unknown[]).length)).toEqual([3, 3, 1]);
    expect(events.at(-1)).toEqual({ message_type: 'complete' });
    expect(events.every((e) => Object.keys(e).length === 1)).toBe(true);
    expect(reassemble(events)).toEqual(ANSWER);
    const text = events.map(formatEvent).join('');
    expect(reassemble(parseEventStream(text).events)).toEqual(ANSWER);
  });

  it('streams an answer with only a text item as two events and the end marker', () => {
    const elicitation: NlWebResponse = {
      _meta: { response_type: 'Elicitation', version: '0.55' },
      content: [{ type: 'text', text: 'What would you like to find?' }],
    };
    expect(streamEvents(elicitation, 5)).toEqual([
      { _meta: elicitation._meta },
      { content: elicitation.content },
      { message_type: 'complete' },
    ]);
  });
});

describe('backpressure', () => {
  it('waits for drain instead of piling data onto a slow client, heartbeats included', async () => {
    const sink = new SlowSink(2, 64);
    const stream = new EventStream(sink.asSink(), { heartbeatMs: 1, drainTimeoutMs: 5_000 });
    const payloads = Array.from({ length: 25 }, (_, i) => ({
      content: [{ type: 'text', text: `${i} ${'x'.repeat(150)}` }],
    }));
    for (const payload of payloads) expect(await stream.send(payload)).toBe(true);
    stream.end();
    await once(sink, 'close');

    expect(sink.drains).toBeGreaterThan(0);
    expect(sink.writesWhileFull).toBe(0);
    // Never more than one event waits in the buffer.
    expect(sink.maxBuffered).toBeLessThanOrEqual(Math.max(...payloads.map((p) => formatEvent(p).length)));
    const parsed = parseEventStream(sink.chunks.join(''));
    expect(parsed.events).toEqual(payloads);
    expect(parsed.comments.every((c) => `${c}\n\n` === HEARTBEAT)).toBe(true);
    expect(sink.status).toBe(200);
    expect(sink.headers['content-type']).toBe('text/event-stream; charset=utf-8');
  });

  it('closes the stream of a client that stops reading, after the drain timeout', async () => {
    const sink = new SlowSink(null, 16);
    const stream = new EventStream(sink.asSink(), { heartbeatMs: 1_000, drainTimeoutMs: 30 });
    let closedListener = false;
    stream.onClosed(() => (closedListener = true));
    const started = Date.now();
    expect(await stream.send({ content: ['x'.repeat(100)] })).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    expect(stream.closed).toBe(true);
    expect(closedListener).toBe(true);
    expect(sink.destroyed).toBe(true);
    expect(await stream.send({ content: [] })).toBe(false);
  });
});

describe('over a real socket', () => {
  it('sends heartbeat comments while open, and stops writing once the client is gone', async () => {
    let serverStream: EventStream | null = null;
    let writesAfterClose = 0;
    const url = await listen((_req, res) => {
      const write = res.write.bind(res) as (chunk: string) => boolean;
      res.write = ((chunk: string) => {
        if (serverStream?.closed) writesAfterClose++;
        return write(chunk);
      }) as typeof res.write;
      serverStream = new EventStream(res, {
        heartbeatMs: 20,
        drainTimeoutMs: 1_000,
        headers: { 'access-control-allow-origin': '*' },
      });
      void serverStream.send({ _meta: { version: '0.55' } });
    });

    const response = await new Promise<IncomingMessage>((resolve) => httpGet(`${url}/`, resolve));
    expect(response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['x-accel-buffering']).toBe('no');
    expect(response.headers['access-control-allow-origin']).toBe('*');
    let received = '';
    response.setEncoding('utf8');
    await new Promise<void>((resolve) => {
      response.on('data', (chunk: string) => {
        received += chunk;
        if (received.split(HEARTBEAT).length > 3) resolve();
      });
    });
    expect(
      received.startsWith('data: {"_meta":{"version":"0.55"}}\n\n: keep-alive\n\n: keep-alive\n\n'),
    ).toBe(true);

    response.destroy();
    await closedPromise(serverStream!);
    await sleep(100);
    expect(writesAfterClose).toBe(0);
  });

  it('stops the producer and frees the slot when the client disconnects mid-stream', async () => {
    const registry = new StreamRegistry({ maxStreams: 5, maxStreamsPerClient: 5 });
    let produced = 0;
    let producerDone!: () => void;
    const producerFinished = new Promise<void>((resolve) => (producerDone = resolve));
    const url = await listen((req, res) => {
      const release = registry.tryAcquire(req.socket.remoteAddress ?? '')!;
      const stream = new EventStream(res, { heartbeatMs: 1_000, drainTimeoutMs: 1_000 });
      stream.onClosed(release);
      void (async () => {
        // An endless producer: only the client going away stops it.
        while (await stream.send({ content: [{ type: 'text', text: String(produced) }] })) {
          produced++;
          await sleep(5);
        }
        producerDone();
      })();
    });

    const response = await new Promise<IncomingMessage>((resolve) => httpGet(`${url}/`, resolve));
    await once(response, 'data');
    expect(registry.active).toBe(1);
    response.destroy();
    await producerFinished;
    const producedAtStop = produced;
    expect(registry.active).toBe(0);
    await sleep(50);
    expect(produced).toBe(producedAtStop);
  });
});
