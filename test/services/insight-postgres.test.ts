import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInsight } from '../../src/cli/insight.js';
import {
  createInsightRecorder,
  INSIGHT_MIGRATIONS,
  openInsightStore,
  type InsightReport,
} from '../../src/insight/index.js';
import type { AnswerSummary } from '../../src/nlweb/index.js';
import { BROWSER_HEADERS, send, USER_AGENTS } from '../insight/traffic.js';
import { MIGRATIONS_TABLE } from '../../src/sqlite/index.js';
import { startInsightServer } from '../support/servers.js';
import { createTestSchema } from './postgres.js';
import pg from 'pg';

const FOUND: AnswerSummary = { resultCount: 2, queryTermCount: 1, weak: false, topScore: 4 };
const postgresAt = (url: string) =>
  ({ kind: 'postgres', url, poolSize: 2, connectTimeoutMs: 5_000, queryTimeoutMs: 5_000 }) as const;
const PERSON = { 'user-agent': USER_AGENTS.firefox, ...BROWSER_HEADERS };

describe('insight on PostgreSQL', () => {
  let testSchema: Awaited<ReturnType<typeof createTestSchema>>;

  beforeAll(async () => {
    testSchema = await createTestSchema();
  });
  afterAll(async () => {
    await testSchema?.drop();
  });

  it('stores the aggregates of known traffic through the HTTP server, with the k threshold', async () => {
    const site = await startInsightServer({ DATABASE_URL: testSchema.url });
    try {
      const get = (path: string, headers: Record<string, string>) => send(site.url, 'GET', path, headers);
      for (const ip of ['10.4.0.1', '10.4.0.2', '10.4.0.3'])
        await get('/ask?query=zorblax+quux', { ...PERSON, 'x-forwarded-for': ip });
      await get('/ask?query=only+once', { ...PERSON, 'x-forwarded-for': '10.4.0.9' });
      await get('/llms.txt', { 'user-agent': USER_AGENTS.gptBot, 'x-forwarded-for': '10.4.1.1' });
    } finally {
      // Stopping writes the last counts to PostgreSQL; the SQLite-free data folder goes too.
      await site.close();
    }
    const today = new Date().toISOString().slice(0, 10);
    let out = '';
    const code = await runInsight(['--json', '--from', today], {
      env: { DATABASE_URL: testSchema.url, LOG_LEVEL: 'silent' },
      cwd: process.cwd(),
      out: (text) => (out += text),
      err: (text) => (out += text),
    });
    expect(code).toBe(0);
    const report = JSON.parse(out) as InsightReport;
    expect(report.totals).toEqual({ searches: 4, zeroResults: 3, weakMatches: 1 });
    expect(report.topQueries.map((q) => [q.query, q.searches, q.zeroResults])).toEqual([
      ['zorblax quux', 3, 3],
    ]);
    expect(report.readership.map((d) => [d.document, d.requests, d.agents])).toEqual([
      ['llms.txt', 1, [{ name: 'GPTBot', requests: 1 }]],
      ['ask', 4, []],
    ]);
  });

  it('two instances add their counts to the same rows', async () => {
    const day = Date.parse('2026-05-04T10:00:00Z');
    const make = async () =>
      createInsightRecorder({
        store: await openInsightStore(postgresAt(testSchema.url)),
        logger: pino({ level: 'silent' }),
        minClients: 2,
        retentionMonths: 13,
        flushIntervalMs: 600_000,
        now: () => day,
      });
    const [first, second] = await Promise.all([make(), make()]);
    for (const recorder of [first, second]) {
      recorder.search('post', 'audit trail', FOUND, PERSON, '192.0.2.1');
      recorder.search('post', 'audit trail', FOUND, PERSON, '192.0.2.2');
      recorder.response('/openapi.json', 200, 'application/json', { 'user-agent': USER_AGENTS.claudeUser });
    }
    await Promise.all([first.flush(), second.flush()]);
    const stored = await first.store.read('2026-05-04', '2026-05-04');
    expect(stored.queries).toEqual([
      { query: 'audit trail', clientClass: 'browser', searches: 4, zeroResults: 0, weakMatches: 0 },
    ]);
    expect(stored.reads).toEqual([
      { document: 'ask', clientClass: 'browser', agent: '', requests: 4 },
      { document: 'openapi.json', clientClass: 'agent', agent: 'Claude-User', requests: 2 },
    ]);
    await Promise.all([first.close(), second.close()]);
  });

  it('applies each schema step once, however many instances open the store together', async () => {
    const stores = await Promise.all([1, 2, 3].map(() => openInsightStore(postgresAt(testSchema.url))));
    await Promise.all(stores.map((store) => store.close()));
    const client = new pg.Client({ connectionString: testSchema.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ version: number }>(
        `SELECT version FROM ${MIGRATIONS_TABLE} WHERE component = 'insight' ORDER BY version`,
      );
      expect(rows.map((row) => Number(row.version))).toEqual(INSIGHT_MIGRATIONS.map((_, index) => index + 1));
    } finally {
      await client.end();
    }
  });

  it('deletes rows older than the retention period', async () => {
    const store = await openInsightStore(postgresAt(testSchema.url));
    await store.write({
      searches: [
        {
          day: '2020-01-01',
          clientClass: 'other',
          channel: 'get',
          searches: 1,
          zeroResults: 0,
          weakMatches: 0,
        },
      ],
      queries: [],
      reads: [{ day: '2020-01-01', clientClass: 'other', document: 'robots.txt', agent: '', requests: 1 }],
    });
    expect(await store.deleteBefore('2020-01-02')).toBe(2);
    expect((await store.read('2020-01-01', '2020-01-01')).searchesByDay).toEqual([]);
    await store.close();
  });
});
