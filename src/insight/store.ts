import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type pg from 'pg';
import type { DatabaseConfig } from '../config/index.js';
import {
  migratePostgres,
  migrateSqlite,
  openSqliteConnection,
  type SqliteConnection,
} from '../sqlite/index.js';
import type { ClientClass } from './classify.js';
import { INSIGHT_MIGRATION_SET, type InsightDialect } from './schema.js';

/** Counts of searches: per day, client class and channel (all searches) or per query text. */
export interface SearchCounts {
  searches: number;
  zeroResults: number;
  weakMatches: number;
}

export interface SearchTotalRow extends SearchCounts {
  day: string;
  clientClass: ClientClass;
  channel: string;
}

export interface QueryRow extends SearchCounts {
  day: string;
  query: string;
  clientClass: ClientClass;
}

export interface ReadRow {
  day: string;
  clientClass: ClientClass;
  document: string;
  agent: string;
  requests: number;
}

/** What one flush adds: every count is added to the stored one (rows are created as needed). */
export interface InsightBatch {
  searches: SearchTotalRow[];
  queries: QueryRow[];
  reads: ReadRow[];
}

/** Stored rows of a period (inclusive ISO days), summed over the period unless `day` is kept. */
export interface StoredInsight {
  /** Per day and class, all channels. */
  searchesByDay: (SearchCounts & { day: string; clientClass: ClientClass })[];
  /** Per class and channel, over the period. */
  searchesByChannel: (SearchCounts & { clientClass: ClientClass; channel: string })[];
  /** Per query text and class, over the period. */
  queries: (SearchCounts & { query: string; clientClass: ClientClass })[];
  /** Per document, class and agent name, over the period. */
  reads: { document: string; clientClass: ClientClass; agent: string; requests: number }[];
  /** Per day and class, all documents. */
  readsByDay: { day: string; clientClass: ClientClass; requests: number }[];
}

export interface InsightStore {
  readonly dialect: InsightDialect;
  write(batch: InsightBatch): Promise<void>;
  read(from: string, to: string): Promise<StoredInsight>;
  /** Deletes every row of a day before `day`; returns how many rows went. */
  deleteBefore(day: string): Promise<number>;
  close(): Promise<void>;
}

/** The search count tables (schema.ts): the columns that, with the day, name a row. */
const SEARCH_KEYS = {
  insight_searches: ['client_class', 'channel'],
  insight_queries: ['query', 'client_class'],
} as const;

const SEARCH_COUNTERS = ['searches', 'zero_results', 'weak_matches'] as const;

/** Adds a row's three search counters to the stored row of the same day and keys (created if new). */
function addSearchCounts(table: keyof typeof SEARCH_KEYS): string {
  const columns = ['day', ...SEARCH_KEYS[table]].join(', ');
  return `INSERT INTO ${table} (${columns}, ${SEARCH_COUNTERS.join(', ')})
    VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (${columns}) DO UPDATE SET
      ${SEARCH_COUNTERS.map((c) => `${c} = ${table}.${c} + excluded.${c}`).join(',\n      ')}`;
}

const UPSERT = {
  searches: addSearchCounts('insight_searches'),
  queries: addSearchCounts('insight_queries'),
  reads: `INSERT INTO insight_reads (day, client_class, document, agent, requests)
    VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (day, client_class, document, agent) DO UPDATE SET
      requests = insight_reads.requests + excluded.requests`,
} as const;

const COUNTS =
  'SUM(searches) AS searches, SUM(zero_results) AS zero_results, SUM(weak_matches) AS weak_matches';
const SELECT = {
  searchesByDay: `SELECT day, client_class, ${COUNTS} FROM insight_searches
    WHERE day >= ? AND day <= ? GROUP BY day, client_class ORDER BY day, client_class`,
  searchesByChannel: `SELECT client_class, channel, ${COUNTS} FROM insight_searches
    WHERE day >= ? AND day <= ? GROUP BY client_class, channel ORDER BY client_class, channel`,
  queries: `SELECT query, client_class, ${COUNTS} FROM insight_queries
    WHERE day >= ? AND day <= ? GROUP BY query, client_class ORDER BY query, client_class`,
  reads: `SELECT document, client_class, agent, SUM(requests) AS requests FROM insight_reads
    WHERE day >= ? AND day <= ? GROUP BY document, client_class, agent ORDER BY document, client_class, agent`,
  readsByDay: `SELECT day, client_class, SUM(requests) AS requests FROM insight_reads
    WHERE day >= ? AND day <= ? GROUP BY day, client_class ORDER BY day, client_class`,
} as const;

