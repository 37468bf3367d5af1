import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createInsightRecorder,
  openInsightStore,
  retentionStartDay,
  type InsightStore,
} from '../../src/insight/index.js';
import { seededHash } from '../../src/insight/recorder.js';
import type { AnswerSummary } from '../../src/nlweb/index.js';

const FOUND: AnswerSummary = { resultCount: 3, queryTermCount: 2, weak: false, topScore: 9 };
const NOTHING: AnswerSummary = { resultCount: 0, queryTermCount: 2, weak: false, topScore: 0 };
const PERSON = {
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  'accept-language': 'en',
};

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

async function sqliteStore(): Promise<InsightStore> {
  const folder = mkdtempSync(join(tmpdir(), 'frontdoor-insight-recorder-'));
  folders.push(folder);
  return openInsightStore({ kind: 'sqlite', file: join(folder, 'frontdoor.sqlite') });
}

function recorderAt(store: InsightStore, clock: { now: number }, minClients = 3) {
  return createInsightRecorder({
    store,
    logger: pino({ level: 'silent' }),
    minClients,
    retentionMonths: 13,
    flushIntervalMs: 600_000,
    now: () => clock.now,
  });
}

const storedQueries = async (store: InsightStore, day: string) =>
  (await store.read(day, day)).queries.map((row) => [row.query, row.searches]);

