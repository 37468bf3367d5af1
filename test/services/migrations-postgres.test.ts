import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_TABLE } from '../../src/sqlite/index.js';
import {
  openPostgresStore,
  POSTGRES_MIGRATIONS,
  type SubmissionStore,
} from '../../src/submissions/store/index.js';
import { schemaSql } from '../../src/submissions/store/rows.js';
import { newSubmission } from '../support/submissions.js';
import { OLD_ROWS, oldRowsSql } from '../submissions/old-schema.js';
import { openInsightStore } from '../../src/insight/index.js';
import { expectedLedger, expectLegacyRowsKept, legacyDatabaseSql } from '../sqlite/legacy-ledgers.js';
import { createTestSchema } from './postgres.js';

describe('PostgreSQL migrations', () => {
  let testSchema: Awaited<ReturnType<typeof createTestSchema>>;
  const stores: SubmissionStore[] = [];

  beforeAll(async () => {
    testSchema = await createTestSchema();
    // The database as the release before versioned migrations left it.
    const client = new pg.Client({ connectionString: testSchema.url });
    await client.connect();
    await client.query(schemaSql('BIGINT'));
    await client.query(oldRowsSql());
    await client.end();
  });
  afterAll(async () => {
    for (const store of stores) await store.close();
    await testSchema?.drop();
  });

  it('upgrade the old schema once while four instances open it at the same moment', async () => {
    const applied: number[][] = [];
    stores.push(
      ...(await Promise.all(
        Array.from({ length: 4 }, () =>
          openPostgresStore({
            url: testSchema.url,
            onMigrated: (versions) => applied.push(versions.map((v) => v.version)),
          }),
        ),
      )),
    );
    // Exactly one instance applied the versions (1 adopts the existing tables); the others found them done.
    expect(applied.flat().sort()).toEqual(POSTGRES_MIGRATIONS.map((m) => m.version));
    expect(applied.filter((versions) => versions.length > 0)).toHaveLength(1);
    const client = new pg.Client({ connectionString: testSchema.url });
    await client.connect();
    const rows = await client.query(
      `SELECT version, name FROM ${MIGRATIONS_TABLE} WHERE component = 'submissions' ORDER BY version`,
    );
    await client.end();
    expect(rows.rows).toEqual(POSTGRES_MIGRATIONS.map(({ version, name }) => ({ version, name })));

    const [store] = stores;
    expect(await store!.get(OLD_ROWS.pending.id)).toMatchObject({
      fields: OLD_ROWS.pending.fields,
      quarantineReason: null,
      erasedAtMs: null,
      delivery: { state: 'pending', attempts: 1 },
    });
    // The widened state constraint accepts a quarantined row.
    const held = newSubmission({ quarantineReason: 'too-fast' });
    expect((await store!.insert(held, 0)).status).toBe('created');
    expect((await store!.get(held.id))!.delivery).toMatchObject({ state: 'quarantine' });
  });
});

describe('PostgreSQL: the shared migration ledger', () => {
  let testSchema: Awaited<ReturnType<typeof createTestSchema>>;

  beforeAll(async () => {
    testSchema = await createTestSchema();
    // The database as the release before the shared ledger left it: both legacy ledgers, a row each.
    const client = new pg.Client({ connectionString: testSchema.url });
    await client.connect();
    for (const sql of legacyDatabaseSql('postgres')) await client.query(sql);
    await client.end();
  });
  afterAll(async () => {
    await testSchema?.drop();
  });

  it('adopts both legacy ledgers while instances of both parts open the database together', async () => {
    const applied: number[][] = [];
    const database = {
      kind: 'postgres',
      url: testSchema.url,
      poolSize: 2,
      connectTimeoutMs: 5_000,
      queryTimeoutMs: 5_000,
    } as const;
    const [submissions, otherSubmissions, insight, otherInsight] = await Promise.all([
      openPostgresStore({ url: testSchema.url, onMigrated: (v) => applied.push(v.map((m) => m.version)) }),
      openPostgresStore({ url: testSchema.url, onMigrated: (v) => applied.push(v.map((m) => m.version)) }),
      openInsightStore(database),
      openInsightStore(database),
    ]);
    try {
      // Nothing the legacy ledger records is applied again (version 2 would fail on its existing
      // columns); the one later migration (3: the form column) is applied once, by one instance.
      expect(applied).toHaveLength(2);
      expect(applied.flat()).toEqual([3]);
      await expectLegacyRowsKept(submissions!, insight!);
    } finally {
      await Promise.all(
        [submissions, otherSubmissions, insight, otherInsight].map((store) => store!.close()),
      );
    }
    const client = new pg.Client({ connectionString: testSchema.url });
    await client.connect();
    try {
      const { rows } = await client.query(
        `SELECT component, version, name, applied_at_ms FROM ${MIGRATIONS_TABLE} ORDER BY component, version`,
      );
      expect(rows.map((row) => ({ ...row, applied_at_ms: Number(row.applied_at_ms) }))).toEqual(
        expectedLedger('postgres'),
      );
      const legacy = await client.query(
        'SELECT (SELECT count(*) FROM frontdoor_schema_migrations) AS submissions, (SELECT count(*) FROM insight_schema_steps) AS insight',
      );
      expect(legacy.rows).toEqual([{ submissions: '2', insight: '3' }]);
    } finally {
      await client.end();
    }
  });
});
