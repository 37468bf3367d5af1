/**
 * Storage primitives the parts that keep tables share: the SQLite connection (over whichever
 * driver the running Node has) and versioned schema migrations for SQLite and PostgreSQL.
 */

export {
  MIGRATIONS_TABLE,
  migratePostgres,
  migrateSqlite,
  pendingMigrations,
  type LegacyLedger,
  type Migration,
  type MigrationSet,
  type PostgresMigrationOptions,
} from './migrations.js';
export {
  openSqliteConnection,
  sqliteDriverName,
  type SqliteConnection,
  type SqliteDriverName,
  type SqliteStatement,
} from './sqlite-driver.js';
