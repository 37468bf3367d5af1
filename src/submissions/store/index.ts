import type { DatabaseConfig } from '../../config/index.js';
import { openPostgresStore, type PostgresStoreOptions } from './postgres.js';
import { openSqliteStore } from './sqlite.js';
import type { SubmissionStore } from './types.js';

export type * from './types.js';
export { openPostgresStore, type PostgresStoreOptions } from './postgres.js';
export { openSqliteStore, type SqliteSubmissionStore } from './sqlite.js';
export { POSTGRES_MIGRATIONS, SQLITE_MIGRATIONS } from './migrations.js';

export type StoreEvents = Pick<PostgresStoreOptions, 'onConnectionError' | 'onMigrated'>;

/** Opens the store the configuration names: SQLite under DATA_DIR, or PostgreSQL with DATABASE_URL. */
export async function openSubmissionStore(
  database: DatabaseConfig,
  events: StoreEvents = {},
): Promise<SubmissionStore> {
  return database.kind === 'postgres'
    ? openPostgresStore({
        url: database.url,
        poolSize: database.poolSize,
        connectTimeoutMs: database.connectTimeoutMs,
        queryTimeoutMs: database.queryTimeoutMs,
        ...events,
      })
    : openSqliteStore(database.file);
}
