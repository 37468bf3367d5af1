import { OUTBOX_TABLE, schemaSql, SUBMISSIONS_TABLE } from './rows.js';

/**
 * Versioned schema changes, one ordered list per database. A database records what it has applied
 * in `frontdoor_schema_migrations`; opening a store applies the missing versions in order, in one
 * transaction, under a lock (PostgreSQL: an advisory lock; SQLite: BEGIN IMMEDIATE), so several
 * instances starting together apply each version exactly once.
 *
 * To change the schema, append a version to both lists (never edit an applied one). Version 1 is
 * the schema as it was before versioning, written with IF NOT EXISTS, so a database created by an
 * older release is adopted as it is.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS_TABLE = 'frontdoor_schema_migrations';

export const MIGRATIONS_TABLE_SQL = (millis: 'INTEGER' | 'BIGINT') => `
CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (
  version INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  applied_at_ms ${millis} NOT NULL
)`;

const OUTBOX_STATES_V2 = `('pending', 'delivered', 'dead', 'quarantine')`;

export const POSTGRES_MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'submissions and outbox', sql: schemaSql('BIGINT') },
  {
    version: 2,
    name: 'quarantine state, personal data erasure',
    sql: `
ALTER TABLE ${OUTBOX_TABLE} DROP CONSTRAINT IF EXISTS ${OUTBOX_TABLE}_state_check;
ALTER TABLE ${OUTBOX_TABLE} ADD CONSTRAINT ${OUTBOX_TABLE}_state_check CHECK (state IN ${OUTBOX_STATES_V2});
ALTER TABLE ${SUBMISSIONS_TABLE} ADD COLUMN quarantine_reason TEXT;
ALTER TABLE ${SUBMISSIONS_TABLE} ADD COLUMN erased_at_ms BIGINT;
CREATE INDEX ${OUTBOX_TABLE}_delivered ON ${OUTBOX_TABLE} (state, delivered_at_ms);
`,
  },
];

export const SQLITE_MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'submissions and outbox', sql: schemaSql('INTEGER') },
  {
    version: 2,
    name: 'quarantine state, personal data erasure',
    // SQLite cannot change a CHECK constraint in place: the outbox table is rebuilt.
    sql: `
CREATE TABLE ${OUTBOX_TABLE}_v2 (
  submission_id TEXT PRIMARY KEY REFERENCES ${SUBMISSIONS_TABLE} (id),
  provider TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ${OUTBOX_STATES_V2}),
  attempts INTEGER NOT NULL,
  next_attempt_at_ms INTEGER,
  lease_token TEXT,
  lease_until_ms INTEGER,
  last_error TEXT,
  delivered_at_ms INTEGER,
  updated_at_ms INTEGER NOT NULL
);
INSERT INTO ${OUTBOX_TABLE}_v2 (submission_id, provider, state, attempts, next_attempt_at_ms, lease_token,
  lease_until_ms, last_error, delivered_at_ms, updated_at_ms)
  SELECT submission_id, provider, state, attempts, next_attempt_at_ms, lease_token, lease_until_ms, last_error,
    delivered_at_ms, updated_at_ms FROM ${OUTBOX_TABLE};
DROP TABLE ${OUTBOX_TABLE};
ALTER TABLE ${OUTBOX_TABLE}_v2 RENAME TO ${OUTBOX_TABLE};
CREATE INDEX ${OUTBOX_TABLE}_due ON ${OUTBOX_TABLE} (state, next_attempt_at_ms);
CREATE INDEX ${OUTBOX_TABLE}_delivered ON ${OUTBOX_TABLE} (state, delivered_at_ms);
ALTER TABLE ${SUBMISSIONS_TABLE} ADD COLUMN quarantine_reason TEXT;
ALTER TABLE ${SUBMISSIONS_TABLE} ADD COLUMN erased_at_ms INTEGER;
`,
  },
];

/** The versions of `list` not yet in `applied`, in order. */
export function pendingMigrations(list: readonly Migration[], applied: Iterable<number>): Migration[] {
  const done = new Set(applied);
  return [...list].sort((a, b) => a.version - b.version).filter((migration) => !done.has(migration.version));
}
