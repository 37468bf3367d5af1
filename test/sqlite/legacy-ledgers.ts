/**
 * A database as the release before the shared migration ledger left it: the submissions' tables at
 * version 2 recorded in `frontdoor_schema_migrations`, insight's three tables recorded in
 * `insight_schema_steps`, and a row in each, for the upgrade tests of both databases.
 */
import { POSTGRES_MIGRATIONS, SQLITE_MIGRATIONS } from '../../src/submissions/store/index.js';
import { INSIGHT_MIGRATIONS } from '../../src/insight/index.js';
import { expect } from 'vitest';
import type { InsightStore } from '../../src/insight/index.js';
import type { SubmissionStore } from '../../src/submissions/index.js';
import { OLD_ROWS, oldRowsSql } from '../submissions/old-schema.js';

export const LEGACY_TIMES = {
  submissions: [Date.UTC(2025, 0, 1), Date.UTC(2025, 5, 1)],
  insight: ['2025-07-01T10:00:00.000Z', '2025-07-01T10:00:00.001Z', '2025-07-01T10:00:00.002Z'],
};

export const LEGACY_SEARCH = { day: '2025-07-02', client_class: 'browser', channel: 'ask', searches: 7 };

/** Statements, in order, that build the legacy database (`millis`: INTEGER or BIGINT). */
/** The submissions' versions that release had: 1 and 2 (later ones are applied by the upgrade). */
const LEGACY_VERSIONS = 2;

export function legacyDatabaseSql(dialect: 'sqlite' | 'postgres'): string[] {
  const millis = dialect === 'sqlite' ? 'INTEGER' : 'BIGINT';
  const submissions = (dialect === 'sqlite' ? SQLITE_MIGRATIONS : POSTGRES_MIGRATIONS).slice(
    0,
    LEGACY_VERSIONS,
  );
  return [
    `CREATE TABLE frontdoor_schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at_ms ${millis} NOT NULL)`,
    ...submissions.map((m) => m.sql),
    ...submissions.map(
      (m, i) =>
        `INSERT INTO frontdoor_schema_migrations (version, name, applied_at_ms) VALUES (${m.version}, '${m.name}', ${LEGACY_TIMES.submissions[i]})`,
    ),
    oldRowsSql(),
    'CREATE TABLE insight_schema_steps (step INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)',
    ...INSIGHT_MIGRATIONS.map((m) => m.sql),
    ...INSIGHT_MIGRATIONS.map(
      (m, i) =>
        `INSERT INTO insight_schema_steps (step, applied_at) VALUES (${m.version}, '${LEGACY_TIMES.insight[i]}')`,
    ),
    `INSERT INTO insight_searches (day, client_class, channel, searches, zero_results, weak_matches)
       VALUES ('${LEGACY_SEARCH.day}', '${LEGACY_SEARCH.client_class}', '${LEGACY_SEARCH.channel}', ${LEGACY_SEARCH.searches}, 1, 0)`,
  ];
}

/** The shared ledger as the upgrade must leave it: every legacy version, with its name and time. */
export function expectedLedger(dialect: 'sqlite' | 'postgres') {
  const submissions = dialect === 'sqlite' ? SQLITE_MIGRATIONS : POSTGRES_MIGRATIONS;
  return [
    ...INSIGHT_MIGRATIONS.map((m, i) => ({
      component: 'insight',
      version: m.version,
      name: m.name,
      applied_at_ms: Date.parse(LEGACY_TIMES.insight[i]!),
    })),
    ...submissions.map((m, i) => ({
      component: 'submissions',
      version: m.version,
      name: m.name,
      // Versions after the legacy release are applied by the upgrade itself, now.
      applied_at_ms: i < LEGACY_VERSIONS ? LEGACY_TIMES.submissions[i] : expect.any(Number),
    })),
  ];
}

export { OLD_ROWS };

/** The legacy database's rows, read through both stores after the upgrade: nothing was lost. */
export async function expectLegacyRowsKept(submissions: SubmissionStore, insight: InsightStore) {
  expect(await submissions.get(OLD_ROWS.pending.id)).toMatchObject({ fields: OLD_ROWS.pending.fields });
  const stored = await insight.read(LEGACY_SEARCH.day, LEGACY_SEARCH.day);
  expect(stored.searchesByChannel).toEqual([
    {
      clientClass: 'browser',
      channel: 'ask',
      searches: LEGACY_SEARCH.searches,
      zeroResults: 1,
      weakMatches: 0,
    },
  ]);
}
