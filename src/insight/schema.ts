import type { LegacyLedger, Migration, MigrationSet } from '../sqlite/index.js';

/**
 * The insight tables, applied by the shared migrations (src/sqlite/migrations.ts) under the
 * component name `insight`; the list only ever grows, and each version's SQL is written out in
 * full (not built from shared lists) so that it stays what it was when databases applied it. Days are ISO dates (`YYYY-MM-DD`, UTC) as
 * text in both dialects, so ranges compare the same way everywhere. SQLite stores BIGINT as
 * INTEGER affinity, so the same text serves both dialects.
 */
export type InsightDialect = 'sqlite' | 'postgres';

export const INSIGHT_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    // Every answered search, including those whose text is withheld (asked by fewer than k clients).
    name: 'searches per day, client class and channel',
    sql: `CREATE TABLE IF NOT EXISTS insight_searches (
     day TEXT NOT NULL,
     client_class TEXT NOT NULL,
     channel TEXT NOT NULL,
     searches BIGINT NOT NULL,
     zero_results BIGINT NOT NULL,
     weak_matches BIGINT NOT NULL,
     PRIMARY KEY (day, client_class, channel)
   )`,
  },
  {
    version: 2,
    // Searches by normalised text: only texts asked by at least k distinct clients that day.
    name: 'searches per query text',
    sql: `CREATE TABLE IF NOT EXISTS insight_queries (
     day TEXT NOT NULL,
     query TEXT NOT NULL,
     client_class TEXT NOT NULL,
     searches BIGINT NOT NULL,
     zero_results BIGINT NOT NULL,
     weak_matches BIGINT NOT NULL,
     PRIMARY KEY (day, query, client_class)
   )`,
  },
  {
    version: 3,
    // Requests to discovery documents and /ask; agent is a name from the classification table or ''.
    name: 'reads of discovery documents and /ask',
    sql: `CREATE TABLE IF NOT EXISTS insight_reads (
     day TEXT NOT NULL,
     client_class TEXT NOT NULL,
     document TEXT NOT NULL,
     agent TEXT NOT NULL,
     requests BIGINT NOT NULL,
     PRIMARY KEY (day, client_class, document, agent)
   )`,
  },
];

/** Where insight recorded its steps before the shared ledger (`applied_at` as ISO text). */
const LEGACY_LEDGER: LegacyLedger = {
  table: 'insight_schema_steps',
  versionColumn: 'step',
  appliedAtColumn: 'applied_at',
};

export const INSIGHT_MIGRATION_SET: MigrationSet = {
  component: 'insight',
  migrations: INSIGHT_MIGRATIONS,
  legacy: LEGACY_LEDGER,
};
