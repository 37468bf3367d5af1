import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LogDestination } from '../../src/runtime/server.js';
import {
  LOG_BATCH_BYTES,
  LOG_FLUSH_INTERVAL_MS,
  TERMINAL_UNSAFE_IN_JSON,
} from '../../src/runtime/log-destination.js';
import { createLogProvider } from '../../src/submissions/providers/index.js';
import { type SubmissionRecord } from '../../src/submissions/index.js';
import { tempDir } from '../support/files.js';
import { escapeJsonForTerminal } from '../../src/text/index.js';

const fds: number[] = [];
afterEach(() => {
  for (const fd of fds.splice(0)) closeSync(fd);
});
const open = (path: string) => {
  const fd = openSync(path, 'w');
  fds.push(fd);
  return fd;
};
/**
 * /dev/full stays open until the process ends: a failed write may still be in flight in the
 * thread pool when the test ends, and closing its descriptor would let that write land in the
 * next test's file, which reuses the number.
 */
const openFull = () => openSync('/dev/full', 'w');
const flushed = (destination: LogDestination) =>
  new Promise<Error | null>((done) => destination.flush((error) => done(error ?? null)));

const submission: SubmissionRecord = {
  id: '0f6b3a52-8d0e-4c4a-9a55-6d1f7b6e0c11',
  kind: 'lead',
  receivedAtMs: Date.UTC(2026, 0, 5),
  provider: 'log',
  fields: { name: 'Dana Reyes', email: 'dana@example.com' },
  requestId: 'r1',
  clientIp: '127.0.0.1',
  userAgent: null,
  idempotencyKey: null,
  delivery: null,
} as unknown as SubmissionRecord;

