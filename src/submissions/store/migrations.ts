import type { LegacyLedger, Migration, MigrationSet } from '../../sqlite/index.js';
import { OUTBOX_TABLE, schemaSql, SUBMISSIONS_TABLE } from './rows.js';

/**
 * The submissions' schema, one ordered list of versions per database, applied by the shared
 * mechanism (src/sqlite/migrations.ts) under the component name `submissions`.
 *
 * To change the schema, append a version to both lists (never edit an applied one). Version 1 is
 * the schema as it was before versioning, written with IF NOT EXISTS, so a database created by an
 * older release is adopted as it is.
 */

/** Where the submissions recorded their versions before the shared ledger. */
const LEGACY_LEDGER: LegacyLedger = {
  table: 'frontdoor_schema_migrations',
  versionColumn: 'version',
  appliedAtColumn: 'applied_at_ms',
};

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
  {
    version: 3,
    name: 'the configured form a submission came from',
    sql: `ALTER TABLE ${SUBMISSIONS_TABLE} ADD COLUMN form TEXT;`,
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
  {
    version: 3,
    name: 'the configured form a submission came from',
    sql: `ALTER TABLE ${SUBMISSIONS_TABLE} ADD COLUMN form TEXT;`,
  },
];

export const POSTGRES_MIGRATION_SET: MigrationSet = {
  component: 'submissions',
  migrations: POSTGRES_MIGRATIONS,
  legacy: LEGACY_LEDGER,
};

export const SQLITE_MIGRATION_SET: MigrationSet = {
  component: 'submissions',
  migrations: SQLITE_MIGRATIONS,
  legacy: LEGACY_LEDGER,
};