describe('insight recorder', () => {
  it('stores a text once k distinct clients asked it the same day, not before', async () => {
    const store = await sqliteStore();
    const clock = { now: Date.parse('2026-03-10T12:00:00Z') };
    const recorder = recorderAt(store, clock, 3);
    recorder.search('get', 'Data residency', FOUND, PERSON, '192.0.2.1');
    recorder.search('get', 'data residency', FOUND, PERSON, '192.0.2.1');
    recorder.search('get', 'data   residency', FOUND, PERSON, '192.0.2.2');
    await recorder.flush();
    expect(await storedQueries(store, '2026-03-10')).toEqual([]);
    expect(recorder.pendingQueries).toBe(1);

    recorder.search('post', 'DATA RESIDENCY', NOTHING, PERSON, '192.0.2.3');
    await recorder.flush();
    expect(await storedQueries(store, '2026-03-10')).toEqual([['data residency', 4]]);
    expect(recorder.pendingQueries).toBe(0);
    await recorder.close();
  });

  it("keeps a pending text's counts by client class, and stores each class's counts once released", async () => {
    const store = await sqliteStore();
    const clock = { now: Date.parse('2026-03-10T12:00:00Z') };
    const recorder = recorderAt(store, clock, 3);
    const WEAK: AnswerSummary = { ...FOUND, weak: true };
    const AGENT = {
      'user-agent': 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0)',
    };
    recorder.search('get', 'site feasibility', WEAK, AGENT, '192.0.2.7');
    recorder.search('get', 'site feasibility', NOTHING, PERSON, '192.0.2.1');
    recorder.search('get', 'site feasibility', FOUND, PERSON, '192.0.2.1');
    recorder.search('get', 'site feasibility', NOTHING, AGENT, '192.0.2.7');
    await recorder.flush();
    expect(await storedQueries(store, '2026-03-10')).toEqual([]);
    recorder.search('page', 'Site feasibility', FOUND, PERSON, '192.0.2.2');
    await recorder.flush();
    const rows = (await store.read('2026-03-10', '2026-03-10')).queries.map((row) => ({
      clientClass: row.clientClass,
      searches: row.searches,
      zeroResults: row.zeroResults,
      weakMatches: row.weakMatches,
    }));
    expect(rows.sort((a, b) => a.clientClass.localeCompare(b.clientClass))).toEqual([
      { clientClass: 'agent', searches: 2, zeroResults: 1, weakMatches: 1 },
      { clientClass: 'browser', searches: 3, zeroResults: 1, weakMatches: 0 },
    ]);
    await recorder.close();
  });

  it('forgets texts below k at midnight: clients of two days never add up', async () => {
    const store = await sqliteStore();
    const clock = { now: Date.parse('2026-03-10T23:59:00Z') };
    const recorder = recorderAt(store, clock, 2);
    recorder.search('get', 'hosting region', FOUND, PERSON, '192.0.2.1');
    clock.now = Date.parse('2026-03-11T00:01:00Z');
    recorder.search('get', 'hosting region', FOUND, PERSON, '192.0.2.2');
    await recorder.flush();
    expect(await storedQueries(store, '2026-03-10')).toEqual([]);
    expect(await storedQueries(store, '2026-03-11')).toEqual([]);
    // The totals still count both searches, each on its own day.
    const totals = await store.read('2026-03-10', '2026-03-11');
    expect(totals.searchesByDay.map((row) => [row.day, row.searches])).toEqual([
      ['2026-03-10', 1],
      ['2026-03-11', 1],
    ]);
    recorder.search('get', 'hosting region', FOUND, PERSON, '192.0.2.3');
    await recorder.flush();
    expect(await storedQueries(store, '2026-03-11')).toEqual([['hosting region', 2]]);
    await recorder.close();
  });

  it('tracks at most maxPendingQueries texts below k, forgetting the older ones', async () => {
    const store = await sqliteStore();
    const recorder = createInsightRecorder({
      store,
      logger: pino({ level: 'silent' }),
      minClients: 2,
      retentionMonths: 13,
      flushIntervalMs: 600_000,
      maxPendingQueries: 2,
      now: () => Date.parse('2026-03-10T12:00:00Z'),
    });
    for (const text of ['one', 'two', 'three']) recorder.search('get', text, FOUND, PERSON, '192.0.2.1');
    expect(recorder.pendingQueries).toBe(2);
    // "one" was forgotten to make room for "three": a second client releases only the other two.
    for (const text of ['three', 'two', 'one']) recorder.search('get', text, FOUND, PERSON, '192.0.2.2');
    await recorder.flush();
    expect(await storedQueries(store, '2026-03-10')).toEqual([
      ['three', 2],
      ['two', 2],
    ]);
    expect(recorder.pendingQueries).toBe(1);
    // Every search still counts in the totals.
    expect((await store.read('2026-03-10', '2026-03-10')).searchesByDay[0]!.searches).toBe(6);
    await recorder.close();
  });

  it('deletes days older than the retention period at the first flush of each day', async () => {
    const store = await sqliteStore();
    await store.write({
      searches: [
        {
          day: '2025-01-31',
          clientClass: 'browser',
          channel: 'get',
          searches: 5,
          zeroResults: 0,
          weakMatches: 0,
        },
        {
          day: '2025-02-01',
          clientClass: 'browser',
          channel: 'get',
          searches: 7,
          zeroResults: 0,
          weakMatches: 0,
        },
      ],
      queries: [
        {
          day: '2025-01-31',
          query: 'old',
          clientClass: 'browser',
          searches: 5,
          zeroResults: 0,
          weakMatches: 0,
        },
      ],
      reads: [
        { day: '2025-01-31', clientClass: 'crawler', document: 'llms.txt', agent: 'GPTBot', requests: 1 },
      ],
    });
    const recorder = recorderAt(store, { now: Date.parse('2026-03-01T08:00:00Z') });
    await recorder.flush();
    const kept = await store.read('2000-01-01', '2100-01-01');
    expect(kept.searchesByDay.map((row) => row.day)).toEqual(['2025-02-01']);
    expect(kept.queries).toEqual([]);
    expect(kept.reads).toEqual([]);
    await recorder.close();
  });

  it('keys client hashes by the salt: same address and salt agree, another salt or address does not', () => {
    const salt = [0x1234_5678, 0x9abc_def0] as const;
    const other = [0x1234_5678, 0x9abc_def1] as const;
    const addresses = Array.from({ length: 2000 }, (_, i) => `192.0.${i >> 8}.${i & 255}`);
    const hashes = new Set(addresses.map((address) => seededHash(address, salt)));
    expect(hashes.size).toBe(addresses.length);
    expect(seededHash('192.0.2.1', salt)).toBe(seededHash('192.0.2.1', salt));
    expect(seededHash('192.0.2.1', other)).not.toBe(seededHash('192.0.2.1', salt));
    for (const value of hashes) expect(Number.isSafeInteger(value)).toBe(true);
  });

  it('computes the first kept day by calendar months', () => {
    expect(retentionStartDay('2026-03-01', 13)).toBe('2025-02-01');
    expect(retentionStartDay('2026-03-31', 1)).toBe('2026-02-28');
    expect(retentionStartDay('2024-12-15', 12)).toBe('2023-12-15');
  });

  it('keeps counts whose write failed and writes them with the next flush', async () => {
    const store = await sqliteStore();
    let failNext = true;
    const flaky: InsightStore = {
      ...store,
      write: async (batch) => {
        if (failNext) {
          failNext = false;
          throw new Error('database is locked');
        }
        return store.write(batch);
      },
    };
    const recorder = recorderAt(flaky, { now: Date.parse('2026-03-10T12:00:00Z') }, 2);
    recorder.search('get', 'audit trail', FOUND, PERSON, '192.0.2.1');
    recorder.search('get', 'audit trail', FOUND, PERSON, '192.0.2.2');
    await expect(recorder.flush()).rejects.toThrow('database is locked');
    recorder.search('get', 'audit trail', FOUND, PERSON, '192.0.2.3');
    await recorder.flush();
    expect(await storedQueries(store, '2026-03-10')).toEqual([['audit trail', 3]]);
    await recorder.close();
  });

  it('applies its schema steps once: a second open of the same file changes nothing', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'frontdoor-insight-schema-'));
    folders.push(folder);
    const database = { kind: 'sqlite' as const, file: join(folder, 'frontdoor.sqlite') };
    const first = await openInsightStore(database);
    await first.write({
      searches: [],
      queries: [],
      reads: [
        { day: '2026-03-10', clientClass: 'agent', document: 'ask', agent: 'Claude-User', requests: 2 },
      ],
    });
    await first.close();
    const second = await openInsightStore(database);
    expect((await second.read('2026-03-10', '2026-03-10')).reads).toEqual([
      { document: 'ask', clientClass: 'agent', agent: 'Claude-User', requests: 2 },
    ]);
    await second.close();
  });
});
