import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runSubmissions } from '../../../src/cli/submissions.js';
import { openSqliteConnection } from '../../../src/sqlite/index.js';
import { runCommand } from '../../support/cli.js';
import { post } from '../../support/client.js';
import { startTestServer, type TestServer } from '../../support/servers.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** What a hostile visitor can put in a field to drive an operator's terminal or spreadsheet. */
const HOSTILE = 'Hi\u001b[2J\u001b]0;owned\u0007 there\r\nsecond line';
const FORMULA = '=HYPERLINK("https://evil.example","click")';

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const cli = (args: string[]) => runCommand(runSubmissions, args, { DATA_DIR: server!.dataDir });

// eslint-disable-next-line no-control-regex -- the test looks for exactly these characters
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f]/;

describe('personal data lifecycle', () => {
  it('erases the personal fields of submissions delivered longer ago than the retention, keeping counts', async () => {
    let clock = Date.UTC(2026, 0, 1);
    server = await startTestServer({
      env: { SUBMISSION_RETENTION_DAYS: '30' },
      submissions: { now: () => clock },
      startWorker: false,
    });
    const first = await post(server.url, '/api/leads', 'json', {
      name: 'Early Bird',
      email: 'early@visitor.example',
    });
    expect(first.body).toMatchObject({ delivered: true });
    clock += 20 * DAY_MS;
    await post(server.url, '/api/leads', 'json', { name: 'Later Bird', email: 'later@visitor.example' });

    clock += 11 * DAY_MS; // 31 days after the first delivery, 11 after the second
    expect(await server.submissions.eraseExpired()).toBe(1);
    const all = await server.submissions.store.list({ limit: 10 });
    expect(all).toHaveLength(2);
    const [later, early] = all;
    expect(early).toMatchObject({ fields: {}, clientIp: '', userAgent: null, erasedAtMs: clock });
    expect(early!.delivery).toMatchObject({ state: 'delivered' });
    expect(later!.fields.email).toBe('later@visitor.example');
    expect(await server.submissions.eraseExpired()).toBe(0);
  });

  it('keeps everything when the retention is 0', async () => {
    let clock = Date.UTC(2026, 0, 1);
    server = await startTestServer({
      env: { SUBMISSION_RETENTION_DAYS: '0' },
      submissions: { now: () => clock },
      startWorker: false,
    });
    await post(server.url, '/api/leads', 'json', { name: 'Kept Bird', email: 'kept@visitor.example' });
    clock += 3_650 * DAY_MS;
    expect(await server.submissions.eraseExpired()).toBe(0);
    expect((await server.submissions.store.list({ limit: 1 }))[0]!.fields.name).toBe('Kept Bird');
  });

  it('exports CSV and JSON Lines safe to print, and erases one person on request', async () => {
    server = await startTestServer({ env: { LEAD_DELIVERY: 'none' } });
    await post(server.url, '/api/leads', 'json', {
      name: 'Ada Hostile',
      email: 'Ada@Visitor.example',
      message: HOSTILE,
      company: FORMULA,
    });
    await post(server.url, '/api/leads', 'json', { name: 'Bo Other', email: 'bo@visitor.example' });

    const jsonl = await cli(['export', '--format', 'jsonl']);
    expect(jsonl.code).toBe(0);
    expect(jsonl.out).not.toMatch(RAW_CONTROL);
    const rows = jsonl.out
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { state: string; fields: Record<string, string | null> });
    // Oldest first, values exact.
    expect(rows.map((row) => row.fields.name)).toEqual(['Ada Hostile', 'Bo Other']);
    expect(rows[0]!.fields.message).toBe(HOSTILE);
    expect(rows[0]!.fields.company).toBe(FORMULA);
    expect(rows[0]!.state).toBe('none');

    const csv = await cli(['export', '--format', 'csv', '--email', 'ada@visitor.example']);
    expect(csv.code).toBe(0);
    const lines = csv.out.split('\r\n');
    expect(lines).toHaveLength(3); // header, Ada, and the final line break
    expect(csv.out.replace(/\r\n/g, '')).not.toMatch(RAW_CONTROL);
    expect(lines[0]).toMatch(/^id,kind,receivedAt,provider,state,.*,name,firstName,lastName,email,/);
    expect(lines[1]).toContain('"Hi [2J ]0;owned there second line"');
    expect(lines[1]).toContain(`"'=HYPERLINK(""https://evil.example"",""click"")"`);

    const erase = await cli(['erase', '--email', 'ADA@visitor.example']);
    expect(erase.code).toBe(0);
    expect(erase.out).toMatch(/^erased [0-9a-f-]{36}\n1 submission erased\.\n$/);
    const after = await server.submissions.store.list({ limit: 10 });
    expect(after).toHaveLength(2);
    expect(after.find((record) => record.fields.name === 'Bo Other')).toBeDefined();
    expect(after.filter((record) => record.erasedAtMs !== null)).toHaveLength(1);
    expect((await cli(['export', '--format', 'jsonl', '--email', 'ada@visitor.example'])).out).toBe('');

    expect((await cli(['erase'])).code).toBe(2);
    expect((await cli(['erase', '--email', 'x@y.example', '--state', 'dead'])).code).toBe(2);
    expect((await cli(['export'])).code).toBe(2);
  });

  it('erase --email leaves the address nowhere: not in an Idempotency-Key, user agent, request id or other field (issue 37, finding 12)', async () => {
    server = await startTestServer({
      env: { LEAD_DELIVERY: 'none', SUGGESTION_DELIVERY: 'none', TRUST_PROXY_HOPS: '1' },
    });
    const address = 'yara.erase@example.com';
    const suggestion = (text: string) => ({
      companyType: 'cro',
      persona: 'study-start-up',
      suggestion: text,
    });
    const sends: [string, Record<string, unknown>, Record<string, string>][] = [
      ['/api/leads', { name: 'Yara', email: address }, { 'idempotency-key': address }],
      [
        '/api/document-suggestions',
        suggestion('A checklist'),
        { 'idempotency-key': 'Yara.Erase@Example.com' },
      ],
      ['/api/leads', { name: 'Ua', email: 'ua@visitor.example' }, { 'user-agent': `Mailer (${address})` }],
      ['/api/leads', { name: 'Rid', email: 'rid@visitor.example' }, { 'x-request-id': `req:${address}` }],
      ['/api/document-suggestions', suggestion(`Please write to ${address}.`), {}],
      // Other people: an address that merely contains hers, and a longer domain.
      ['/api/leads', { name: 'Ayara', email: `a${address}` }, { 'idempotency-key': `a${address}` }],
      ['/api/leads', { name: 'Com', email: 'com@visitor.example', message: `${address}munity` }, {}],
    ];
    for (const [path, body, headers] of sends)
      expect((await post(server.url, path, 'json', body, headers)).status).toBeLessThan(300);

    const erase = await cli(['erase', '--email', 'YARA.erase@example.com']);
    expect(erase.code).toBe(0);
    expect(erase.out).toMatch(/\n5 submissions erased\.\n$/);

    // Every cell of every table, read from the database file itself.
    const db = openSqliteConnection(join(server.dataDir, 'frontdoor.sqlite'), { readonly: true });
    const tables = db
      .prepare<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
      .all()
      .map((row) => row.name);
    const cells = tables.flatMap((table) =>
      db
        .prepare<Record<string, unknown>>(`SELECT * FROM "${table}"`)
        .all()
        .flatMap((row) => Object.values(row).map(String)),
    );
    db.close();
    const hers = /(?<![A-Za-z0-9._%+-])yara\.erase@example\.com(?![A-Za-z0-9-]|\.[A-Za-z])/i;
    expect(cells.filter((cell) => hers.test(cell))).toEqual([]);
    // The other two are untouched.
    expect(cells.some((cell) => cell.includes(`a${address}`))).toBe(true);
    expect(cells.some((cell) => cell.includes(`${address}munity`))).toBe(true);
    const kept = await server.submissions.store.list({ limit: 10 });
    expect(
      kept
        .filter((record) => record.erasedAtMs === null)
        .map((record) => record.fields.name ?? '')
        .sort(),
    ).toEqual(['Ayara', 'Com']);
  });
});
