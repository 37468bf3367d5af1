import { tracingChannel } from 'node:diagnostics_channel';
import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { describe, expect, it } from 'vitest';
import { requestCompletedLogger } from '../../src/http/request-completed-line.js';
import { createLogger } from '../../src/runtime/server.js';

/** A destination that keeps every line as written. */
function capture(): DestinationStream & { lines: string[] } {
  const lines: string[] = [];
  return { lines, write: (line: string) => void lines.push(line) };
}

/** The fast path's request logger (ask-fast-path.ts) over `base`. */
const fastPathLog = (base: Logger): Logger =>
  base.child(
    { req: { method: 'GET', url: '/ask' }, res: { statusCode: 200 }, fastPath: true },
    { redact: { paths: [] } },
  );

// A UUID, a proxy's id with every character request-id.ts keeps (over pino's 100-character bound,
// where it switches to JSON.stringify), and response times of every form a number prints in.
const IDS = ['3f1e0c9a-7b2d-4c51-9e8f-0a6b5d4c3e21', `${'Aa0._:@+=/-'.repeat(11)}z`.slice(0, 128)];
const TIMES = [0.3121449999998731, 32.5, 1e-7, 12_345_678.9, 0, 7];

/** Both lines for every id and time: the one built here, then pino's own (`wrap` makes a child of the fast path's logger). */
function bothLines(options: LoggerOptions = {}, wrap: (log: Logger) => Logger = (log) => log) {
  const direct = capture();
  const viaPino = capture();
  // A fixed time, so the two lines can be compared byte for byte.
  const config = { level: 'info', timestamp: () => ',"time":1795730000000', ...options };
  const built = requestCompletedLogger(wrap(fastPathLog(pino(config, direct))));
  const reference = wrap(fastPathLog(pino(config, viaPino)));
  for (const id of IDS)
    for (const time of TIMES) {
      built(id, time);
      reference.info({ requestId: id, responseTime: time }, 'request completed');
    }
  return { direct: built.direct, lines: direct.lines, expected: viaPino.lines };
}

describe('requestCompletedLogger', () => {
  it('writes, for the logger the server makes, the very line pino writes', () => {
    const built = capture();
    const reference = capture();
    const log = requestCompletedLogger(fastPathLog(createLogger({ logLevel: 'info' }, built)));
    const pinoLog = fastPathLog(createLogger({ logLevel: 'info' }, reference));
    expect(log.direct).toBe(true);
    for (const id of IDS)
      for (const time of TIMES) {
        log(id, time);
        pinoLog.info({ requestId: id, responseTime: time }, 'request completed');
      }
    // The server's timestamp is the clock: the lines agree once their times are set equal.
    const timeless = (line: string) => line.replace(/"time":\d+/, '"time":0');
    expect(built.lines.map(timeless)).toEqual(reference.lines.map(timeless));
    for (const line of built.lines) {
      expect(line.endsWith('}\n')).toBe(true);
      expect(JSON.parse(line)).toMatchObject({ level: 30, msg: 'request completed', fastPath: true });
    }
  });

  it('writes the same bytes as pino under other timestamps, message keys, levels and line ends', () => {
    for (const options of [
      {},
      { messageKey: 'message' },
      { timestamp: pino.stdTimeFunctions.isoTime },
      { base: { service: 'frontdoor', region: 'eu "west"' } },
      { crlf: true },
      { formatters: { level: (label: string) => ({ severity: label.toUpperCase() }) } },
    ] satisfies LoggerOptions[]) {
      const { direct, lines, expected } = bothLines(options);
      expect(direct).toBe(true);
      const fixedTime = (line: string) => line.replace(/"time":"[^"]*"/, '"time":"T"');
      expect(lines.map(fixedTime)).toEqual(expected.map(fixedTime));
    }
  });

  it('leaves the line to pino when pino would write it differently', () => {
    const cases: [string, LoggerOptions, ((log: Logger) => Logger)?][] = [
      ['a mixin', { mixin: () => ({ tenant: 'a' }) }],
      [
        'a logMethod hook',
        {
          hooks: {
            logMethod(args, method) {
              method.apply(this, args);
            },
          },
        },
      ],
      ['a streamWrite hook', { hooks: { streamWrite: (line) => line.replace('completed', 'done') } }],
      ['a message prefix', { msgPrefix: '[fd] ' }],
      ['a log formatter', { formatters: { log: (object) => ({ ...object, extra: true }) } }],
      ['a nested key', { nestedKey: 'payload' }],
      ['a serializer of requestId', { serializers: { requestId: (id: string) => id.slice(0, 8) } }],
      ['redaction of responseTime', {}, (log) => log.child({}, { redact: ['responseTime'] })],
      ['a wildcard redaction', {}, (log) => log.child({}, { redact: ['*.secret'] })],
    ];
    for (const [name, options, wrap] of cases) {
      const { direct, lines, expected } = bothLines(options, wrap);
      expect(direct, name).toBe(false);
      expect(lines, name).toEqual(expected);
    }
    // A destination that wants each line's metadata (pino.multistream) gets it from pino.
    const streams = pino.multistream([{ stream: capture() }]);
    expect(requestCompletedLogger(pino({}, streams)).direct).toBe(false);
  });

  it('sends the line through pino while its serialisation is traced', () => {
    const out = capture();
    const log = requestCompletedLogger(fastPathLog(createLogger({ logLevel: 'info' }, out)));
    const traced: unknown[] = [];
    const ignore = () => {};
    const subscriber = {
      start: (message: unknown) => void traced.push(message),
      end: ignore,
      asyncStart: ignore,
      asyncEnd: ignore,
      error: ignore,
    };
    const trace = tracingChannel('pino_asJson');
    trace.subscribe(subscriber);
    try {
      log(IDS[0]!, 1.5);
    } finally {
      trace.unsubscribe(subscriber);
    }
    expect(traced).toHaveLength(1);
    log(IDS[0]!, 2.5);
    expect(traced).toHaveLength(1);
    expect(out.lines.map((line) => JSON.parse(line).responseTime)).toEqual([1.5, 2.5]);
  });
});
