import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ConfigError } from '../../../src/config/index.js';
import { loadConfig } from '../../../src/config/index.js';
import { openSqliteConnection } from '../../../src/sqlite/index.js';
import { send } from '../../insight/traffic.js';
import { startInsightServer } from '../../support/servers.js';

const problemsOf = (env: Record<string, string>): string[] => {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    return (error as ConfigError).problems;
  }
};

describe('insight configuration', () => {
  it('defaults to on, k = 3, 13 months, a flush every 10 s', () => {
    expect(loadConfig({}).insight).toEqual({
      enabled: true,
      minClients: 3,
      retentionMonths: 13,
      flushIntervalMs: 10_000,
    });
  });

  it.each([
    [{ INSIGHT: 'yes' }, 'INSIGHT="yes" is not valid: use on or off.'],
    [
      { INSIGHT_MIN_CLIENTS: '1' },
      'INSIGHT_MIN_CLIENTS="1" is not valid: set it to a whole number from 2 to 1000.',
    ],
    [
      { INSIGHT_RETENTION_MONTHS: '0' },
      'INSIGHT_RETENTION_MONTHS="0" is not valid: set it to a whole number from 1 to 120.',
    ],
    [
      { INSIGHT_FLUSH_INTERVAL_MS: 'soon' },
      'INSIGHT_FLUSH_INTERVAL_MS="soon" is not valid: set it to a whole number from 100 to 600000.',
    ],
  ])('refuses %j naming the variable and the fix', (env, problem) => {
    expect(problemsOf(env)).toEqual([problem]);
  });

  it('INSIGHT=off records nothing, creates no table and serves no report', async () => {
    const site = await startInsightServer({ INSIGHT: 'off', METRICS_PORT: '0' });
    try {
      expect(site.server.context.insight).toBeUndefined();
      expect((await send(site.url, 'GET', '/ask?query=audit+trail', {})).status).toBe(200);
      expect((await send(site.url, 'GET', '/llms.txt', {})).status).toBe(200);
      expect((await send(site.server.adminUrl!, 'GET', '/insight', {})).status).toBe(404);
      expect((await send(site.server.adminUrl!, 'GET', '/metrics', {})).status).toBe(200);
      await site.stop();
      const db = openSqliteConnection(join(site.dataDir, 'frontdoor.sqlite'), { readonly: true });
      const tables = db
        .prepare<{ name: string }>(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'insight%'",
        )
        .all();
      db.close();
      expect(tables).toEqual([]);
    } finally {
      await site.close();
    }
  });

  it('the server starts and answers while the database is unreachable; counts wait, shutdown still completes', async () => {
    const site = await startInsightServer({
      DATABASE_URL: 'postgres://frontdoor@127.0.0.1:1/frontdoor',
      DATABASE_CONNECT_TIMEOUT_MS: '500',
    });
    try {
      expect((await send(site.url, 'GET', '/ask?query=audit+trail', {})).status).toBe(200);
      await expect(site.server.context.insight!.flush()).rejects.toThrow();
    } finally {
      await site.close();
    }
  });
});
