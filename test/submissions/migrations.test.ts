import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS_TABLE, openSqliteConnection, pendingMigrations } from '../../src/sqlite/index.js';
import {
  openSqliteStore,
  POSTGRES_MIGRATIONS,
  SQLITE_MIGRATIONS,
} from '../../src/submissions/store/index.js';
import { schemaSql } from '../../src/submissions/store/rows.js';
import { OLD_ROWS, oldRowsSql } from './old-schema.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A database as the release before versioned migrations left it: the old tables, two rows. */
function oldDatabase(): string {
  const dir = mkdtempSync(join(tmpdir(), 'frontdoor-migrate-'));
  dirs.push(dir);
  const file = join(dir, 'frontdoor.sqlite');
  const db = openSqliteConnection(file);
  db.exec(schemaSql('INTEGER'));
  db.exec(oldRowsSql());
  db.close();
  return file;
}

describe('versioned migrations', () => {
  it('keep one ordered list per database, with the same versions in both', () => {
    for (const list of [SQLITE_MIGRATIONS, POSTGRES_MIGRATIONS]) {
      const versions = list.map((migration) => migration.version);
      expect(versions).toEqual([...versions].sort((a, b) => a - b));
      expect(new Set(versions).size).toBe(versions.length);
    }
    expect(SQLITE_MIGRATIONS.map((m) => m.version)).toEqual(POSTGRES_MIGRATIONS.map((m) => m.version));
    expect(pendingMigrations(SQLITE_MIGRATIONS, [1]).map((m) => m.version)).toEqual(
      SQLITE_MIGRATIONS.slice(1).map((m) => m.version),
    );
  });

  it('upgrade a SQLite database of the old schema once, keeping its rows and their meaning', async () => {
    const file = oldDatabase();
    const store = openSqliteStore(file);
    try {
      const pending = await store.get(OLD_ROWS.pending.id);
      expect(pending).toMatchObject({
        fields: OLD_ROWS.pending.fields,
        quarantineReason: null,
        erasedAtMs: null,
        delivery: { state: 'pending', attempts: 1, provider: 'crm' },
      });
      expect((await store.get(OLD_ROWS.delivered.id))!.delivery).toMatchObject({ state: 'delivered' });
      // The old pending row is still delivered by the worker.
      const claimed = await store.claimDue({
        nowMs: Date.now(),
        limit: 10,
        leaseUntilMs: Date.now() + 1,
        leaseToken: 't',
      });
      expect(claimed.map((claim) => claim.submission.id)).toEqual([OLD_ROWS.pending.id]);
      // The new state is accepted by the rebuilt table.
      expect(await store.release([OLD_ROWS.pending.id], Date.now())).toEqual([
        { id: OLD_ROWS.pending.id, released: false, reason: 'not-quarantined' },
      ]);
    } finally {
      await store.close();
    }
    // Opening again applies nothing twice.
    await openSqliteStore(file).close();
    const db = openSqliteConnection(file, { readonly: true });
    const applied = db.prepare<{ version: number; name: string }>(
      `SELECT version, name FROM ${MIGRATIONS_TABLE} WHERE component = 'submissions' ORDER BY version`,
    );
    expect(applied.all()).toEqual(SQLITE_MIGRATIONS.map(({ version, name }) => ({ version, name })));
    const indexes = db
      .prepare<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'frontdoor_outbox' ORDER BY name",
      )
      .all()
      .map((row) => row.name);
    expect(indexes).toContain('frontdoor_outbox_due');
    db.close();
  });

  it('create a new SQLite database at the latest version', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'frontdoor-migrate-'));
    dirs.push(dir);
    const file = join(dir, 'frontdoor.sqlite');
    await openSqliteStore(file).close();
    const db = openSqliteConnection(file, { readonly: true });
    expect(
      db
        .prepare(`SELECT max(version) AS latest FROM ${MIGRATIONS_TABLE} WHERE component = 'submissions'`)
        .get(),
    ).toEqual({
      latest: SQLITE_MIGRATIONS.at(-1)!.version,
    });
    db.close();
  });
});
