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
  /** Lines dropped because the buffer was full. */
  droppedLines: number;
  /** Failed writes (ENOSPC, EIO, EPIPE...). */
  writeErrors: number;
  lastErrorCode: string | null;
}

/** Bytes of log lines gathered before one write to the descriptor. */
export const LOG_BATCH_BYTES = 4096;
/** Longest time a line waits in the batch (a quiet server still logs within this). */
export const LOG_FLUSH_INTERVAL_MS = 200;

/**
 * The server's log stream: pino's asynchronous SonicBoom on a file descriptor, so a slow or full
 * disk never blocks serving. It is built here rather than with `pino.destination()`, whose exit
 * hook flushes synchronously and retries a failing write forever (a full disk hung SIGTERM).
 *
 * `flush(cb)` (what pino's `logger.flush` calls) reports when every byte accepted so far has been
 * written to the descriptor, or the write error that stopped it: the `log` delivery provider counts
 * a submission as delivered only then. A failed write stays buffered and is tried again with the
 * next line, up to LOG_BUFFER_LIMIT_BYTES; beyond that, lines are dropped and counted.
 */
export class LogDestination {
  private readonly boom: SonicBoom;
  private accepted = 0;
  private written = 0;
  private lineDropped = false;
  private waiters: { target: number; done: (error: Error | null) => void }[] = [];
  readonly stats: LogDestinationStats = { droppedLines: 0, writeErrors: 0, lastErrorCode: null };

  constructor(fd = 1, bufferLimitBytes = LOG_BUFFER_LIMIT_BYTES) {
    // Lines are gathered up to LOG_BATCH_BYTES before a write (one write per line cost a third of
    // /ask's throughput at info), and never wait longer than LOG_FLUSH_INTERVAL_MS.
    this.boom = new SonicBoom({
      fd,
      sync: false,
      maxLength: bufferLimitBytes,
      minLength: LOG_BATCH_BYTES,
      periodicFlush: LOG_FLUSH_INTERVAL_MS,
    });
    this.boom.on('write', (bytes: number) => {
      this.written += bytes;
      const ready = this.waiters.filter((waiter) => waiter.target <= this.written);
      if (ready.length === 0) return;
      this.waiters = this.waiters.filter((waiter) => waiter.target > this.written);
      for (const waiter of ready) waiter.done(null);
    });
    this.boom.on('drop', () => {
      this.lineDropped = true;
      this.stats.droppedLines += 1;
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
    this.lineDropped = false;
    const more = this.boom.write(line);
    if (!this.lineDropped) this.accepted += Buffer.byteLength(line);
    return more;
  }

  /** Calls back once everything accepted so far is written; an error when the last line was dropped or a write failed. */
  flush(callback: (error?: Error | null) => void): void {
    if (this.lineDropped) {
      callback(new LogWriteError('buffer_full'));
      return;
    }
    if (this.written >= this.accepted) {
      callback(null);
      return;
    }
    // A write that failed earlier is tried again with the next line; until then this waits.
    this.waiters.push({ target: this.accepted, done: (error) => callback(error) });
    // Lines below the batch size are written now rather than at the next periodic flush.
    this.boom.flush();
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
