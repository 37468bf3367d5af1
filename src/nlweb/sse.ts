import type { ServerResponse } from 'node:http';
import { STREAM_COMPLETE, type NlWebContentItem, type NlWebResponse } from '../contract/index.js';

/** The response a stream writes to: a Node ServerResponse, or anything that behaves like one. */
export type EventSink = Pick<
  ServerResponse,
  'write' | 'end' | 'on' | 'off' | 'once' | 'writeHead' | 'writableNeedDrain' | 'writableEnded' | 'destroy'
> & { readonly destroyed: boolean };

export const EVENT_STREAM_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  // Stops nginx-style proxies from buffering the stream.
  'x-accel-buffering': 'no',
};

export const HEARTBEAT = ': keep-alive\n\n';

/** One unnamed SSE event: `data: <one line of JSON>` and a blank line. */
export function formatEvent(payload: unknown): string {
  // JSON.stringify escapes CR and LF inside strings, so the data is always one line.
  return `data: ${JSON.stringify(payload)}\n\n`;
}

/**
 * The events of a streamed answer, in the framing NLWeb clients consume: `{"_meta": …}` alone,
 * then `{"content": [the text item]}`, then the resources in batches, then
 * `{"message_type":"complete"}` (STREAM_COMPLETE) saying the answer is whole. Merging every
 * `_meta` and concatenating every `content` gives back `response` exactly.
 */
export function streamEvents(response: NlWebResponse, batchSize: number): unknown[] {
  const events: unknown[] = [{ _meta: response._meta }];
  const [first, ...rest] = response.content as [NlWebContentItem, ...NlWebContentItem[]];
  events.push({ content: [first] });
  for (let i = 0; i < rest.length; i += batchSize) events.push({ content: rest.slice(i, i + batchSize) });
  events.push(STREAM_COMPLETE);
  return events;
}

export interface EventStreamOptions {
  heartbeatMs: number;
  /** A client that reads nothing for this long has its connection closed. */
  drainTimeoutMs: number;
  /** Extra response headers (security, CORS). */
  headers?: Readonly<Record<string, string>>;
}

/**
 * An open Server-Sent Events response. Stops all work when the response closes (`res` 'close',
 * which fires for a finished response and for a client that went away), waits for 'drain' when a
 * write is buffered, and sends heartbeat comments while open.
 */
export class EventStream {
  private closedFlag = false;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly closeListeners: (() => void)[] = [];
  private readonly onClose = () => this.shutdown();

  constructor(
    private readonly res: EventSink,
    private readonly options: EventStreamOptions,
  ) {
    res.on('close', this.onClose);
    res.writeHead(200, { ...options.headers, ...EVENT_STREAM_HEADERS });
    this.heartbeat = setInterval(() => this.beat(), options.heartbeatMs);
    this.heartbeat.unref();
    if (res.destroyed) this.shutdown();
  }

  get closed(): boolean {
    return this.closedFlag;
  }

  /** Runs `listener` once when the stream closes (at once if it already has). */
  onClosed(listener: () => void): void {
    if (this.closedFlag) listener();
    else this.closeListeners.push(listener);
  }

  /** Writes one event; resolves false when the client is gone (stop producing then). */
  async send(payload: unknown): Promise<boolean> {
    return this.write(formatEvent(payload));
  }

  /** Ends the response normally. */
  end(): void {
    if (this.closedFlag) return;
    clearInterval(this.heartbeat);
    this.res.end();
  }

  private async write(chunk: string): Promise<boolean> {
    if (this.closedFlag) return false;
    if (!this.res.write(chunk)) await this.drain();
    return !this.closedFlag;
  }

  /** Waits until the buffered data has gone out, the client has gone, or the drain timeout. */
  private drain(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      // A client that stopped reading must not hold its buffers and its slot forever.
      const timer = setTimeout(() => {
        this.res.destroy();
        this.shutdown();
        done();
      }, this.options.drainTimeoutMs);
      this.res.once('drain', done);
      this.res.once('close', done);
    });
  }

  private beat(): void {
    // While a write waits for 'drain', adding more would only grow the buffer.
    if (this.closedFlag || this.res.writableNeedDrain || this.res.writableEnded) return;
    this.res.write(HEARTBEAT);
  }

  private shutdown(): void {
    if (this.closedFlag) return;
    this.closedFlag = true;
    clearInterval(this.heartbeat);
    this.res.off('close', this.onClose);
    for (const listener of this.closeListeners.splice(0)) listener();
  }
}
