import { tracingChannel } from 'node:diagnostics_channel';
import { symbols, type Logger } from 'pino';

/** Logs that a request was answered: its id and how long it took (ms). */
export interface LogRequestCompleted {
  (requestId: string, responseTime: number): void;
  /** True when the line is built here, false when pino writes it (see requestCompletedLogger). */
  readonly direct: boolean;
}

const MESSAGE = 'request completed';

/** The channel pino traces its serialisation on: while someone listens, pino writes the line. */
const serialisationTrace = tracingChannel('pino_asJson');

/** pino's internals read through its exported symbols (`pino.symbols`, for integrations). */
type PinoInternals = Record<symbol, unknown>;
/** All of them: the typings leave some out (msgPrefixSym). */
const sym = symbols as unknown as Readonly<Record<string, symbol>>;

/**
 * What `log.info({ requestId, responseTime }, 'request completed')` writes, built from the
 * logger's own parts (its level prefix, timestamp, bound fields, line end, destination) instead of
 * through pino's general path, which walks the object through serializers, redaction and hooks:
 * on the `/ask` fast path this saves ~0.7 µs of a ~26 µs answer (docs/benchmarks.md). The two fields
 * need no escaping: a request id is a UUID or a proxy's id of `[A-Za-z0-9._:@+=/-]`
 * (request-id.ts), and a response time is a finite number.
 *
 * Whatever could make pino write a different line (a mixin, hooks, a message prefix, a log
 * formatter, a nested key, serializers or redaction of these keys, a destination that wants the
 * line's metadata, a subscriber to pino's serialisation trace) sends the line through pino
 * instead. A test compares the two lines for the logger the server makes.
 */
export function requestCompletedLogger(log: Logger): LogRequestCompleted {
  const throughPino = (requestId: string, responseTime: number): void =>
    log.info({ requestId, responseTime }, MESSAGE);
  const viaPino: LogRequestCompleted = Object.assign(throughPino, { direct: false });
  const own = log as unknown as PinoInternals;
  // A symbol this pino does not have reads as undefined, and the checks below then fail safe.
  const internal = (name: string): unknown => {
    const key = sym[name];
    return key === undefined ? undefined : own[key];
  };
  const messageKey = internal('messageKeySym');
  const serializers = internal('serializersSym') as Record<string, unknown> | undefined;
  const stringifiers = internal('stringifiersSym') as Record<string | symbol, unknown> | undefined;
  const hooks = internal('hooksSym') as Record<string, unknown> | undefined;
  const formatters = internal('formattersSym') as Record<string, unknown> | undefined;
  const stream = internal('streamSym') as ({ write(line: string): unknown } & PinoInternals) | undefined;
  const levelPrefixes = internal('lsCacheSym') as Record<number, string> | undefined;
  const time = internal('timeSym');
  const bound = internal('chindingsSym');
  const end = internal('endSym');
  const level = log.levels.values.info;
  const wildcard = sym.wildcardFirstSym;
  const needsMetadata = sym.needsMetadataGsym;
  if (
    typeof messageKey !== 'string' ||
    !serializers ||
    !stringifiers ||
    !hooks ||
    !formatters ||
    !stream ||
    typeof stream.write !== 'function' ||
    level === undefined ||
    typeof levelPrefixes?.[level] !== 'string' ||
    typeof time !== 'function' ||
    typeof bound !== 'string' ||
    typeof end !== 'string' ||
    wildcard === undefined ||
    needsMetadata === undefined
  )
    return viaPino;
  const keys = ['requestId', 'responseTime', messageKey];
  const plain =
    !internal('mixinSym') &&
    hooks.logMethod === undefined &&
    hooks.streamWrite === undefined &&
    typeof internal('msgPrefixSym') !== 'string' &&
    formatters.log === undefined &&
    !internal('nestedKeySym') &&
    stringifiers[wildcard] === undefined &&
    keys.every((key) => serializers[key] === undefined && stringifiers[key] === undefined) &&
    !keys.includes(internal('errorKeySym') as string) &&
    stream[needsMetadata] !== true;
  if (!plain) return viaPino;

  const prefix = levelPrefixes[level]!;
  const tail = `,"${messageKey}":${JSON.stringify(MESSAGE)}${end}`;
  const direct = (requestId: string, responseTime: number): void => {
    if (serialisationTrace.hasSubscribers || !Number.isFinite(responseTime))
      return throughPino(requestId, responseTime);
    stream.write(
      prefix +
        (time as () => string).call(log) +
        bound +
        ',"requestId":"' +
        requestId +
        '","responseTime":' +
        responseTime +
        tail,
    );
  };
  return Object.assign(direct, { direct: true });
}
