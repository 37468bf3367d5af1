import type { DatabaseConfig } from '../../config/index.js';
import { openPostgresStore } from './postgres.js';
import { openSqliteStore } from './sqlite.js';
import type { SubmissionStore } from './types.js';

export type * from './types.js';
export { openPostgresStore, type PostgresStoreOptions } from './postgres.js';
export { openSqliteStore, type SqliteSubmissionStore } from './sqlite.js';

/** Opens the store the configuration names: SQLite under DATA_DIR, or PostgreSQL with DATABASE_URL. */
export async function openSubmissionStore(database: DatabaseConfig): Promise<SubmissionStore> {
  return database.kind === 'postgres'
    ? openPostgresStore({ url: database.url })
    : openSqliteStore(database.file);
}
