import sonicBoom from 'sonic-boom';
import { escapeJsonForTerminal } from '../submissions/index.js';

// sonic-boom is CommonJS: its class is the default export's `SonicBoom` property.
const { SonicBoom } = sonicBoom;
type SonicBoom = InstanceType<typeof SonicBoom>;

/** Log bytes kept in memory while the destination cannot take them (a full disk); more are dropped. */
export const LOG_BUFFER_LIMIT_BYTES = 8 * 1024 * 1024;

/** An error of the destination, or a line dropped because the buffer was full. */
export class LogWriteError extends Error {
  constructor(readonly code: string) {
    super(`the log line was not written (${code})`);
    this.name = 'LogWriteError';
  }
}

export interface LogDestinationStats {
  /** Writes handed to the descriptor (each carries a batch of lines). */
  writes: number;
  /** Lines dropped because the buffer was full. */
  droppedLines: number;
  /** Failed writes (ENOSPC, EIO, EPIPE...). */
  writeErrors: number;
  lastErrorCode: string | null;
}

/**
 * Bytes of log lines gathered before they are handed to the descriptor in one write. At info every
 * request adds a line (~250 bytes): 32 KB is one write for ~130 requests, where one write per
 * line (or per 4 KB, through the thread pool) cost a third of `/ask`'s throughput.
 */
export const LOG_BATCH_BYTES = 32 * 1024;
/** Longest time a line waits in the batch (a quiet server still logs within this). */
export const LOG_FLUSH_INTERVAL_MS = 200;

/**
 * The server's log stream: pino's asynchronous SonicBoom on a file descriptor, so a slow or full
 * disk never blocks serving. It is built here rather than with `pino.destination()`, whose exit
 * hook flushes synchronously and retries a failing write forever (a full disk hung SIGTERM).
 *
 * Lines are gathered here, in an array, and handed to SonicBoom as one string per batch: SonicBoom
 * appends each line to its pending string and measures that string's UTF-8 length again on every
 * line, which makes many small lines cost more than one large chunk.
 *
 * `flush(cb)` (what pino's `logger.flush` calls) reports when every byte accepted so far has been
 * written to the descriptor, or the write error that stopped it: the `log` delivery provider counts
 * a submission as delivered only then. A failed write stays buffered and is tried again with the
 * next batch, up to LOG_BUFFER_LIMIT_BYTES; beyond that, batches are dropped and their lines counted.
 */
export class LogDestination {
  private readonly boom: SonicBoom;
  private readonly batchBytes: number;
  private batch: string[] = [];
  private batchLength = 0;
  private batchTimer: NodeJS.Timeout | null = null;
  private accepted = 0;
  private written = 0;
  private lastBatchDropped = false;
  private waiters: { target: number; done: (error: Error | null) => void }[] = [];
  readonly stats: LogDestinationStats = { writes: 0, droppedLines: 0, writeErrors: 0, lastErrorCode: null };

  constructor(fd = 1, bufferLimitBytes = LOG_BUFFER_LIMIT_BYTES) {
    // A batch never exceeds a quarter of the buffer, so one failed write cannot fill it alone.
    this.batchBytes = Math.max(1, Math.min(LOG_BATCH_BYTES, Math.floor(bufferLimitBytes / 4)));
    this.boom = new SonicBoom({
      fd,
      sync: false,
      maxLength: bufferLimitBytes,
      // One write may carry a whole batch (SonicBoom's default cuts writes at 16 KB).
      maxWrite: Math.max(this.batchBytes * 2, 16 * 1024),
    });
    this.boom.on('write', (bytes: number) => {
      this.stats.writes += 1;
      this.written += bytes;
      const ready = this.waiters.filter((waiter) => waiter.target <= this.written);
      if (ready.length === 0) return;
      this.waiters = this.waiters.filter((waiter) => waiter.target > this.written);
      for (const waiter of ready) waiter.done(null);
    });
    this.boom.on('drop', (data: string) => {
      this.lastBatchDropped = true;
      this.stats.droppedLines += countLines(data);
    });
    // Without this listener an ENOSPC would be an uncaught 'error' event and end the process.
    this.boom.on('error', (error: NodeJS.ErrnoException) => {
      this.stats.writeErrors += 1;
      this.stats.lastErrorCode = error.code ?? error.name;
      const waiting = this.waiters;
      this.waiters = [];
      for (const waiter of waiting) waiter.done(new LogWriteError(this.stats.lastErrorCode));
    });
  }

  write(text: string): boolean {
    // Submitted text (a name, a User-Agent) must not drive the terminal an operator tails the log in.
    const line = escapeJsonForTerminal(text);
    this.batch.push(line);
    this.batchLength += line.length;
    // UTF-16 length ≤ UTF-8 bytes for any text, so a batch hands over no later than at batchBytes.
    if (this.batchLength >= this.batchBytes) this.handOver();
    else this.batchTimer ??= setTimeout(() => this.handOver(), LOG_FLUSH_INTERVAL_MS).unref();
    return true;
  }

  /** Gives the gathered lines to SonicBoom as one string (its write starts at once if none is running). */
  private handOver(): void {
    if (this.batchTimer !== null) {
      clearTimeout(this.batchTimer);
      this.batchTimer = null;
    }
    if (this.batch.length === 0) return;
    const chunk = this.batch.length === 1 ? this.batch[0]! : this.batch.join('');
    this.batch = [];
    this.batchLength = 0;
    this.lastBatchDropped = false;
    this.boom.write(chunk);
    if (!this.lastBatchDropped) this.accepted += Buffer.byteLength(chunk);
  }

  /** Calls back once everything accepted so far is written; an error when the last line was dropped or a write failed. */
  flush(callback: (error?: Error | null) => void): void {
    this.handOver();
    if (this.lastBatchDropped) {
      callback(new LogWriteError('buffer_full'));
      return;
    }
    if (this.written >= this.accepted) {
      callback(null);
      return;
    }
    // A write that failed earlier is tried again with the next line; until then this waits.
    this.waiters.push({ target: this.accepted, done: (error) => callback(error) });
  }

  /** Waits for the buffer to be written, at most `timeoutMs`; never throws (used on the way out). */
  drain(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      timer.unref();
      this.flush(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

function countLines(text: string): number {
  let lines = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines += 1;
  return Math.max(lines, 1);
}