describe('LogDestination', () => {
  it('reports a flush once the lines are in the file', async () => {
    const file = join(tempDir('fd-log-'), 'out.log');
    const destination = new LogDestination(open(file));
    destination.write('{"msg":"one"}\n');
    destination.write('{"msg":"two"}\n');
    expect(await flushed(destination)).toBeNull();
    expect(readFileSync(file, 'utf8')).toBe('{"msg":"one"}\n{"msg":"two"}\n');
  });

  it('gathers many lines into few writes, in order', async () => {
    const file = join(tempDir('fd-log-'), 'out.log');
    const destination = new LogDestination(open(file));
    const lines = Array.from(
      { length: 2000 },
      (_, i) => `{"msg":"request ${String(i).padStart(4, '0')}","pad":"${'x'.repeat(60)}"}\n`,
    );
    for (const line of lines) destination.write(line);
    expect(await flushed(destination)).toBeNull();
    expect(readFileSync(file, 'utf8')).toBe(lines.join(''));
    const bytes = lines.join('').length;
    // One write per full batch, plus the rest at the flush (a write in flight may take more).
    expect(destination.stats.writes).toBeLessThanOrEqual(Math.ceil(bytes / LOG_BATCH_BYTES) + 1);
  });

  it('keeps the order of short lines, lines longer than a batch and multi-byte text', async () => {
    const file = join(tempDir('fd-log-'), 'out.log');
    const destination = new LogDestination(open(file));
    const lines: string[] = [];
    for (let i = 0; i < 300; i += 1) {
      if (i % 50 === 7) lines.push(`{"msg":"long ${i}","pad":"${'y'.repeat(LOG_BATCH_BYTES + i)}"}\n`);
      else if (i % 3 === 0) lines.push(`{"msg":"données ${i} — “€” 日本語 🙂"}\n`);
      else lines.push(`{"msg":"short ${i}"}\n`);
      destination.write(lines[i]!);
    }
    expect(await flushed(destination)).toBeNull();
    expect(readFileSync(file, 'utf8')).toBe(lines.join(''));
  });

  it('tests for exactly the characters the terminal escape replaces', () => {
    for (let code = 0; code <= 0xffff; code += 1) {
      const char = String.fromCharCode(code);
      expect(TERMINAL_UNSAFE_IN_JSON.test(char), `U+${code.toString(16)}`).toBe(
        escapeJsonForTerminal(char) !== char,
      );
    }
  });

  it('writes a lone line within the flush interval, without being asked to flush', async () => {
    const file = join(tempDir('fd-log-'), 'out.log');
    const destination = new LogDestination(open(file));
    destination.write('{"msg":"quiet server"}\n');
    expect(readFileSync(file, 'utf8')).toBe('');
    const deadline = Date.now() + LOG_FLUSH_INTERVAL_MS + 2_000;
    while (readFileSync(file, 'utf8') === '' && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(readFileSync(file, 'utf8')).toBe('{"msg":"quiet server"}\n');
  });

  it('writes at once when idle and in batches when busy', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const file = join(tempDir('fd-log-'), 'out.log');
      const destination = new LogDestination(open(file));
      // The write itself is real (the thread pool): wait for it by turns, not by a clock.
      const afterWrites = async (count: number) => {
        for (let turn = 0; turn < 100_000 && destination.stats.writes < count; turn += 1)
          await new Promise((resolve) => setImmediate(resolve));
        return readFileSync(file, 'utf8');
      };
      destination.write('{"msg":"listening"}\n');
      destination.write('{"msg":"same turn"}\n');
      expect(readFileSync(file, 'utf8')).toBe('');
      vi.advanceTimersByTime(0);
      expect(await afterWrites(1)).toBe('{"msg":"listening"}\n{"msg":"same turn"}\n');

      // Just after a write, the next line waits for the interval and the lines after it.
      destination.write('{"msg":"request 1"}\n');
      vi.advanceTimersByTime(LOG_FLUSH_INTERVAL_MS - 1);
      destination.write('{"msg":"request 2"}\n');
      for (let turn = 0; turn < 100; turn += 1) await new Promise((resolve) => setImmediate(resolve));
      expect(destination.stats.writes).toBe(1);
      vi.advanceTimersByTime(1);
      expect(await afterWrites(2)).toBe(
        '{"msg":"listening"}\n{"msg":"same turn"}\n{"msg":"request 1"}\n{"msg":"request 2"}\n',
      );
    } finally {
      vi.useRealTimers();
    }
  });

  it('writes C1 and bidi controls of logged values as JSON escapes (inert in a terminal, equal once parsed)', async () => {
    const file = join(tempDir('fd-log-'), 'out.log');
    const destination = new LogDestination(open(file));
    const userAgent = 'Mozilla \u009b2J\u0085\u202eevil\u2028';
    pino({}, destination).info({ userAgent }, 'request');
    expect(await flushed(destination)).toBeNull();
    const written = readFileSync(file, 'utf8');
    expect(written).toContain('Mozilla \\u009b2J\\u0085\\u202eevil\\u2028');
    expect(written.trimEnd()).not.toMatch(/[\p{Cc}\u2028\u202e]/u);
    expect(JSON.parse(written).userAgent).toBe(userAgent);
  });

  it('reports ENOSPC instead of looping, keeps serving writes, and drops beyond its buffer', async () => {
    const destination = new LogDestination(openFull(), 1024);
    destination.write('{"msg":"lost"}\n');
    const error = await flushed(destination);
    expect((error as { code?: string }).code).toBe('ENOSPC');
    expect(destination.stats.writeErrors).toBeGreaterThan(0);
    for (let i = 0; i < 200; i += 1) destination.write(`{"msg":"line ${i}"}\n`);
    expect(destination.stats.droppedLines).toBeGreaterThan(0);
    expect(((await flushed(destination)) as { code?: string }).code).toBe('buffer_full');
    await destination.drain(50); // bounded: returns although nothing can be written
  });
});

describe('the log delivery provider', () => {
  it('counts a line as delivered only once it is written', async () => {
    const file = join(tempDir('fd-log-'), 'out.log');
    const provider = createLogProvider(pino({ level: 'warn' }, new LogDestination(open(file))));
    const result = await provider.deliver(submission, 1, AbortSignal.timeout(2000));
    expect(result).toEqual({ outcome: 'delivered' });
    expect(JSON.parse(readFileSync(file, 'utf8')).submissionId).toBe(submission.id);
  });

  it('answers retry when the disk is full (ENOSPC)', async () => {
    const provider = createLogProvider(pino({}, new LogDestination(openFull())));
    const result = await provider.deliver(submission, 1, AbortSignal.timeout(2000));
    expect(result).toEqual({ outcome: 'retry', errorClass: 'log_enospc', retryAfterMs: null });
  });
});
