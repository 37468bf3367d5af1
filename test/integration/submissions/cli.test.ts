import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSubmissions } from '../../../src/cli/submissions.js';
import { runCommand } from '../../support/cli.js';
import { post } from '../../support/client.js';
import { startTestServer, type TestServer } from '../../support/servers.js';
import { waitFor } from '../../support/net.js';
import { startWebhookPeer, WEBHOOK_SECRET, type WebhookPeer } from '../../support/peers.js';

let server: TestServer;
let crm: WebhookPeer;
let ids: { deadLeads: string[]; suggestion: string };

/** Runs the CLI in this process against the server's data folder and captures its output. */
const cli = (args: string[], env: Record<string, string> = {}) =>
  runCommand(runSubmissions, args, { DATA_DIR: server.dataDir, ...env });

beforeAll(async () => {
  crm = await startWebhookPeer();
  crm.reply = () => ({ status: 410 });
  server = await startTestServer({
    env: {
      LEAD_DELIVERY: 'crm',
      SUGGESTION_DELIVERY: 'none',
      CRM_WEBHOOK_URL: crm.url,
      CRM_WEBHOOK_SECRET: WEBHOOK_SECRET,
    },
  });
  await post(server.url, '/api/leads', 'json', { name: 'Ada Visitor', email: 'ada@visitor.example' });
  await post(server.url, '/api/leads', 'json', { name: 'Bo Visitor', email: 'bo@visitor.example' });
  await post(server.url, '/api/document-suggestions', 'json', {
    companyType: 'research-site',
    persona: 'principal-investigator',
    suggestion: 'Secret suggestion text',
  });
  const records = await server.submissions.store.list({ limit: 10 });
  await waitFor('dead letters', async () =>
    (await server.submissions.store.list({ limit: 10, state: 'dead' })).length === 2 ? true : false,
  );
  ids = {
    deadLeads: records.filter((r) => r.kind === 'lead').map((r) => r.id),
    suggestion: records.find((r) => r.kind === 'suggestion')!.id,
  };
});
afterAll(async () => {
  await server.close();
  await crm.close();
});

