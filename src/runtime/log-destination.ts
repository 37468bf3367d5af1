import { write as fsWrite } from 'node:fs';
import { escapeJsonForTerminal } from '../text/index.js';

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
/**
 * Longest time a line waits in the batch. A line that finds the destination idle (nothing handed
 * over for this long) is written at the end of the current turn instead: a quiet server logs at
 * once ("listening" is not held back while a supervisor waits for it), a busy one in batches.
 */
export const LOG_FLUSH_INTERVAL_MS = 200;
/** A descriptor that is busy (EAGAIN: a full non-blocking pipe) is tried again after this. */
const BUSY_RETRY_MS = 100;
/** Emptied batch buffers kept for the next batches (more are left to the garbage collector). */
const SPARE_BUFFERS = 2;

/** What escapeJsonForTerminal replaces (DEL, C1 controls, line separators, bidi controls); all in the BMP. */
export const TERMINAL_UNSAFE_IN_JSON =
  /[\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** Bytes handed over and not yet written: `buffer[start, end)`. */
interface Pending {
  buffer: Buffer;
  start: number;
  end: number;
}

/**
 * The server's log stream: lines are written asynchronously (the thread pool) to a file descriptor,
 * so a slow or full disk never blocks serving. It is built here rather than with
 * `pino.destination()`, whose exit hook flushes synchronously and retries a failing write forever
 * (a full disk hung SIGTERM).
 *
 * Each line is encoded straight into a batch buffer, and a full batch (or one LOG_FLUSH_INTERVAL_MS
 * old) is written as it is; emptied buffers are reused. Lines never become one large string, which
 * the write would copy again into memory allocated for it (page faults on every batch).
 *
 * `flush(cb)` (what pino's `logger.flush` calls) reports when every byte accepted so far has been
 * written to the descriptor, or the write error that stopped it: the `log` delivery provider counts
 * a submission as delivered only then. A failed write stays buffered and is tried again with the
 * next batch, up to LOG_BUFFER_LIMIT_BYTES; beyond that, lines are dropped and counted.
 */
export class LogDestination {
  private readonly fd: number;
  private readonly limit: number;
  private readonly batchBytes: number;
  private batch: Buffer;
  private filled = 0;
  private batchTimer: NodeJS.Timeout | null = null;
  /** performance.now() of the last hand-over (−∞ before the first). */
  private lastHandOver = -Infinity;
  private readonly queue: Pending[] = [];
  /** Bytes in `queue`. */
  private queued = 0;
  private readonly spare: Buffer[] = [];
  private writing = false;
  private accepted = 0;
  private written = 0;
  private lastLineDropped = false;
  private waiters: { target: number; done: (error: Error | null) => void }[] = [];
  readonly stats: LogDestinationStats = { writes: 0, droppedLines: 0, writeErrors: 0, lastErrorCode: null };

  constructor(fd = 1, bufferLimitBytes = LOG_BUFFER_LIMIT_BYTES) {
    this.fd = fd;
    this.limit = bufferLimitBytes;
    // A batch never exceeds a quarter of the buffer, so one failed write cannot fill it alone.
    this.batchBytes = Math.max(1, Math.min(LOG_BATCH_BYTES, Math.floor(bufferLimitBytes / 4)));
    this.batch = Buffer.allocUnsafeSlow(this.batchBytes);
  }

  write(text: string): boolean {
    // Submitted text (a name, a User-Agent) must not drive the terminal an operator tails the log in.
    // Most lines hold none of those characters: a test finds that for less than the replacement.
    const line = TERMINAL_UNSAFE_IN_JSON.test(text) ? escapeJsonForTerminal(text) : text;
    // At most 3 bytes per UTF-16 unit: a line that may not fit closes the batch first.
    const most = line.length * 3;
    if (this.filled + most > this.batchBytes && this.filled > 0) this.handOver();
    if (most > this.batchBytes) {
      // Longer than a batch: written from its own bytes, after the batch before it.
      const bytes = Buffer.from(line);
      if (!this.accept(bytes.length)) return true;
      this.enqueue(bytes, bytes.length);
      return true;
    }
    const length = this.batch.write(line, this.filled);
    if (!this.accept(length)) return true;
    this.filled += length;
    if (this.filled >= this.batchBytes) this.handOver();
    else if (this.batchTimer === null) {
      const idle = performance.now() - this.lastHandOver >= LOG_FLUSH_INTERVAL_MS;
      // Idle: the lines of this turn go out together right after it.
      this.batchTimer = setTimeout(() => this.handOver(), idle ? 0 : LOG_FLUSH_INTERVAL_MS).unref();
    }
    return true;
  }

  /** Counts a line of `length` bytes in, or drops it when the buffer is full. */
  private accept(length: number): boolean {
    if (this.queued + this.filled + length > this.limit) {
      this.stats.droppedLines += 1;
      this.lastLineDropped = true;
      return false;
    }
    this.lastLineDropped = false;
    this.accepted += length;
    return true;
  }

  /** Queues the gathered lines for writing (the write starts at once if none is running). */
  private handOver(): void {
    if (this.batchTimer !== null) {
      clearTimeout(this.batchTimer);
      this.batchTimer = null;
    }
    if (this.filled === 0) return;
    this.lastHandOver = performance.now();
    const full = this.batch;
    const length = this.filled;
    this.batch = this.spare.pop() ?? Buffer.allocUnsafeSlow(this.batchBytes);
    this.filled = 0;
    this.enqueue(full, length);
  }

  private enqueue(buffer: Buffer, end: number): void {
    this.queue.push({ buffer, start: 0, end });
    this.queued += end;
    // After a failed write, the next batch tries again (no retry loop on a full disk).
    this.writeNext();
  }

  private writeNext(): void {
    if (this.writing) return;
    const next = this.queue[0];
    if (next === undefined) return;
    this.writing = true;
    fsWrite(this.fd, next.buffer, next.start, next.end - next.start, null, (error, bytes) =>
      this.afterWrite(next, error, bytes),
    );
  }

  private afterWrite(done: Pending, error: NodeJS.ErrnoException | null, bytes: number): void {
    if (error) {
      if (error.code === 'EAGAIN' || error.code === 'EBUSY') {
        // A full pipe: try the same bytes again shortly (the flag stays set meanwhile).
        setTimeout(() => {
          this.writing = false;
          this.writeNext();
        }, BUSY_RETRY_MS).unref();
        return;
      }
      this.writing = false;
      this.stats.writeErrors += 1;
      this.stats.lastErrorCode = error.code ?? error.name;
      const waiting = this.waiters;
      this.waiters = [];
      for (const waiter of waiting) waiter.done(new LogWriteError(this.stats.lastErrorCode));
      return;
    }
    this.writing = false;
    this.stats.writes += 1;
    this.written += bytes;
    this.queued -= bytes;
    done.start += bytes;
    if (done.start >= done.end) {
      this.queue.shift();
      if (done.buffer.length === this.batchBytes && this.spare.length < SPARE_BUFFERS)
        this.spare.push(done.buffer);
    }
    if (this.waiters.length > 0) {
      const ready = this.waiters.filter((waiter) => waiter.target <= this.written);
      if (ready.length > 0) {
        this.waiters = this.waiters.filter((waiter) => waiter.target > this.written);
        for (const waiter of ready) waiter.done(null);
      }
    }
    this.writeNext();
  }

  /** Calls back once everything accepted so far is written; an error when the last line was dropped or a write failed. */
  flush(callback: (error?: Error | null) => void): void {
    this.handOver();
    if (this.lastLineDropped) {
      callback(new LogWriteError('buffer_full'));
      return;
    }
    if (this.written >= this.accepted) {
      callback(null);
      return;
    }
    // A write that failed earlier is tried again with the next batch; until then this waits.
    this.waiters.push({ target: this.accepted, done: (error) => callback(error) });
    this.writeNext();
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
