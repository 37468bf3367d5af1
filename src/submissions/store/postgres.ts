import type pg from 'pg';
import { migratePostgres } from '../../sqlite/index.js';
import { POSTGRES_MIGRATION_SET } from './migrations.js';
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
  InsertOutcome,
  NewSubmission,
  ReleaseResult,
  RequeueResult,
  SubmissionStore,
} from './types.js';

/** The schema was not confirmed up to date in time (the check or a migration is still running). */
export class SchemaNotReadyError extends Error {
  readonly code = 'schema_not_ready';
  constructor() {
    super('The database schema is still being checked or migrated');
    this.name = 'SchemaNotReadyError';
  }
}

/** A schema change may rewrite a large table: it gets far longer than an ordinary query. */
const MIGRATION_TIMEOUT_MS = 600_000;

export interface PostgresStoreOptions {
  url: string;
  /** Schema to create the tables in (created if missing); the server's search_path when unset. */
  schema?: string;
  /** Connections per instance (default 10): instances × pool size must stay below max_connections. */
  poolSize?: number;
  /** How long to wait for a connection (a new one, or a free pooled one) before failing (default 5 s). */
  connectTimeoutMs?: number;
  /** Longest statement: the server cancels it, and the client gives up waiting for an answer (default 5 s). */
  queryTimeoutMs?: number;
  /** Told about connections that fail while open (dropped, terminated); the pool replaces them. */
  onConnectionError?: (error: Error) => void;
  /** Told once the schema is up to date, with the versions this call applied. */
  onMigrated?: (applied: { version: number; name: string }[]) => void;
}