const TABLES = ['insight_searches', 'insight_queries', 'insight_reads'] as const;

type RawRow = Record<string, unknown>;

/** Rows as the drivers return them (bigint or numeric strings for sums) turned into plain values. */
function toStored(rows: Record<keyof typeof SELECT, RawRow[]>): StoredInsight {
  const n = (value: unknown) => Number(value ?? 0);
  const counts = (row: RawRow): SearchCounts => ({
    searches: n(row.searches),
    zeroResults: n(row.zero_results),
    weakMatches: n(row.weak_matches),
  });
  const cls = (row: RawRow) => row.client_class as ClientClass;
  return {
    searchesByDay: rows.searchesByDay.map((r) => ({ day: String(r.day), clientClass: cls(r), ...counts(r) })),
    searchesByChannel: rows.searchesByChannel.map((r) => ({
      clientClass: cls(r),
      channel: String(r.channel),
      ...counts(r),
    })),
    queries: rows.queries.map((r) => ({ query: String(r.query), clientClass: cls(r), ...counts(r) })),
    reads: rows.reads.map((r) => ({
      document: String(r.document),
      clientClass: cls(r),
      agent: String(r.agent),
      requests: n(r.requests),
    })),
    readsByDay: rows.readsByDay.map((r) => ({
      day: String(r.day),
      clientClass: cls(r),
      requests: n(r.requests),
    })),
  };
}

const searchParams = (r: SearchTotalRow) => [
  r.day,
  r.clientClass,
  r.channel,
  r.searches,
  r.zeroResults,
  r.weakMatches,
];
const queryParams = (r: QueryRow) => [
  r.day,
  r.query,
  r.clientClass,
  r.searches,
  r.zeroResults,
  r.weakMatches,
];
const readParams = (r: ReadRow) => [r.day, r.clientClass, r.document, r.agent, r.requests];

/** Opens the insight tables in the database the submissions use (SQLite file or PostgreSQL). */
export async function openInsightStore(
  database: DatabaseConfig,
  options: { schema?: string } = {},
): Promise<InsightStore> {
  return database.kind === 'postgres'
    ? openPostgresInsightStore(database.url, {
        ...options,
        connectTimeoutMs: database.connectTimeoutMs,
        queryTimeoutMs: database.queryTimeoutMs,
      })
    : openSqliteInsightStore(database.file);
}

/**
 * The insight store of `database`, opened on first use instead of now: the server starts (and
 * serves pages and search) while the database is down, and insight's counts wait in memory until a
 * flush can open it. A failed open is tried again at the next call.
 */
export function openInsightStoreLazily(database: DatabaseConfig): InsightStore {
  let opening: Promise<InsightStore> | null = null;
  let closed = false;
  const store = (): Promise<InsightStore> => {
    if (closed) return Promise.reject(new Error('the insight store is closed'));
    opening ??= openInsightStore(database).catch((error: unknown) => {
      opening = null;
      throw error;
    });
    return opening;
  };
  return {
    dialect: database.kind,
    write: async (batch) => (await store()).write(batch),
    read: async (from, to) => (await store()).read(from, to),
    deleteBefore: async (day) => (await store()).deleteBefore(day),
    close: async () => {
      closed = true;
      const opened = await opening?.catch(() => null);
      await opened?.close();
    },
  };
}

