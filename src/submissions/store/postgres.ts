import pg from 'pg';
import {
  OUTBOX_STATS_SQL,
  OUTBOX_TABLE,
  toOutboxStats,
  type OutboxStatsRow,
  SELECT_JOINED,
  schemaSql,
  SUBMISSIONS_TABLE,
  toRecord,
  updateColumns,
  type SubmissionRow,
} from './rows.js';
import type { ClaimedDelivery, InsertOutcome, RequeueResult, SubmissionStore } from './types.js';

const SCHEMA = schemaSql('BIGINT');

/** Arbitrary constant naming "frontdoor schema set-up" among advisory locks. */
const MIGRATION_LOCK = 0x46d00001;

export interface PostgresStoreOptions {
  url: string;
  /** Schema to create the tables in (created if missing); the server's search_path when unset. */
  schema?: string;
  poolSize?: number;
}

/**
 * PostgreSQL store for one or several instances sharing the database. Concurrent workers lease
 * rows with `FOR UPDATE SKIP LOCKED`, so two instances never hold the same row; duplicate checks
 * serialise on transaction-scoped advisory locks keyed by the fingerprint and the idempotency key.
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<SubmissionStore> {
  const schema = options.schema;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema))
    throw new Error('PostgreSQL schema name must be lower-case letters, digits and underscores');
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 10_000,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);

  const transaction = async <T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  };

  try {
    await transaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      if (schema) await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      await client.query(SCHEMA);
    });
  } catch (error) {
    await pool.end();
    throw error;
  }

  const one = async (client: pg.PoolClient | pg.Pool, sql: string, params: unknown[]) =>
    (await client.query<SubmissionRow>(sql, params)).rows[0];

  return {
    kind: 'postgres',
    insert: (submission, duplicateSinceMs) =>
      transaction(async (client): Promise<InsertOutcome> => {
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
              ? { status: 'replay', record: toRecord(previous) }
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
        if (duplicate) return { status: 'duplicate', record: toRecord(duplicate) };
        await client.query(
          `INSERT INTO ${SUBMISSIONS_TABLE} (id, kind, received_at_ms, provider, fields, request_id, client_ip,
             user_agent, idempotency_key, fingerprint, request_hash)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
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
          ],
        );
        if (submission.outbox)
          await client.query(
            `INSERT INTO ${OUTBOX_TABLE} (submission_id, provider, state, attempts, next_attempt_at_ms,
               lease_token, lease_until_ms, updated_at_ms)
             VALUES ($1, $2, 'pending', 1, $3, $4, $5, $3)`,
            [
              submission.id,
              submission.outbox.provider,
              submission.receivedAtMs,
              submission.outbox.leaseToken,
              submission.outbox.leaseUntilMs,
            ],
          );
        const created = await one(client, `${SELECT_JOINED} WHERE s.id = $1`, [submission.id]);
        return { status: 'created', record: toRecord(created!) };
      }),

    claimDue: async ({ nowMs, limit, leaseUntilMs, leaseToken }) => {
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
      const row = await one(pool, `${SELECT_JOINED} WHERE s.id = $1`, [id]);
      return row ? toRecord(row) : null;
    },

    list: async (filter) => {
      const where: string[] = [];
      const params: unknown[] = [];
      if (filter.kind) {
        params.push(filter.kind);
        where.push(`s.kind = $${params.length}`);
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

    requeue: (ids, nowMs) =>
      transaction(async (client) => {
        const results: RequeueResult[] = [];
        for (const id of ids) {
          const row = await one(client, `${SELECT_JOINED} WHERE s.id = $1`, [id]);
          if (!row) results.push({ id, requeued: false, reason: 'unknown' });
          else if (row.state === null) results.push({ id, requeued: false, reason: 'no-delivery' });
          else if (row.state === 'delivered') results.push({ id, requeued: false, reason: 'delivered' });
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
      }),

    requeueAllDead: async (nowMs) => {
      const result = await pool.query<{ submission_id: string }>(
        `UPDATE ${OUTBOX_TABLE} SET state = 'pending', attempts = 0, next_attempt_at_ms = $1, lease_token = NULL,
           lease_until_ms = NULL, updated_at_ms = $1
         WHERE state = 'dead' RETURNING submission_id`,
        [nowMs],
      );
      return result.rows.map((row) => row.submission_id).sort();
    },

    outboxStats: async () => toOutboxStats((await pool.query<OutboxStatsRow>(OUTBOX_STATS_SQL)).rows[0]),
    close: async () => {
      await pool.end();
    },
  };
}
