/**
 * Short, printable names for what went wrong, for logs and the outbox's `last_error`: never an
 * error's message, which may quote submitted data. PostgreSQL's SQLSTATE codes and the pg driver's
 * fixed messages are named in words beside the code, so an operator need not look `57P01` up.
 */

/** The SQLSTATE codes a running site meets, with the condition name PostgreSQL documents. */
const SQLSTATE_MEANINGS: Readonly<Record<string, string>> = {
  '08000': 'connection exception',
  '08001': 'client unable to establish connection',
  '08003': 'connection does not exist',
  '08004': 'server rejected the connection',
  '08006': 'connection failure',
  '08P01': 'protocol violation',
  '23505': 'unique violation',
  '25P02': 'in failed transaction',
  '28000': 'invalid authorization specification',
  '28P01': 'invalid password',
  '3D000': 'database does not exist',
  '3F000': 'schema does not exist',
  '40001': 'serialization failure',
  '40P01': 'deadlock detected',
  '42501': 'insufficient privilege',
  '42P01': 'table does not exist',
  '53000': 'insufficient resources',
  '53100': 'disk full',
  '53200': 'out of memory',
  '53300': 'too many connections',
  '55P03': 'lock not available',
  '57014': 'query canceled (statement timeout)',
  '57P01': 'admin shutdown (the server is shutting down or this connection was terminated)',
  '57P02': 'crash shutdown',
  '57P03': 'cannot connect now (the server is starting up or shutting down)',
  '58000': 'system error',
  '58030': 'input/output error',
  XX000: 'internal error',
};

/** Node's socket error codes seen when the database is away. */
const SOCKET_MEANINGS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused (nothing listens at the database address)',
  ECONNRESET: 'connection reset by the database or the network',
  ETIMEDOUT: 'network timeout',
  EPIPE: 'connection closed while writing',
  ENOTFOUND: 'database host name not found',
  EHOSTUNREACH: 'database host unreachable',
};

/** Codes of this program's own errors. */
const OWN_MEANINGS: Readonly<Record<string, string>> = {
  schema_not_ready: 'the database schema is still being checked or migrated',
};

/** The pg driver raises these without a code; their texts are fixed strings of the driver. */
const DRIVER_MESSAGES: readonly [RegExp, string, string][] = [
  [/^Connection terminated unexpectedly/, 'connection_terminated', 'the database connection was cut'],
  [/^Connection terminated due to connection timeout/, 'connect_timeout', 'connecting took too long'],
  [/^timeout exceeded when trying to connect/, 'connect_timeout', 'no pooled connection became free in time'],
  [/^Query read timeout/, 'query_timeout', 'the database did not answer within the query timeout'],
  [/^Connection terminated/, 'connection_closed', 'the connection was closed'],
  [/is not queryable/, 'connection_unusable', 'the connection had already failed'],
];

export interface ErrorDescription {
  /** A code or class name: `57P01`, `ECONNREFUSED`, `query_timeout`, `http_503`… */
  errorClass: string;
  /** The same in words, when known. */
  errorMeaning?: string;
}

/** A short class name for logs: never the message, which may quote submitted data. */
export function errorClassOf(error: unknown): string {
  return describeError(error).errorClass;
}

export function describeError(error: unknown): ErrorDescription {
  if (error && typeof error === 'object') {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Za-z0-9_]{1,40}$/.test(code)) {
      const meaning = SQLSTATE_MEANINGS[code] ?? SOCKET_MEANINGS[code] ?? OWN_MEANINGS[code];
      return meaning ? { errorClass: code, errorMeaning: meaning } : { errorClass: code };
    }
    const message = (error as { message?: unknown }).message;
    if (typeof message === 'string')
      for (const [pattern, errorClass, errorMeaning] of DRIVER_MESSAGES)
        if (pattern.test(message)) return { errorClass, errorMeaning };
    const name = (error as { name?: unknown }).name;
    if (typeof name === 'string' && /^[A-Za-z0-9_]{1,40}$/.test(name)) return { errorClass: name };
  }
  return { errorClass: 'unknown' };
}
