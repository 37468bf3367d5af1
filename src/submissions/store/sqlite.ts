import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SubmissionRecord } from '../types.js';
import { migrateSqlite, openSqliteConnection, type SqliteDriverName } from '../../sqlite/index.js';
import { SQLITE_MIGRATION_SET } from './migrations.js';
import { HOLDS_ADDRESS_COLUMNS, submissionHoldsAddress, type ErasureCandidate } from './erasure.js';
import {
  ERASE_ASSIGNMENTS,
  ERASED_ERROR_CLASS,
  OUTBOX_STATS_SQL,
  OUTBOX_TABLE,
  releasesFromQuarantine,
  toOutboxStats,
  type OutboxStatsRow,
  SELECT_JOINED,
  SUBMISSIONS_TABLE,
  toRecord,
  updateColumns,
  type SubmissionRow,
} from './rows.js';
import type {
  ClaimedDelivery,
  DeliveryUpdate,
  InsertOutcome,
  ListFilter,
  NewSubmission,
  ReleaseResult,
  RequeueResult,
  SubmissionStore,
} from './types.js';

/**
 * SQLite store for a single instance. WAL lets the CLI read while the server writes;
 * synchronous=FULL makes a commit survive a power loss, not only a killed process. Writes run in
 * BEGIN IMMEDIATE transactions, so a second process on the same file (the CLI's retry) waits for
 * the lock instead of failing half-way.
 */
export interface SqliteSubmissionStore extends SubmissionStore {
  /** The settings read back from the connection, so a test can prove them. */
  readonly durability: { journalMode: string; synchronous: number };
  readonly driver: SqliteDriverName;
}

