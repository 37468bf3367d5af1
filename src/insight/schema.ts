/**
 * The insight tables, as an ordered list of SQL steps per dialect. Step n is applied once, in
 * order, and recorded in `insight_schema_steps`, so a later step may alter what an earlier one
 * made; the list only ever grows. Days are ISO dates (`YYYY-MM-DD`, UTC) as text in both dialects,
 * so ranges compare the same way everywhere.
 */
export type InsightDialect = 'sqlite' | 'postgres';

export const INSIGHT_STEPS_TABLE = 'insight_schema_steps';

const COMMON_STEPS: readonly string[] = [
  // Every answered search, including those whose text is withheld (asked by fewer than k clients).
  `CREATE TABLE IF NOT EXISTS insight_searches (
     day TEXT NOT NULL,
     client_class TEXT NOT NULL,
     channel TEXT NOT NULL,
     searches BIGINT NOT NULL,
     zero_results BIGINT NOT NULL,
     weak_matches BIGINT NOT NULL,
     PRIMARY KEY (day, client_class, channel)
   )`,
  // Searches by normalised text: only texts asked by at least k distinct clients that day.
  `CREATE TABLE IF NOT EXISTS insight_queries (
     day TEXT NOT NULL,
     query TEXT NOT NULL,
     client_class TEXT NOT NULL,
     searches BIGINT NOT NULL,
     zero_results BIGINT NOT NULL,
     weak_matches BIGINT NOT NULL,
     PRIMARY KEY (day, query, client_class)
   )`,
  // Requests to discovery documents and /ask; agent is a name from the classification table or ''.
  `CREATE TABLE IF NOT EXISTS insight_reads (
     day TEXT NOT NULL,
     client_class TEXT NOT NULL,
     document TEXT NOT NULL,
     agent TEXT NOT NULL,
     requests BIGINT NOT NULL,
     PRIMARY KEY (day, client_class, document, agent)
   )`,
];

/** SQLite stores BIGINT as INTEGER affinity; the same text serves both dialects today. */
export const INSIGHT_SCHEMA: Readonly<Record<InsightDialect, readonly string[]>> = {
  sqlite: COMMON_STEPS,
  postgres: COMMON_STEPS,
};

export const STEPS_TABLE_SQL = `CREATE TABLE IF NOT EXISTS ${INSIGHT_STEPS_TABLE} (
  step INTEGER PRIMARY KEY,
  applied_at TEXT NOT NULL
)`;
