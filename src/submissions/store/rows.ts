import type {
  AnswerProvider,
  DeliveringProvider,
  DeliveryState,
  QuarantineReason,
  SubmissionFields,
  SubmissionKind,
  SubmissionRecord,
} from '../types.js';
import type { DeliveryUpdate, NewSubmission, OutboxStats } from './types.js';

/** Table names carry a prefix so the tables can live in a database shared with other software. */
export const SUBMISSIONS_TABLE = 'frontdoor_submissions';
export const OUTBOX_TABLE = 'frontdoor_outbox';

/**
 * The tables as they were before versioned migrations (migration 1 of both databases; later
 * versions are in migrations.ts). Never edit: databases created by older releases hold exactly this. Times are epoch milliseconds: INTEGER in SQLite (64-bit), BIGINT
 * in PostgreSQL (its INTEGER is 32-bit).
 */
export function schemaSql(millis: 'INTEGER' | 'BIGINT'): string {
  return `
CREATE TABLE IF NOT EXISTS ${SUBMISSIONS_TABLE} (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('lead', 'suggestion')),
  received_at_ms ${millis} NOT NULL,
  provider TEXT NOT NULL,
  fields TEXT NOT NULL,
  request_id TEXT NOT NULL,
  client_ip TEXT NOT NULL,
  user_agent TEXT,
  idempotency_key TEXT,
  fingerprint TEXT NOT NULL,
  request_hash TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS ${SUBMISSIONS_TABLE}_idempotency
  ON ${SUBMISSIONS_TABLE} (kind, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE INDEX IF NOT EXISTS ${SUBMISSIONS_TABLE}_fingerprint ON ${SUBMISSIONS_TABLE} (fingerprint, received_at_ms);
CREATE INDEX IF NOT EXISTS ${SUBMISSIONS_TABLE}_received ON ${SUBMISSIONS_TABLE} (received_at_ms);
CREATE TABLE IF NOT EXISTS ${OUTBOX_TABLE} (
  submission_id TEXT PRIMARY KEY REFERENCES ${SUBMISSIONS_TABLE} (id),
  provider TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'dead')),
  attempts INTEGER NOT NULL,
  next_attempt_at_ms ${millis},
  lease_token TEXT,
  lease_until_ms ${millis},
  last_error TEXT,
  delivered_at_ms ${millis},
  updated_at_ms ${millis} NOT NULL
);
CREATE INDEX IF NOT EXISTS ${OUTBOX_TABLE}_due ON ${OUTBOX_TABLE} (state, next_attempt_at_ms);
`;
}

/** Pending and dead counts and the oldest pending submission, in one query (for metrics). */
export const OUTBOX_STATS_SQL = `SELECT
    COALESCE(SUM(CASE WHEN o.state = 'pending' THEN 1 ELSE 0 END), 0) AS pending,
    COALESCE(SUM(CASE WHEN o.state = 'dead' THEN 1 ELSE 0 END), 0) AS dead,
    MIN(CASE WHEN o.state = 'pending' THEN s.received_at_ms END) AS oldest_pending_ms
  FROM ${OUTBOX_TABLE} o JOIN ${SUBMISSIONS_TABLE} s ON s.id = o.submission_id
  WHERE o.state IN ('pending', 'dead')`;

export interface OutboxStatsRow {
  pending: number | string;
  dead: number | string;
  oldest_pending_ms: number | string | null;
}

export function toOutboxStats(row: OutboxStatsRow | undefined): OutboxStats {
  return {
    pending: Number(row?.pending ?? 0),
    dead: Number(row?.dead ?? 0),
    oldestPendingReceivedAtMs:
      row?.oldest_pending_ms === null || row?.oldest_pending_ms === undefined
        ? null
        : Number(row.oldest_pending_ms),
  };
}

/** A joined submission + outbox row as both databases return it (PostgreSQL gives BIGINT as text). */
export interface SubmissionRow {
  id: string;
  kind: string;
  received_at_ms: number | string;
  provider: string;
  fields: string;
  request_id: string;
  client_ip: string;
  user_agent: string | null;
  idempotency_key: string | null;
  fingerprint: string;
  request_hash: string;
  quarantine_reason: string | null;
  erased_at_ms: number | string | null;
  form: string | null;
  outbox_provider: string | null;
  state: string | null;
  attempts: number | string | null;
  next_attempt_at_ms: number | string | null;
  last_error: string | null;
  delivered_at_ms: number | string | null;
}