export function openSqliteInsightStore(file: string): InsightStore {
  mkdirSync(dirname(file), { recursive: true });
  const db: SqliteConnection = openSqliteConnection(file);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA busy_timeout = 5000');
  migrateSqlite(db, INSIGHT_MIGRATION_SET);
  const upsert = {
    searches: db.prepare(UPSERT.searches),
    queries: db.prepare(UPSERT.queries),
    reads: db.prepare(UPSERT.reads),
  };
  const select = Object.fromEntries(
    Object.entries(SELECT).map(([name, sql]) => [name, db.prepare<RawRow>(sql)]),
  ) as Record<keyof typeof SELECT, ReturnType<typeof db.prepare<RawRow>>>;
  const deletes = TABLES.map((table) => db.prepare(`DELETE FROM ${table} WHERE day < ?`));

  return {
    dialect: 'sqlite',
    write: async (batch) => {
      db.immediate(() => {
        for (const row of batch.searches) upsert.searches.run(...searchParams(row));
        for (const row of batch.queries) upsert.queries.run(...queryParams(row));
        for (const row of batch.reads) upsert.reads.run(...readParams(row));
      });
    },
    read: async (from, to) =>
      toStored(
        Object.fromEntries(
          Object.entries(select).map(([name, statement]) => [name, statement.all(from, to)]),
        ) as Record<keyof typeof SELECT, RawRow[]>,
      ),
    deleteBefore: async (day) =>
      db.immediate(() => deletes.reduce((sum, statement) => sum + statement.run(day).changes, 0)),
    close: async () => db.close(),
  };
}

/** `?` placeholders numbered for PostgreSQL. */
const numbered = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

export interface PostgresInsightOptions {
  /** Schema to create the tables in (created if missing); the server's search_path when unset. */
  schema?: string;
  /** As the submission store's (DATABASE_CONNECT_TIMEOUT_MS, DATABASE_QUERY_TIMEOUT_MS). */
  connectTimeoutMs?: number;
  queryTimeoutMs?: number;
}

export async function openPostgresInsightStore(
  url: string,
  options: PostgresInsightOptions = {},
): Promise<InsightStore> {
  const { schema } = options;
  const queryTimeoutMs = options.queryTimeoutMs ?? 5_000;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema))
    throw new Error('PostgreSQL schema name must be lower-case letters, digits and underscores');
  // Loaded on first use, as the submission store does: a server on SQLite never needs pg.
  const { default: postgres } = await import('pg');
  const pool = new postgres.Pool({
    connectionString: url,
    max: 2,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    // A hanging database delays a flush (retried later), never a request.
    statement_timeout: queryTimeoutMs,
    query_timeout: queryTimeoutMs + 500,
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
    // Instances starting together apply each migration once.
    await transaction((client) => migratePostgres(client, INSIGHT_MIGRATION_SET, { schema }));
  } catch (error) {
    await pool.end();
    throw error;
  }

  const upsertSql = {
    searches: numbered(UPSERT.searches),
    queries: numbered(UPSERT.queries),
    reads: numbered(UPSERT.reads),
  };

  return {
    dialect: 'postgres',
    write: (batch) =>
      transaction(async (client) => {
        // Rows in a fixed order, so two instances flushing together lock them in the same order.
        const sorted = <T>(rows: T[], key: (row: T) => string) =>
          [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
        for (const row of sorted(batch.searches, (r) => `${r.day}\u0000${r.clientClass}\u0000${r.channel}`))
          await client.query(upsertSql.searches, searchParams(row));
        for (const row of sorted(batch.queries, (r) => `${r.day}\u0000${r.query}\u0000${r.clientClass}`))
          await client.query(upsertSql.queries, queryParams(row));
        for (const row of sorted(
          batch.reads,
          (r) => `${r.day}\u0000${r.clientClass}\u0000${r.document}\u0000${r.agent}`,
        ))
          await client.query(upsertSql.reads, readParams(row));
      }),
    read: async (from, to) => {
      const entries = await Promise.all(
        Object.entries(SELECT).map(async ([name, sql]) => [
          name,
          (await pool.query(numbered(sql), [from, to])).rows,
        ]),
      );
      return toStored(Object.fromEntries(entries) as Record<keyof typeof SELECT, RawRow[]>);
    },
    deleteBefore: (day) =>
      transaction(async (client) => {
        let deleted = 0;
        for (const table of TABLES)
          deleted += (await client.query(`DELETE FROM ${table} WHERE day < $1`, [day])).rowCount ?? 0;
        return deleted;
      }),
    close: () => pool.end(),
  };
}