export function openSqliteStore(file: string): SqliteSubmissionStore {
  mkdirSync(dirname(file), { recursive: true });
  const db = openSqliteConnection(file);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = FULL');
  db.exec('PRAGMA busy_timeout = 5000');
  db.exec('PRAGMA foreign_keys = ON');
  migrateSqlite(db, SQLITE_MIGRATION_SET);
  const pragma = (name: string): unknown => Object.values(db.prepare(`PRAGMA ${name}`).get() ?? {})[0];

  const byId = db.prepare<SubmissionRow>(`${SELECT_JOINED} WHERE s.id = ?`);
  const byKey = db.prepare<SubmissionRow>(`${SELECT_JOINED} WHERE s.kind = ? AND s.idempotency_key = ?`);
  const byFingerprint = db.prepare<SubmissionRow>(
    `${SELECT_JOINED} WHERE s.fingerprint = ? AND s.received_at_ms >= ? ORDER BY s.received_at_ms LIMIT 1`,
  );
  const insertSubmission = db.prepare(
    `INSERT INTO ${SUBMISSIONS_TABLE} (id, kind, received_at_ms, provider, fields, request_id, client_ip,
       user_agent, idempotency_key, fingerprint, request_hash, quarantine_reason, form)
     VALUES (@id, @kind, @receivedAtMs, @provider, @fields, @requestId, @clientIp, @userAgent, @idempotencyKey,
       @fingerprint, @requestHash, @quarantineReason, @form)`,
  );
  const insertOutbox = db.prepare(
    `INSERT INTO ${OUTBOX_TABLE} (submission_id, provider, state, attempts, next_attempt_at_ms, lease_token,
       lease_until_ms, updated_at_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // Leased to the request's first attempt, as a new row is (attempt 1 is counted here).
  const releaseToAttempt = db.prepare(
    `UPDATE ${OUTBOX_TABLE} SET state = 'pending', attempts = 1, next_attempt_at_ms = @atMs,
       lease_token = @leaseToken, lease_until_ms = @leaseUntilMs, updated_at_ms = @atMs
     WHERE submission_id = @id AND state = 'quarantine'`,
  );
  const releaseRow = db.prepare(
    `UPDATE ${OUTBOX_TABLE} SET state = 'pending', attempts = 0, next_attempt_at_ms = ?, lease_token = NULL,
       lease_until_ms = NULL, updated_at_ms = ?
     WHERE submission_id = ? AND state = 'quarantine'`,
  );
  const eraseDeliveredRows = db.prepare(
    `UPDATE ${SUBMISSIONS_TABLE} SET ${ERASE_ASSIGNMENTS.replace(':now', '@now')}
     WHERE erased_at_ms IS NULL AND id IN (SELECT submission_id FROM ${OUTBOX_TABLE}
       WHERE state = 'delivered' AND delivered_at_ms < @before)`,
  );
  // Candidates only: submissionHoldsAddress decides (see erasure.ts).
  const erasureCandidates = db.prepare<ErasureCandidate & { id: string }>(
    `SELECT id, fields, idempotency_key, user_agent, request_id FROM ${SUBMISSIONS_TABLE}
     WHERE ${HOLDS_ADDRESS_COLUMNS.map((column) => `instr(lower(coalesce(${column}, '')), lower(@email)) > 0`).join(' OR ')}
     ORDER BY id`,
  );
  const eraseRow = db.prepare(
    `UPDATE ${SUBMISSIONS_TABLE} SET ${ERASE_ASSIGNMENTS.replace(':now', '@now')} WHERE id = @id`,
  );
  const cancelErased = db.prepare(
    `UPDATE ${OUTBOX_TABLE} SET state = 'dead', last_error = ?, next_attempt_at_ms = NULL, lease_token = NULL,
       lease_until_ms = NULL, updated_at_ms = ?
     WHERE submission_id = ? AND state IN ('pending', 'quarantine')`,
  );
  const dueRows = db.prepare<{ submission_id: string; provider: string; attempts: number }>(
    `SELECT submission_id, provider, attempts FROM ${OUTBOX_TABLE}
     WHERE state = 'pending' AND next_attempt_at_ms <= ? AND (lease_until_ms IS NULL OR lease_until_ms < ?)
     ORDER BY next_attempt_at_ms, submission_id LIMIT ?`,
  );
  const lease = db.prepare(
    `UPDATE ${OUTBOX_TABLE} SET lease_token = ?, lease_until_ms = ?, attempts = attempts + 1, updated_at_ms = ?
     WHERE submission_id = ?`,
  );
  const completeRow = db.prepare(
    `UPDATE ${OUTBOX_TABLE} SET state = @state, next_attempt_at_ms = @nextAttemptAtMs, last_error = @lastError,
       delivered_at_ms = @deliveredAtMs, lease_token = NULL, lease_until_ms = NULL, updated_at_ms = @atMs
     WHERE submission_id = @id AND lease_token = @leaseToken AND state = 'pending'`,
  );
  const requeueRow = db.prepare(
    `UPDATE ${OUTBOX_TABLE} SET state = 'pending', attempts = 0, next_attempt_at_ms = ?, lease_token = NULL,
       lease_until_ms = NULL, updated_at_ms = ?
     WHERE submission_id = ? AND state IN ('pending', 'dead')`,
  );
  const deadIds = db.prepare<{ submission_id: string }>(
    `SELECT o.submission_id FROM ${OUTBOX_TABLE} o JOIN ${SUBMISSIONS_TABLE} s ON s.id = o.submission_id
     WHERE o.state = 'dead' AND s.erased_at_ms IS NULL ORDER BY o.submission_id`,
  );

  const outboxStats = db.prepare<OutboxStatsRow>(OUTBOX_STATS_SQL);

  /** The matched row, released to this request's attempt when the new submission is clean. */
  const matched = (row: SubmissionRow, submission: NewSubmission, status: 'replay' | 'duplicate') => {
    if (!releasesFromQuarantine(row, submission)) return { status, record: toRecord(row) };
    const { leaseToken, leaseUntilMs } = submission.outbox!;
    releaseToAttempt.run({ id: row.id, atMs: submission.receivedAtMs, leaseToken, leaseUntilMs });
    return { status: 'released' as const, record: toRecord(byId.get(row.id)!) };
  };

  const insert = (submission: NewSubmission, duplicateSinceMs: number): InsertOutcome => {
    if (submission.idempotencyKey !== null) {
      const previous = byKey.get(submission.kind, submission.idempotencyKey);
      if (previous) {
        return previous.request_hash === submission.requestHash
          ? matched(previous, submission, 'replay')
          : { status: 'key-conflict' };
      }
    }
    const duplicate = byFingerprint.get(submission.fingerprint, duplicateSinceMs);
    if (duplicate) return matched(duplicate, submission, 'duplicate');
    insertSubmission.run({
      ...submission,
      fields: JSON.stringify(submission.fields),
      outbox: undefined,
    });
    if (submission.outbox) {
      const { provider, leaseToken, leaseUntilMs } = submission.outbox;
      const held = submission.quarantineReason !== null;
      insertOutbox.run(
        submission.id,
        provider,
        held ? 'quarantine' : 'pending',
        held ? 0 : 1,
        held ? null : submission.receivedAtMs,
        held ? null : leaseToken,
        held ? null : leaseUntilMs,
        submission.receivedAtMs,
      );
    }
    return { status: 'created', record: toRecord(byId.get(submission.id)!) };
  };

  const claim = (
    nowMs: number,
    limit: number,
    leaseUntilMs: number,
    leaseToken: string,
  ): ClaimedDelivery[] => {
    const rows = dueRows.all(nowMs, nowMs, limit);
    return rows.map((row) => {
      lease.run(leaseToken, leaseUntilMs, nowMs, row.submission_id);
      return {
        submission: toRecord(byId.get(row.submission_id)!),
        provider: row.provider as ClaimedDelivery['provider'],
        attempt: row.attempts + 1,
        leaseToken,
      };
    });
  };

  const requeue = (ids: string[], nowMs: number): RequeueResult[] =>
    ids.map((id): RequeueResult => {
      const row = byId.get(id);
      if (!row) return { id, requeued: false, reason: 'unknown' };
      if (row.state === null) return { id, requeued: false, reason: 'no-delivery' };
      if (row.state === 'delivered') return { id, requeued: false, reason: 'delivered' };
      if (row.erased_at_ms !== null) return { id, requeued: false, reason: 'erased' };
      if (row.state === 'quarantine') return { id, requeued: false, reason: 'quarantined' };
      requeueRow.run(nowMs, nowMs, id);
      return { id, requeued: true };
    });

  const record = (row: SubmissionRow | undefined): SubmissionRecord | null => (row ? toRecord(row) : null);

  return {
    kind: 'sqlite',
    driver: db.driver,
    durability: {
      journalMode: String(pragma('journal_mode')),
      // 2 = FULL
      synchronous: Number(pragma('synchronous')),
    },
    insert: async (submission, duplicateSinceMs) => db.immediate(() => insert(submission, duplicateSinceMs)),
    claimDue: async ({ nowMs, limit, leaseUntilMs, leaseToken }) =>
      db.immediate(() => claim(nowMs, limit, leaseUntilMs, leaseToken)),
    complete: async (id: string, leaseToken: string, update: DeliveryUpdate) =>
      completeRow.run({ id, leaseToken, ...updateColumns(update) }).changes === 1,
    get: async (id) => record(byId.get(id)),
    list: async (filter: ListFilter) => {
      const where: string[] = [];
      const params: (string | number)[] = [];
      if (filter.kind) {
        where.push('s.kind = ?');
        params.push(filter.kind);
      }
      if (filter.email !== undefined) {
        where.push("lower(json_extract(s.fields, '$.email')) = lower(?)");
        params.push(filter.email);
      }
      if (filter.state === 'none') where.push('o.submission_id IS NULL');
      else if (filter.state) {
        where.push('o.state = ?');
        params.push(filter.state);
      }
      const sql = `${SELECT_JOINED}${where.length ? ` WHERE ${where.join(' AND ')}` : ''}
        ORDER BY s.received_at_ms DESC, s.id DESC LIMIT ?`;
      return db
        .prepare<SubmissionRow>(sql)
        .all(...params, filter.limit)
        .map(toRecord);
    },
    requeue: async (ids, nowMs) => db.immediate(() => requeue(ids, nowMs)),
    requeueAllDead: async (nowMs) => {
      const ids = deadIds.all().map((row) => row.submission_id);
      return db
        .immediate(() => requeue(ids, nowMs))
        .filter((result) => result.requeued)
        .map((result) => result.id);
    },
    release: async (ids, nowMs) =>
      db.immediate(() =>
        ids.map((id): ReleaseResult => {
          if (releaseRow.run(nowMs, nowMs, id).changes === 1) return { id, released: true };
          return { id, released: false, reason: byId.get(id) ? 'not-quarantined' : 'unknown' };
        }),
      ),
    eraseDelivered: async (deliveredBeforeMs, nowMs) =>
      db.immediate(() => eraseDeliveredRows.run({ now: nowMs, before: deliveredBeforeMs }).changes),
    eraseByEmail: async (email, nowMs) =>
      db.immediate(() => {
        const ids = erasureCandidates
          .all({ email })
          .filter((row) => submissionHoldsAddress(row, email))
          .map((row) => row.id);
        for (const id of ids) {
          cancelErased.run(ERASED_ERROR_CLASS, nowMs, id);
          eraseRow.run({ id, now: nowMs });
        }
        return ids;
      }),
    ping: async () => {
      db.prepare('SELECT 1').get();
    },
    outboxStats: async () => toOutboxStats(outboxStats.get()),
    close: async () => db.close(),
  };
}
