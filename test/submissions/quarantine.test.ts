import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSubmissions } from '../../src/cli/submissions.js';
import { runCommand } from '../support/cli.js';
import { FILL_TIME_HEADER, HONEYPOT_FIELD, HONEYPOT_HEADER } from '../../src/contract/index.js';
import { expectContract, post } from '../support/client.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { waitFor } from '../support/net.js';
import { startWebhookPeer, WEBHOOK_SECRET, type WebhookPeer } from '../support/peers.js';

let server: TestServer;
let crm: WebhookPeer;

const lead = (name: string) => ({
  name,
  email: `${name.toLowerCase().replace(/\W+/g, '.')}@visitor.example`,
  companyType: 'sponsor',
  persona: 'medical-writing',
});

const cli = (args: string[]) => runCommand(runSubmissions, args, { DATA_DIR: server.dataDir });

const deliveredIds = () => new Set(crm.received.map((hook) => String(hook.headers['webhook-id'])));
const byEmail = async (email: string) =>
  (await server.submissions.store.list({ email, limit: 5 }))[0] ?? null;

beforeAll(async () => {
  crm = await startWebhookPeer();
  server = await startTestServer({
    env: {
      LEAD_DELIVERY: 'crm',
      CRM_WEBHOOK_URL: crm.url,
      CRM_WEBHOOK_SECRET: WEBHOOK_SECRET,
      FORM_MIN_FILL_MS: '3000',
    },
  });
});
afterAll(async () => {
  await server?.close();
  await crm?.close();
});

describe('spam traps of the site forms', () => {
  it('quarantine a filled honeypot or a form sent too fast, with the ordinary answer, and deliver nothing', async () => {
    const contract = await server.contract();
    const cases: { who: ReturnType<typeof lead>; headers: Record<string, string>; reason: string }[] = [
      {
        who: lead('Honey Pot'),
        headers: { [HONEYPOT_HEADER]: '1', [FILL_TIME_HEADER]: '9000', origin: server.url },
        reason: 'honeypot',
      },
      {
        who: lead('Quick Bot'),
        headers: { [FILL_TIME_HEADER]: '450', origin: server.url },
        reason: 'too-fast',
      },
    ];
    for (const { who, headers, reason } of cases) {
      const answer = await post(server.url, '/api/leads', 'json', who, headers);
      expectContract(contract, '/api/leads', answer);
      // The answer of any accepted lead not yet confirmed by the receiver: nothing tells the bot.
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ ok: true, provider: 'crm', delivered: false });
      const stored = await byEmail(who.email);
      expect(stored).toMatchObject({
        quarantineReason: reason,
        delivery: { state: 'quarantine', attempts: 0 },
      });
      expect(server.logs.find((line) => line.submissionId === stored!.id)).toMatchObject({
        msg: 'submission quarantined (not delivered until released)',
        quarantineReason: reason,
      });
    }
    await server.submissions.deliverDue();
    expect(crm.received).toHaveLength(0);

    // A person who took their time, and an API client that sends no form headers, are not held.
    const person = await post(server.url, '/api/leads', 'json', lead('Slow Person'), {
      [FILL_TIME_HEADER]: '45000',
      origin: server.url,
    });
    const agent = await post(server.url, '/api/leads', 'json', lead('Api Agent'));
    expect(person.body).toEqual({ ok: true, provider: 'crm', delivered: true });
    expect(agent.body).toEqual({ ok: true, provider: 'crm', delivered: true });
    // The headers belong to the site's own pages, not to the API: without an Origin they are
    // ignored, and /openapi.json does not offer them as parameters.
    const caller = await post(server.url, '/api/leads', 'json', lead('Header Caller'), {
      [HONEYPOT_HEADER]: '1',
      [FILL_TIME_HEADER]: '5',
    });
    expect(caller.body).toEqual({ ok: true, provider: 'crm', delivered: true });
    expect((await byEmail(lead('Header Caller').email))?.quarantineReason ?? null).toBeNull();
    for (const path of ['/api/leads', '/api/document-suggestions']) {
      const operation = contract.doc.paths[path]?.post as { parameters?: { name: string }[] };
      const names = (operation.parameters ?? []).map((parameter) => parameter.name);
      expect(names).toEqual(['Idempotency-Key']);
    }
  });

  it('quarantine a plain HTML post whose honeypot field is filled, answered with the usual confirmation', async () => {
    const origin = { origin: server.url };
    const bot = { ...lead('Form Bot'), [HONEYPOT_FIELD]: 'https://spam.example' };
    const body = new URLSearchParams(Object.entries(bot)).toString();
    const response = await fetch(`${server.url}/forms/demo-request`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...origin },
      body,
      redirect: 'manual',
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toMatch(/^\/forms\/demo-request\/sent/);
    const stored = await byEmail(bot.email);
    expect(stored).toMatchObject({ quarantineReason: 'honeypot', delivery: { state: 'quarantine' } });
    // The trap field is not kept among the submitted fields.
    expect(stored!.fields[HONEYPOT_FIELD]).toBeUndefined();

    const personBody = new URLSearchParams({ ...lead('Form Person'), [HONEYPOT_FIELD]: '' }).toString();
    const personResponse = await fetch(`${server.url}/forms/demo-request`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...origin },
      body: personBody,
      redirect: 'manual',
    });
    expect(personResponse.status).toBe(303);
    expect((await byEmail(lead('Form Person').email))!.quarantineReason).toBeNull();
  });

  it('are listed by the CLI and delivered once released', async () => {
    const listed = await cli(['list', '--state', 'quarantine', '--json']);
    expect(listed.code).toBe(0);
    const held = JSON.parse(listed.out) as { id: string; quarantineReason: string; state: string }[];
    expect(held.map((row) => [row.state, row.quarantineReason]).sort()).toEqual([
      ['quarantine', 'honeypot'],
      ['quarantine', 'honeypot'],
      ['quarantine', 'too-fast'],
    ]);
    const genuine = held.find((row) => row.quarantineReason === 'too-fast')!;
    const released = await cli(['release', genuine.id]);
    expect(released).toMatchObject({ code: 0, out: `released ${genuine.id}\n` });
    await waitFor('the released lead delivered', () => deliveredIds().has(genuine.id));
    // The receiver has the webhook before its answer reaches the worker, which then records it.
    let state: string | undefined;
    await waitFor('the delivery recorded', async () => {
      state = (await server.submissions.store.get(genuine.id))?.delivery?.state;
      return state !== 'pending';
    });
    expect(state).toBe('delivered');

    const again = await cli(['release', genuine.id, 'no-such-id']);
    expect(again.code).toBe(1);
    expect(again.err).toBe(
      `not released ${genuine.id}: not in quarantine\nnot released no-such-id: no submission has this id\n`,
    );
    // The others stay held.
    expect((await server.submissions.store.list({ state: 'quarantine', limit: 10 })).length).toBe(2);
    expect([...deliveredIds()].filter((id) => held.some((row) => row.id === id))).toEqual([genuine.id]);
  });
});