/**
 * PostgreSQL store for one or several instances sharing the database. Concurrent workers lease
 * rows with `FOR UPDATE SKIP LOCKED`, so two instances never hold the same row; duplicate checks
 * serialise on transaction-scoped advisory locks keyed by the fingerprint and the idempotency key.
 *
 * Opening never waits for the database: the schema is brought up to date on first use and again
 * after a failure, so a server started while PostgreSQL is down serves everything else and starts
 * storing once it is back. Every pooled connection has an error listener (a dropped connection
 * must not crash the process), every query has a timeout, and a connection whose query failed is
 * discarded rather than reused in an unknown state.
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<SubmissionStore> {
  const schema = options.schema;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema))
    throw new Error('PostgreSQL schema name must be lower-case letters, digits and underscores');
  const queryTimeoutMs = options.queryTimeoutMs ?? 5_000;
  const onConnectionError = options.onConnectionError ?? (() => undefined);
  // Loaded here, not at start-up: a server on SQLite never needs pg (~15 MB and ~0.1 s to load).
  const { default: postgres } = await import('pg');
  const pool = new postgres.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    // The server cancels a long statement; the client stops waiting on a server that does not answer.
    statement_timeout: queryTimeoutMs,
    query_timeout: queryTimeoutMs + 500,
    keepAlive: true,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle client losing its connection is reported here; the next query opens a new one.
  pool.on('error', (error) => onConnectionError(error));
  // A client that is checked out has no pool listener: without its own, an error event on it
  // (`Connection terminated unexpectedly`) would be unhandled and end the process.
  pool.on('connect', (client) => {
    client.on('error', (error) => onConnectionError(error));
  });

  const transaction = async <T>(
    work: (client: pg.PoolClient) => Promise<T>,
    afterConnect?: (client: pg.PoolClient) => Promise<void>,
  ): Promise<T> => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      if (afterConnect) await afterConnect(client);
      const result = await work(client);
      await client.query('COMMIT');
      client.release();
      return result;
    } catch (error) {
      // The connection is closed rather than rolled back: after a timeout or a cut it may still be
      // waiting on the server, and closing it ends the transaction as surely as ROLLBACK.
      client.release(error instanceof Error ? error : true);
      throw error;
    }
  };

  const migrate = () =>
    transaction(
      async (client) => {
        const applied = await migratePostgres(client, POSTGRES_MIGRATION_SET, {
          schema,
          timeoutMs: MIGRATION_TIMEOUT_MS,
        });
        return applied.map(({ version, name }) => ({ version, name }));
      },
      (client) => client.query(`SET LOCAL statement_timeout = ${MIGRATION_TIMEOUT_MS}`).then(() => undefined),
    );

  let schemaReady: Promise<void> | null = null;
  let schemaDone = false;
  /** The schema is checked once per process, and again after a failed check. */
  const ready = (): Promise<void> =>
    (schemaReady ??= migrate().then(
      (applied) => {
        schemaDone = true;
        options.onMigrated?.(applied);
      },
      (error: unknown) => {
        schemaReady = null;
        throw error;
      },
    ));
  /**
   * What a request waits for the schema: no longer than for one ordinary statement, so a database
   * that hangs (or a long migration by another instance) gives a prompt 500, not a request held
   * for minutes; the check itself goes on in the background.
   */
  const schemaBudgetMs = (options.connectTimeoutMs ?? 5_000) + queryTimeoutMs;
  const readyInTime = async (): Promise<void> => {
    if (schemaDone) return;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        ready(),
        new Promise<never>((_resolve, reject) => {
          timer = setTimeout(() => reject(new SchemaNotReadyError()), schemaBudgetMs);
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  };
  // Try now, so a reachable database is ready before the first request; failure is not fatal.
  await readyInTime().catch(() => undefined);

  const one = async (client: pg.PoolClient | pg.Pool, sql: string, params: unknown[]) =>
    (await client.query<SubmissionRow>(sql, params)).rows[0];

  /** The matched row, released to this request's attempt when the new submission is clean. */
  const matched = async (
    client: pg.PoolClient,
    row: SubmissionRow,
    submission: NewSubmission,
    status: 'replay' | 'duplicate',
  ): Promise<InsertOutcome> => {
    if (!releasesFromQuarantine(row, submission)) return { status, record: toRecord(row) };
    const { leaseToken, leaseUntilMs } = submission.outbox!;
    // Leased to the request's first attempt, as a new row is (attempt 1 is counted here).
    await client.query(
      `UPDATE ${OUTBOX_TABLE} SET state = 'pending', attempts = 1, next_attempt_at_ms = $2, lease_token = $3,
         lease_until_ms = $4, updated_at_ms = $2
       WHERE submission_id = $1 AND state = 'quarantine'`,
      [row.id, submission.receivedAtMs, leaseToken, leaseUntilMs],
    );
    const released = await one(client, `${SELECT_JOINED} WHERE s.id = $1`, [row.id]);
    return { status: 'released', record: toRecord(released!) };
  };

  return {
    kind: 'postgres',
    insert: async (submission, duplicateSinceMs) => {
      await readyInTime();
      return transaction(async (client): Promise<InsertOutcome> => {
        // Keys are locked in a fixed order (idempotency key, then fingerprint): no deadlock.
        if (submission.idempotencyKey !== null) {
          await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [
            `frontdoor:key:${submission.kind}:${submission.idempotencyKey}`,
          ]);
          const previous = await one(
            client,
            `${SELECT_JOINED} WHERE s.kind = $1 AND s.idempotency_key = $2`,
            [submission.kind, submission.idempotencyKey],
          );
          if (previous)
            return previous.request_hash === submission.requestHash
              ? matched(client, previous, submission, 'replay')
              : { status: 'key-conflict' };
        }
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [
          `frontdoor:fingerprint:${submission.fingerprint}`,
        ]);
        const duplicate = await one(
          client,
          `${SELECT_JOINED} WHERE s.fingerprint = $1 AND s.received_at_ms >= $2 ORDER BY s.received_at_ms LIMIT 1`,
          [submission.fingerprint, duplicateSinceMs],
        );
        if (duplicate) return matched(client, duplicate, submission, 'duplicate');
        await client.query(
          `INSERT INTO ${SUBMISSIONS_TABLE} (id, kind, received_at_ms, provider, fields, request_id, client_ip,
             user_agent, idempotency_key, fingerprint, request_hash, quarantine_reason, form)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
          [
            submission.id,
            submission.kind,
            submission.receivedAtMs,
            submission.provider,
            JSON.stringify(submission.fields),
            submission.requestId,
            submission.clientIp,
            submission.userAgent,
            submission.idempotencyKey,
            submission.fingerprint,
            submission.requestHash,
            submission.quarantineReason,
            submission.form,
          ],
        );
        if (submission.outbox) {
          const held = submission.quarantineReason !== null;
          await client.query(
            `INSERT INTO ${OUTBOX_TABLE} (submission_id, provider, state, attempts, next_attempt_at_ms,
               lease_token, lease_until_ms, updated_at_ms)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
            [
              submission.id,
              submission.outbox.provider,
              held ? 'quarantine' : 'pending',
              held ? 0 : 1,
              held ? null : submission.receivedAtMs,
              held ? null : submission.outbox.leaseToken,
              held ? null : submission.outbox.leaseUntilMs,
              submission.receivedAtMs,
            ],
          );
        }
        const created = await one(client, `${SELECT_JOINED} WHERE s.id = $1`, [submission.id]);
        return { status: 'created', record: toRecord(created!) };
      });
    },

    claimDue: async ({ nowMs, limit, leaseUntilMs, leaseToken }) => {
      await readyInTime();
      const leased = await pool.query<{ submission_id: string; provider: string; attempts: number }>(
        `UPDATE ${OUTBOX_TABLE} o
         SET lease_token = $1, lease_until_ms = $2, attempts = o.attempts + 1, updated_at_ms = $3
         FROM (SELECT submission_id FROM ${OUTBOX_TABLE}
               WHERE state = 'pending' AND next_attempt_at_ms <= $3
                 AND (lease_until_ms IS NULL OR lease_until_ms < $3)
               ORDER BY next_attempt_at_ms, submission_id
               LIMIT $4
               FOR UPDATE SKIP LOCKED) due
         WHERE o.submission_id = due.submission_id
         RETURNING o.submission_id, o.provider, o.attempts`,
        [leaseToken, leaseUntilMs, nowMs, limit],
      );
      if (leased.rows.length === 0) return [];
      const rows = await pool.query<SubmissionRow>(`${SELECT_JOINED} WHERE s.id = ANY($1)`, [
        leased.rows.map((row) => row.submission_id),
      ]);
      const byId = new Map(rows.rows.map((row) => [row.id, row]));
      return leased.rows
        .sort((a, b) => (a.submission_id < b.submission_id ? -1 : 1))
        .map((row): ClaimedDelivery => ({
          submission: toRecord(byId.get(row.submission_id)!),
          provider: row.provider as ClaimedDelivery['provider'],
          attempt: Number(row.attempts),
          leaseToken,
        }));
    },

    complete: async (id, leaseToken, update) => {
      await readyInTime();
      const columns = updateColumns(update);
      const result = await pool.query(
        `UPDATE ${OUTBOX_TABLE} SET state = $3, next_attempt_at_ms = $4, last_error = $5, delivered_at_ms = $6,
           lease_token = NULL, lease_until_ms = NULL, updated_at_ms = $7
         WHERE submission_id = $1 AND lease_token = $2 AND state = 'pending'`,
        [
          id,
          leaseToken,
          columns.state,
          columns.nextAttemptAtMs,
          columns.lastError,
          columns.deliveredAtMs,
          columns.atMs,
        ],
      );
      return result.rowCount === 1;
    },

    get: async (id) => {
      await readyInTime();
      const row = await one(pool, `${SELECT_JOINED} WHERE s.id = $1`, [id]);
      return row ? toRecord(row) : null;
    },

    list: async (filter) => {
      await readyInTime();
      const where: string[] = [];
      const params: unknown[] = [];
      if (filter.kind) {
        params.push(filter.kind);
        where.push(`s.kind = $${params.length}`);
      }
      if (filter.email !== undefined) {
        params.push(filter.email);
        where.push(`lower(s.fields::jsonb->>'email') = lower($${params.length})`);
      }
      if (filter.state === 'none') where.push('o.submission_id IS NULL');
      else if (filter.state) {
        params.push(filter.state);
        where.push(`o.state = $${params.length}`);
      }
      params.push(filter.limit);
      const result = await pool.query<SubmissionRow>(
        `${SELECT_JOINED}${where.length ? ` WHERE ${where.join(' AND ')}` : ''}
         ORDER BY s.received_at_ms DESC, s.id DESC LIMIT $${params.length}`,
        params,
      );
      return result.rows.map(toRecord);
    },

    requeue: async (ids, nowMs) => {
      await readyInTime();
      return transaction(async (client) => {
        const results: RequeueResult[] = [];
        for (const id of ids) {
          const row = await one(client, `${SELECT_JOINED} WHERE s.id = $1`, [id]);
          if (!row) results.push({ id, requeued: false, reason: 'unknown' });
          else if (row.state === null) results.push({ id, requeued: false, reason: 'no-delivery' });
          else if (row.state === 'delivered') results.push({ id, requeued: false, reason: 'delivered' });
          else if (row.erased_at_ms !== null) results.push({ id, requeued: false, reason: 'erased' });
          else if (row.state === 'quarantine') results.push({ id, requeued: false, reason: 'quarantined' });
          else {
            await client.query(
              `UPDATE ${OUTBOX_TABLE} SET state = 'pending', attempts = 0, next_attempt_at_ms = $2,
                 lease_token = NULL, lease_until_ms = NULL, updated_at_ms = $2
               WHERE submission_id = $1 AND state IN ('pending', 'dead')`,
              [id, nowMs],
            );
            results.push({ id, requeued: true });
          }
        }
        return results;
      });
    },

    requeueAllDead: async (nowMs) => {
      await readyInTime();
      const result = await pool.query<{ submission_id: string }>(
        `UPDATE ${OUTBOX_TABLE} SET state = 'pending', attempts = 0, next_attempt_at_ms = $1, lease_token = NULL,
           lease_until_ms = NULL, updated_at_ms = $1
         WHERE state = 'dead' AND submission_id IN (SELECT id FROM ${SUBMISSIONS_TABLE} WHERE erased_at_ms IS NULL)
         RETURNING submission_id`,
        [nowMs],
      );
      return result.rows.map((row) => row.submission_id).sort();
    },

    release: async (ids, nowMs) => {
      await readyInTime();
      const results: ReleaseResult[] = [];
      for (const id of ids) {
        const released = await pool.query(
          `UPDATE ${OUTBOX_TABLE} SET state = 'pending', attempts = 0, next_attempt_at_ms = $2, lease_token = NULL,
             lease_until_ms = NULL, updated_at_ms = $2
           WHERE submission_id = $1 AND state = 'quarantine'`,
          [id, nowMs],
        );
        if (released.rowCount === 1) results.push({ id, released: true });
        else {
          const known = await pool.query(`SELECT 1 FROM ${SUBMISSIONS_TABLE} WHERE id = $1`, [id]);
          results.push({ id, released: false, reason: known.rowCount === 0 ? 'unknown' : 'not-quarantined' });
        }
      }
      return results;
    },

    eraseDelivered: async (deliveredBeforeMs, nowMs) => {
      await readyInTime();
      const result = await pool.query(
        `UPDATE ${SUBMISSIONS_TABLE} SET ${ERASE_ASSIGNMENTS.replace(':now', '$1')}
         WHERE erased_at_ms IS NULL AND id IN (SELECT submission_id FROM ${OUTBOX_TABLE}
           WHERE state = 'delivered' AND delivered_at_ms < $2)`,
        [nowMs, deliveredBeforeMs],
      );
      return result.rowCount ?? 0;
    },

    eraseByEmail: async (email, nowMs) => {
      await readyInTime();
      return transaction(async (client) => {
        // Candidates only: submissionHoldsAddress decides (see erasure.ts).
        const candidates = await client.query<ErasureCandidate & { id: string }>(
          `SELECT id, fields, idempotency_key, user_agent, request_id FROM ${SUBMISSIONS_TABLE}
           WHERE ${HOLDS_ADDRESS_COLUMNS.map((column) => `strpos(lower(coalesce(${column}, '')), lower($1)) > 0`).join(' OR ')}
           ORDER BY id FOR UPDATE`,
          [email],
        );
        const ids = candidates.rows.filter((row) => submissionHoldsAddress(row, email)).map((row) => row.id);
        if (ids.length === 0) return [];
        await client.query(
          `UPDATE ${OUTBOX_TABLE} SET state = 'dead', last_error = $2, next_attempt_at_ms = NULL, lease_token = NULL,
             lease_until_ms = NULL, updated_at_ms = $3
           WHERE submission_id = ANY($1) AND state IN ('pending', 'quarantine')`,
          [ids, ERASED_ERROR_CLASS, nowMs],
        );
        await client.query(
          `UPDATE ${SUBMISSIONS_TABLE} SET ${ERASE_ASSIGNMENTS.replace(':now', '$2')} WHERE id = ANY($1)`,
          [ids, nowMs],
        );
        return ids;
      });
    },

    ping: async () => {
      await readyInTime();
      await pool.query('SELECT 1');
    },

    outboxStats: async () => {
      await readyInTime();
      return toOutboxStats((await pool.query<OutboxStatsRow>(OUTBOX_STATS_SQL)).rows[0]);
    },
    close: async () => {
      await pool.end();
    },
  };
}