describe('frontdoor submissions list', () => {
  it('shows ids, kinds, providers, states, attempts and error classes, without personal data', async () => {
    const { code, out } = await cli(['list']);
    expect(code).toBe(0);
    const [rows, hints] = out.trimEnd().split('\n\n');
    const lines = rows!.split('\n');
    expect(lines[0]).toMatch(
      /^ID\s+KIND\s+RECEIVED\s+PROVIDER\s+STATE\s+ATTEMPTS\s+NEXT ATTEMPT\s+LAST ERROR$/,
    );
    expect(lines).toHaveLength(4);
    for (const id of ids.deadLeads)
      expect(out).toMatch(new RegExp(`${id}\\s+lead\\s+\\S+Z\\s+crm\\s+dead\\s+1\\s+-\\s+http_410`));
    expect(out).toMatch(
      new RegExp(`${ids.suggestion}\\s+suggestion\\s+\\S+Z\\s+server-log\\s+none\\s+0\\s+-\\s+-`),
    );
    // Under the table: what the error classes shown mean, and what to do.
    expect(hints).toBe(
      'What the last errors mean:\n  http_410: the webhook URL does not exist: correct CRM_WEBHOOK_URL, restart, then retry.',
    );
    for (const secret of ['Ada', 'ada@', 'Bo Visitor', 'Secret suggestion', '127.0.0.1'])
      expect(out).not.toContain(secret);
  });

  it('filters by state and kind and limits the count', async () => {
    const dead = await cli(['list', '--state', 'dead', '--json']);
    const parsed = JSON.parse(dead.out) as {
      id: string;
      state: string;
      lastError: string;
      fields?: unknown;
    }[];
    expect(parsed.map((r) => r.id).sort()).toEqual([...ids.deadLeads].sort());
    expect(
      parsed.every((r) => r.state === 'dead' && r.lastError === 'http_410' && r.fields === undefined),
    ).toBe(true);
    const none = JSON.parse((await cli(['list', '--state=none', '--json'])).out) as { id: string }[];
    expect(none.map((r) => r.id)).toEqual([ids.suggestion]);
    const suggestions = JSON.parse((await cli(['list', '--kind', 'suggestion', '--json'])).out) as {
      id: string;
    }[];
    expect(suggestions.map((r) => r.id)).toEqual([ids.suggestion]);
    expect(JSON.parse((await cli(['list', '--limit', '1', '--json'])).out)).toHaveLength(1);
    expect((await cli(['list', '--state', 'pending'])).out).toBe('No submissions match.\n');
  });

  it('shows the submitted fields only with --show-contact', async () => {
    const { out } = await cli(['list', '--show-contact']);
    expect(out).toContain('    name: Ada Visitor');
    expect(out).toContain('    email: bo@visitor.example');
    expect(out).toContain('    suggestion: Secret suggestion text');
    expect(out).toContain('    client: 127.0.0.1');
    const json = JSON.parse(
      (await cli(['list', '--json', '--show-contact', '--kind', 'suggestion'])).out,
    ) as {
      fields: Record<string, string>;
    }[];
    expect(json[0]!.fields).toEqual({
      companyType: 'research-site',
      persona: 'principal-investigator',
      suggestion: 'Secret suggestion text',
      sourcePage: '/solutions/research-sites',
    });
  });

  it('refuses bad options with usage (exit 2) and a missing database (exit 1)', async () => {
    for (const args of [
      ['list', '--state', 'lost'],
      ['list', '--limit', '0'],
      ['list', '--frobnicate'],
      ['purge'],
      ['retry'],
    ]) {
      const result = await cli(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.err).toContain('Usage:');
    }
    const empty = mkdtempSync(join(tmpdir(), 'frontdoor-cli-'));
    try {
      const missing = await cli(['list'], { DATA_DIR: empty });
      expect(missing.code).toBe(1);
      expect(missing.err).toContain('No submissions database');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('frontdoor submissions retry', () => {
  it('requeues one dead letter, which the running worker then delivers', async () => {
    crm.reply = () => ({ status: 204 });
    const [first, second] = ids.deadLeads;
    const result = await cli(['retry', first!]);
    expect(result).toMatchObject({ code: 0, out: `requeued ${first}\n` });
    await waitFor(
      'redelivery',
      async () => (await server.submissions.store.get(first!))!.delivery!.state === 'delivered',
    );
    expect((await server.submissions.store.get(second!))!.delivery!.state).toBe('dead');

    const refused = await cli(['retry', first!, ids.suggestion, 'no-such-id']);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(`not requeued ${first}: already delivered`);
    expect(refused.err).toContain(`not requeued ${ids.suggestion}: stored without delivery`);
    expect(refused.err).toContain('not requeued no-such-id: no submission has this id');
  });

  it('requeues every dead letter with --dead', async () => {
    const result = await cli(['retry', '--dead']);
    expect(result.code).toBe(0);
    expect(result.out).toBe(`requeued ${ids.deadLeads[1]}\n1 dead-lettered submission requeued.\n`);
    await waitFor('redelivery', async () =>
      (await server.submissions.store.list({ limit: 10, kind: 'lead' })).every(
        (r) => r.delivery?.state === 'delivered',
      ),
    );
    expect((await cli(['retry', '--dead'])).out).toBe('0 dead-lettered submissions requeued.\n');
  });

  it('is reachable through the frontdoor entry point', () => {
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', 'submissions', 'list', '--json'],
      {
        env: { ...process.env, DATA_DIR: server.dataDir, LOG_LEVEL: 'silent' },
        encoding: 'utf8',
        timeout: 30_000,
      },
    );
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect((JSON.parse(result.stdout) as unknown[]).length).toBe(3);
  });
});
