import type pg from 'pg';
import type { SqliteConnection } from './sqlite-driver.js';

/**
 * Versioned schema changes for every part of Frontdoor that keeps tables (the submissions' outbox,
 * insight's counts), in the database they share.
 *
 * Each part owns an ordered list of migrations. One ledger, `frontdoor_migrations`, records what
 * a database has applied, per part (`component`) and version. Opening a store applies the missing
 * versions in order, in one transaction, under a lock (PostgreSQL: an advisory lock shared by every
 * part; SQLite: BEGIN IMMEDIATE), so several instances starting together apply each version
 * exactly once and never race to create the same table.
 *
 * To change a schema, append a version to the part's list (never edit an applied one): a version
 * runs once per database, so a later one may alter what an earlier one made.
 *
 * Databases from before the shared ledger kept their own (`frontdoor_schema_migrations` for the
 * submissions, `insight_schema_steps` for insight). The first time a part migrates with no rows in
 * the ledger, it copies the versions its legacy ledger records, with their times, and leaves that
 * table as it was: an older release started on the same database still finds its versions there.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Where a part recorded its versions before the shared ledger: a table and its two columns. */
export interface LegacyLedger {
  table: string;
  versionColumn: string;
  /** Milliseconds since the epoch, or an ISO date-time as text. */
  appliedAtColumn: string;
}

/** One part's migrations. */
export interface MigrationSet {
  /** The part's name in the ledger ('submissions', 'insight'). */
  component: string;
  migrations: readonly Migration[];
  legacy?: LegacyLedger;
}

export const MIGRATIONS_TABLE = 'frontdoor_migrations';

const ledgerSql = (millis: 'INTEGER' | 'BIGINT') => `
CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (
  component TEXT NOT NULL,
  version INTEGER NOT NULL,
  name TEXT NOT NULL,
  applied_at_ms ${millis} NOT NULL,
  PRIMARY KEY (component, version)
)`;

/** Arbitrary constant naming "frontdoor schema set-up" among advisory locks. */
const MIGRATION_LOCK = 0x46d00001;

/** The versions of `list` not yet in `applied`, in order. */
export function pendingMigrations(list: readonly Migration[], applied: Iterable<number>): Migration[] {
  const done = new Set(applied);
  return [...list].sort((a, b) => a.version - b.version).filter((migration) => !done.has(migration.version));
}

/** A legacy ledger's time as milliseconds: drivers return BIGINT as text, insight stored ISO text. */
function legacyMillis(value: unknown): number {
  const millis = Number(value);
  if (Number.isFinite(millis)) return millis;
  const parsed = Date.parse(String(value));
  return Number.isFinite(parsed) ? parsed : Date.now();
}

interface LedgerRow {
  version: number;
  name: string;
  appliedAtMs: number;
}

/** The legacy ledger's rows as ledger rows, named from the part's list where it has the version. */
function adoptedRows(set: MigrationSet, rows: Record<string, unknown>[]): LedgerRow[] {
  const legacy = set.legacy as LegacyLedger;
  return rows.map((row) => {
    const version = Number(row[legacy.versionColumn]);
    const known = set.migrations.find((migration) => migration.version === version);
    return {
      version,
      name: known?.name ?? `adopted from ${legacy.table}`,
      appliedAtMs: legacyMillis(row[legacy.appliedAtColumn]),
    };
  });
}

const legacySelect = (legacy: LegacyLedger) =>
  `SELECT ${legacy.versionColumn}, ${legacy.appliedAtColumn} FROM ${legacy.table}`;

/**
 * Brings `set` up to date in a SQLite database, in one BEGIN IMMEDIATE transaction: a second
 * process opening the file waits, then finds it done. Returns the migrations it applied.
 */
export function migrateSqlite(db: SqliteConnection, set: MigrationSet): Migration[] {
  return db.immediate(() => {
    db.exec(ledgerSql('INTEGER'));
    const record = db.prepare(
      `INSERT INTO ${MIGRATIONS_TABLE} (component, version, name, applied_at_ms) VALUES (?, ?, ?, ?)`,
    );
    const versions = () =>
      db
        .prepare<{ version: number }>(`SELECT version FROM ${MIGRATIONS_TABLE} WHERE component = ?`)
        .all(set.component)
        .map((row) => Number(row.version));
    let applied = versions();
    if (applied.length === 0 && set.legacy) {
      const present = db
        .prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`)
        .get(set.legacy.table);
      if (present) {
        const rows = db.prepare(legacySelect(set.legacy)).all();
        for (const row of adoptedRows(set, rows))
          record.run(set.component, row.version, row.name, row.appliedAtMs);
        applied = versions();
      }
    }
    const missing = pendingMigrations(set.migrations, applied);
    for (const migration of missing) {
      db.exec(migration.sql);
      record.run(set.component, migration.version, migration.name, Date.now());
    }
    return missing;
  });
}

export interface PostgresMigrationOptions {
  /** Schema to create (if missing) before the tables; the connection's search_path names it. */
  schema?: string;
  /**
   * Client-side limit for waiting on the lock and for each migration, which may rewrite a large
   * table (another instance may hold the lock for as long as its migration runs). The
   * connection's own query timeout when unset.
   */
  timeoutMs?: number;
}

/**
 * Brings `set` up to date in PostgreSQL on `client`, which must be inside a transaction (the
 * advisory lock is held until it ends). Returns the migrations it applied.
 */
export async function migratePostgres(
  client: pg.ClientBase,
  set: MigrationSet,
  options: PostgresMigrationOptions = {},
): Promise<Migration[]> {
  // query_timeout per query is read by the driver but missing from its QueryConfig type.
  const slow = (text: string, values: unknown[] = []) =>
    client.query(
      (options.timeoutMs === undefined
        ? { text, values }
        : { text, values, query_timeout: options.timeoutMs }) as pg.QueryConfig,
    );
  await slow('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
  if (options.schema) await client.query(`CREATE SCHEMA IF NOT EXISTS ${options.schema}`);
  await client.query(ledgerSql('BIGINT'));
  const record = (row: LedgerRow) =>
    client.query(
      `INSERT INTO ${MIGRATIONS_TABLE} (component, version, name, applied_at_ms) VALUES ($1, $2, $3, $4)`,
      [set.component, row.version, row.name, row.appliedAtMs],
    );
  const versions = async () =>
    (
      await client.query<{ version: number }>(
        `SELECT version FROM ${MIGRATIONS_TABLE} WHERE component = $1`,
        [set.component],
      )
    ).rows.map((row) => Number(row.version));
  let applied = await versions();
  if (applied.length === 0 && set.legacy) {
    // to_regclass resolves the name through the search_path, as the unqualified tables do.
    const { rows } = await client.query<{ present: boolean }>(
      'SELECT to_regclass($1) IS NOT NULL AS present',
      [set.legacy.table],
    );
    if (rows[0]?.present) {
      const legacyRows = (await client.query(legacySelect(set.legacy))).rows as Record<string, unknown>[];
      for (const row of adoptedRows(set, legacyRows)) await record(row);
      applied = await versions();
    }
  }
  const missing = pendingMigrations(set.migrations, applied);
  for (const migration of missing) {
    await slow(migration.sql);
    await record({ version: migration.version, name: migration.name, appliedAtMs: Date.now() });
  }
  return missing;
}
