import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteInsightStore } from '../../src/insight/store.js';
import {
  MIGRATIONS_TABLE,
  migrateSqlite,
  openSqliteConnection,
  type MigrationSet,
} from '../../src/sqlite/index.js';
import { openSqliteStore } from '../../src/submissions/store/index.js';
import { expectedLedger, expectLegacyRowsKept, legacyDatabaseSql } from './legacy-ledgers.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function databaseFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'frontdoor-ledger-'));
  dirs.push(dir);
  return join(dir, 'frontdoor.sqlite');
}

function ledgerOf(file: string): Record<string, unknown>[] {
  const db = openSqliteConnection(file, { readonly: true });
  try {
    return db
      .prepare(
        `SELECT component, version, name, applied_at_ms FROM ${MIGRATIONS_TABLE} ORDER BY component, version`,
      )
      .all();
  } finally {
    db.close();
  }
}

describe('the shared migration ledger', () => {
  it('adopts both legacy ledgers of a SQLite database without running a version twice or losing a row', async () => {
    const file = databaseFile();
    const legacy = openSqliteConnection(file);
    for (const sql of legacyDatabaseSql('sqlite')) legacy.exec(sql);
    legacy.close();

    // Re-running submissions version 2 would fail (its columns exist): opening proves it was adopted.
    const submissions = openSqliteStore(file);
    const insight = openSqliteInsightStore(file);
    try {
      await expectLegacyRowsKept(submissions, insight);
    } finally {
      await submissions.close();
      await insight.close();
    }
    expect(ledgerOf(file)).toEqual(expectedLedger('sqlite'));

    // The legacy ledgers stay as they were, for an older release opening the same file.
    const db = openSqliteConnection(file, { readonly: true });
    expect(db.prepare('SELECT count(*) AS n FROM frontdoor_schema_migrations').get()).toEqual({ n: 2 });
    expect(db.prepare('SELECT count(*) AS n FROM insight_schema_steps').get()).toEqual({ n: 3 });
    db.close();

    // Opening again adopts and applies nothing.
    await openSqliteStore(file).close();
    await openSqliteInsightStore(file).close();
    expect(ledgerOf(file)).toEqual(expectedLedger('sqlite'));
  });

  it('applies only the versions after the adopted ones, and records each part apart', () => {
    const file = databaseFile();
    const db = openSqliteConnection(file);
    try {
      db.exec('CREATE TABLE old_ledger (v INTEGER PRIMARY KEY, at INTEGER NOT NULL)');
      db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY)');
      db.exec('INSERT INTO old_ledger (v, at) VALUES (1, 1000)');
      const set: MigrationSet = {
        component: 'notes',
        migrations: [
          { version: 1, name: 'notes', sql: 'CREATE TABLE notes (id INTEGER PRIMARY KEY)' },
          { version: 2, name: 'note text', sql: 'ALTER TABLE notes ADD COLUMN body TEXT' },
        ],
        legacy: { table: 'old_ledger', versionColumn: 'v', appliedAtColumn: 'at' },
      };
      expect(migrateSqlite(db, set).map((m) => m.version)).toEqual([2]);
      expect(migrateSqlite(db, set)).toEqual([]);
      // Another part with the same version numbers has its own rows.
      const other: MigrationSet = {
        component: 'other',
        migrations: [{ version: 1, name: 'other', sql: 'CREATE TABLE other (id INTEGER PRIMARY KEY)' }],
      };
      expect(migrateSqlite(db, other).map((m) => m.version)).toEqual([1]);
      expect(
        db
          .prepare(
            `SELECT component, version, name, applied_at_ms FROM ${MIGRATIONS_TABLE} WHERE version = 1 ORDER BY component`,
          )
          .all(),
      ).toMatchObject([
        { component: 'notes', version: 1, name: 'notes', applied_at_ms: 1000 },
        { component: 'other', version: 1, name: 'other' },
      ]);
    } finally {
      db.close();
    }
  });
});
