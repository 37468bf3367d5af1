import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInsight } from '../../../src/cli/insight.js';
import type { InsightReport } from '../../../src/insight/index.js';
import { BROWSER_HEADERS, send, USER_AGENTS } from '../../insight/traffic.js';
import { runCommand } from '../../support/cli.js';
import { startInsightServer } from '../../support/servers.js';

describe('frontdoor insight', () => {
  let dataDir: string;
  const today = new Date().toISOString().slice(0, 10);

  const run = (args: string[], env: Record<string, string> = { DATA_DIR: dataDir }) =>
    runCommand(runInsight, args, { LOG_LEVEL: 'silent', ...env });

  beforeAll(async () => {
    const site = await startInsightServer();
    dataDir = site.dataDir;
    const get = (path: string, headers: Record<string, string>) => send(site.url, 'GET', path, headers);
    const person = (ip: string) => ({
      'user-agent': USER_AGENTS.chrome,
      ...BROWSER_HEADERS,
      'x-forwarded-for': ip,
    });
    for (const ip of ['10.1.0.1', '10.1.0.2', '10.1.0.3']) {
      await get('/ask?query=data+residency', person(ip));
      await get('/ask?query=zorblax+export', person(ip));
      await get('/ask?query=quantum+teleportation', {
        'user-agent': USER_AGENTS.chatgptUser,
        'x-forwarded-for': ip,
      });
    }
    await get('/ask?query=data+residency', person('10.1.0.1'));
    await get('/ask?query=my+name+is+ada', person('10.1.0.4'));
    await get('/llms.txt', { 'user-agent': USER_AGENTS.gptBot, 'x-forwarded-for': '10.1.1.1' });
    await get('/openapi.json', { 'user-agent': USER_AGENTS.claudeUser, 'x-forwarded-for': '10.1.1.2' });
    // Stopping the server writes the last counts.
    await site.stop();
  }, 60_000);

  afterAll(() => {
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints the tables for the last 30 days', async () => {
    const { code, out, err } = await run([]);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toContain(
      `Insight ${new Date(Date.parse(`${today}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10)} to ${today} (UTC): 11 searches, 3 with no result, 4 weak matches.`,
    );
    const section = (title: string) =>
      out
        .slice(out.indexOf(`${title}\n`))
        .trimEnd()
        .split('\n\n')[0]!
        .split('\n');
    expect(section('People vs agents')).toEqual([
      'People vs agents',
      'CLIENTS            SEARCHES  ZERO RESULTS  WEAK MATCHES  DOCUMENT READS',
      'people (browsers)         8             0             4               8',
      'agents                    3             3             0               4',
      'crawlers                  0             0             0               1',
      'other clients             0             0             0               0',
    ]);
    expect(section('Top queries')).toEqual([
      'Top queries',
      'QUERY                  SEARCHES  PEOPLE  AGENTS  CRAWLERS  OTHER',
      'data residency                4       4       0         0      0',
      'quantum teleportation         3       0       3         0      0',
      'zorblax export                3       3       0         0      0',
    ]);
    expect(section('Top zero-result queries')).toEqual([
      'Top zero-result queries',
      'QUERY                  ZERO RESULTS  PEOPLE  AGENTS  CRAWLERS  OTHER',
      'quantum teleportation             3       0       3         0      0',
    ]);
    expect(section('Weak matches')).toEqual([
      'Weak matches',
      'QUERY           WEAK MATCHES  PEOPLE  AGENTS  CRAWLERS  OTHER',
      'zorblax export             3       3       0         0      0',
    ]);
    expect(section('Agent readership')).toEqual([
      'Agent readership',
      'DOCUMENT      REQUESTS  PEOPLE  AGENTS  CRAWLERS  OTHER  AGENT NAMES',
      'llms.txt             1       0       0         1      0  GPTBot (1)',
      'openapi.json         1       0       1         0      0  Claude-User (1)',
      'ask                 11       8       3         0      0  ChatGPT-User (3)',
    ]);
    expect(section('Agents and crawlers')).toEqual([
      'Agents and crawlers',
      'NAME          CLASS    REQUESTS  DOCUMENTS',
      'ChatGPT-User  agent           3  ask (3)',
      'Claude-User   agent           1  openapi.json (1)',
      'GPTBot        crawler         1  llms.txt (1)',
    ]);
    // Asked by one client: counted in the totals above, its text nowhere.
    expect(out).not.toContain('ada');
  });

  it('prints the report as JSON for scripts', async () => {
    const { code, out } = await run(['--json', '--from', today, '--limit', '1']);
    expect(code).toBe(0);
    const report = JSON.parse(out) as InsightReport;
    expect(report.period).toEqual({ from: today, to: today });
    // “my name is ada”, asked once, is a weak match: counted, its text not stored.
    expect(report.totals).toEqual({ searches: 11, zeroResults: 3, weakMatches: 4 });
    expect(report.topQueries).toEqual([
      {
        query: 'data residency',
        searches: 4,
        zeroResults: 0,
        weakMatches: 0,
        byClass: { browser: 4, agent: 0, crawler: 0, other: 0 },
      },
    ]);
    expect(report.zeroResultQueries.map((q) => q.query)).toEqual(['quantum teleportation']);
    expect(report.daily).toEqual([{ day: today, byClass: { browser: 8, agent: 3, crawler: 0, other: 0 } }]);
    expect(report.readership.map((d) => [d.document, d.requests])).toEqual([
      ['llms.txt', 1],
      ['openapi.json', 1],
      ['ask', 11],
    ]);
  });

  it('shows an empty period as empty tables', async () => {
    const { code, out } = await run(['--from', '2020-01-01', '--to', '2020-01-31']);
    expect(code).toBe(0);
    expect(out).toContain(
      'Insight 2020-01-01 to 2020-01-31 (UTC): 0 searches, 0 with no result, 0 weak matches.',
    );
    expect(out).toContain('Top queries\n(none)');
  });

  it.each([
    [['--days', '0'], '--days must be a whole number from 1 to 3660.'],
    [['--from', '2026-02-30'], '--from must be a day written YYYY-MM-DD'],
    [['--days', '7', '--from', '2026-01-01'], 'Give either --days or --from/--to, not both.'],
    [
      ['--from', '2026-02-02', '--to', '2026-02-01'],
      '--from (2026-02-02) must not be after --to (2026-02-01).',
    ],
    [
      ['--from', '0001-01-01', '--to', '9999-12-31'],
      'The period 0001-01-01 to 9999-12-31 is 3652059 days long; a report covers at most 3660 days',
    ],
    [['--to', '2026-02-01'], '--to needs --from.'],
    [['--colour'], 'Unknown option "--colour".'],
  ])('refuses %j with a message that says what to write', async (args, message) => {
    const { code, err } = await run(args);
    expect(code).toBe(2);
    expect(err).toContain(message);
  });

  it('names the missing database and the variable that points at it', async () => {
    const { code, err } = await run([], { DATA_DIR: `${dataDir}-missing` });
    expect(code).toBe(1);
    expect(err).toContain('No database at');
    expect(err).toContain('DATA_DIR');
  });
});
