import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MIGRATIONS_TABLE,
  openPostgresStore,
  POSTGRES_MIGRATIONS,
  type SubmissionStore,
} from '../../src/submissions/store/index.js';
import { schemaSql } from '../../src/submissions/store/rows.js';
import { newSubmission } from '../submissions/store-contract.js';
import { OLD_ROWS, oldRowsSql } from '../submissions/old-schema.js';
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
    const rows = await client.query(`SELECT version, name FROM ${MIGRATIONS_TABLE} ORDER BY version`);
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
