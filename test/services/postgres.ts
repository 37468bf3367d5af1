import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The PostgreSQL the services suite uses (trust auth, database `test`). */
export const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Fails (never skips) with a message naming the missing service and how to start it. */
export async function requirePostgres(): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    throw new Error(
      `PostgreSQL not reachable at ${POSTGRES_URL.replace(/:[^:@/]*@/, ':***@')} (${(error as Error).message}) — ` +
        'start it with `sudo service postgresql start` (Debian: `pg_ctlcluster 15 main start`), or set ' +
        'TEST_DATABASE_URL to a reachable database.',
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A uniquely named schema for one test file, and a way to drop it. */
export async function createTestSchema(): Promise<{ schema: string; url: string; drop(): Promise<void> }> {
  await requirePostgres();
  const schema = `frontdoor_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const separator = POSTGRES_URL.includes('?') ? '&' : '?';
  return {
    schema,
    // What an operator would write to keep the tables in their own schema.
    url: `${POSTGRES_URL}${separator}options=${encodeURIComponent(`-c search_path=${schema}`)}`,
    drop: async () => {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    },
  };
}