export const SELECT_JOINED = `SELECT s.id, s.kind, s.received_at_ms, s.provider, s.fields, s.request_id, s.client_ip,
  s.user_agent, s.idempotency_key, s.fingerprint, s.request_hash, s.quarantine_reason, s.erased_at_ms, s.form, o.provider AS outbox_provider, o.state,
  o.attempts, o.next_attempt_at_ms, o.last_error, o.delivered_at_ms
FROM ${SUBMISSIONS_TABLE} s LEFT JOIN ${OUTBOX_TABLE} o ON o.submission_id = s.id`;

const numberOrNull = (value: number | string | null): number | null =>
  value === null ? null : Number(value);

export function toRecord(row: SubmissionRow): SubmissionRecord {
  return {
    id: row.id,
    kind: row.kind as SubmissionKind,
    receivedAtMs: Number(row.received_at_ms),
    provider: row.provider as AnswerProvider,
    fields: JSON.parse(row.fields) as SubmissionFields,
    requestId: row.request_id,
    clientIp: row.client_ip,
    userAgent: row.user_agent,
    idempotencyKey: row.idempotency_key,
    fingerprint: row.fingerprint,
    requestHash: row.request_hash,
    quarantineReason: row.quarantine_reason as QuarantineReason | null,
    erasedAtMs: numberOrNull(row.erased_at_ms),
    form: row.form,
    delivery:
      row.state === null
        ? null
        : {
            provider: row.outbox_provider as DeliveringProvider,
            state: row.state as DeliveryState,
            attempts: Number(row.attempts),
            nextAttemptAtMs: row.state === 'pending' ? numberOrNull(row.next_attempt_at_ms) : null,
            lastError: row.last_error,
            deliveredAtMs: numberOrNull(row.delivered_at_ms),
          },
  };
}

/**
 * Whether `submission` releases the quarantined row it matched: it tripped no trap itself and has
 * a delivery to make. A trapped repeat of a quarantined row stays a plain duplicate.
 */
export function releasesFromQuarantine(matched: SubmissionRow, submission: NewSubmission): boolean {
  return matched.state === 'quarantine' && submission.quarantineReason === null && submission.outbox !== null;
}

/** Column values for an update that ends an attempt, in one shape for both databases. */
export function updateColumns(update: DeliveryUpdate): {
  state: DeliveryState;
  nextAttemptAtMs: number | null;
  lastError: string | null;
  deliveredAtMs: number | null;
  atMs: number;
} {
  switch (update.outcome) {
    case 'delivered':
      return {
        state: 'delivered',
        nextAttemptAtMs: null,
        lastError: null,
        deliveredAtMs: update.atMs,
        atMs: update.atMs,
      };
    case 'retry':
      return {
        state: 'pending',
        nextAttemptAtMs: update.nextAttemptAtMs,
        lastError: update.errorClass,
        deliveredAtMs: null,
        atMs: update.atMs,
      };
    case 'dead':
      return {
        state: 'dead',
        nextAttemptAtMs: null,
        lastError: update.errorClass,
        deliveredAtMs: null,
        atMs: update.atMs,
      };
  }
}

/**
 * What erasing a submission's personal data sets (the time is the one parameter, written `:now`):
 * everything the request brought: the fields, the client address, the user agent, the
 * Idempotency-Key and request id (the client's own text, which may be an e-mail address), and the
 * hashes of the body, which could be matched against a known e-mail. The id, kind, times, provider
 * and delivery state stay, so counts hold.
 */
export const ERASE_ASSIGNMENTS = `fields = '{}', client_ip = '', user_agent = NULL, idempotency_key = NULL,
  request_id = '', fingerprint = 'erased:' || id, request_hash = 'erased', erased_at_ms = :now`;

/** The value outbox rows get in `last_error` when their submission was erased before delivery. */
export const ERASED_ERROR_CLASS = 'erased';
