import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSubmissions } from '../../../src/cli/submissions.js';
import { runCommand } from '../../support/cli.js';
import { FILL_TIME_HEADER, HONEYPOT_FIELD, HONEYPOT_HEADER } from '../../../src/contract/index.js';
import { expectContract, post } from '../../support/client.js';
import { startTestServer, type TestServer } from '../../support/servers.js';
import { waitFor } from '../../support/net.js';
import { startWebhookPeer, WEBHOOK_SECRET, type WebhookPeer } from '../../support/peers.js';

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

describe('a quarantined submission never holds back the genuine one (issue 37, finding 9)', () => {
  const hooksFor = (id: string) =>
    crm.received.filter((hook) => String(hook.headers['webhook-id']) === id).length;
  const rowsOf = async (email: string) => server.submissions.store.list({ email, limit: 10 });
  // The trap headers are read only from the site's own pages, which post with its Origin.
  const fromSite = (headers: Record<string, string>) => ({ ...headers, origin: server.url });
  const sendForm = (body: Record<string, string>) =>
    fetch(`${server.url}/forms/demo-request`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
      body: new URLSearchParams(body).toString(),
      redirect: 'manual',
    });

  it.each([
    ['sent again after reading the form for 9 s', { [FILL_TIME_HEADER]: '9000' }, true],
    ['sent again without the form headers (an API client)', {}, false],
  ])('a lead sent too fast, then %s, is delivered once', async (label, headers, bySite) => {
    const again = bySite ? fromSite(headers) : headers;
    const who = lead(`Hasty ${label.length}`);
    const first = await post(server.url, '/api/leads', 'json', who, fromSite({ [FILL_TIME_HEADER]: '800' }));
    expect(first.body).toEqual({ ok: true, provider: 'crm', delivered: false });
    const held = (await byEmail(who.email))!;
    expect(held.delivery?.state).toBe('quarantine');

    const second = await post(server.url, '/api/leads', 'json', who, again);
    expect(second.body).toEqual({ ok: true, provider: 'crm', delivered: true });
    const rows = await rowsOf(who.email);
    expect(rows).toHaveLength(1);
    // The same row, released: its trap is kept for the record, and it is delivered once.
    expect(rows[0]).toMatchObject({
      id: held.id,
      quarantineReason: 'too-fast',
      delivery: { state: 'delivered' },
    });
    expect(hooksFor(held.id)).toBe(1);
    expect(
      server.logs.some(
        (line) => line.submissionId === held.id && line.msg.startsWith('quarantined submission released'),
      ),
    ).toBe(true);

    // A third send is a plain duplicate of the delivered one: nothing more is sent.
    const third = await post(server.url, '/api/leads', 'json', who, again);
    expect(third.body).toEqual({ ok: true, provider: 'crm', delivered: true });
    await server.submissions.deliverDue();
    expect(hooksFor(held.id)).toBe(1);
  });

  it('a lead sent too fast by the enhanced form, then through the plain HTML form, is delivered', async () => {
    const who = lead('Form Retry');
    await post(server.url, '/api/leads', 'json', who, fromSite({ [FILL_TIME_HEADER]: '300' }));
    const held = (await byEmail(who.email))!;
    const response = await sendForm({ ...who, [HONEYPOT_FIELD]: '' });
    expect(response.status).toBe(303);
    await waitFor('the released lead delivered', () => hooksFor(held.id) === 1);
    expect(await rowsOf(who.email)).toHaveLength(1);
  });

  it("a third party's honeypot post of the same fields first does not hold back the real sender", async () => {
    const victim = lead('Real Sender');
    const forged = await post(server.url, '/api/leads', 'json', victim, fromSite({ [HONEYPOT_HEADER]: '1' }));
    expect(forged.body).toEqual({ ok: true, provider: 'crm', delivered: false });
    const viaForm = lead('Real Form Sender');
    expect((await sendForm({ ...viaForm, [HONEYPOT_FIELD]: 'https://spam.example' })).status).toBe(303);

    const genuine = await post(
      server.url,
      '/api/leads',
      'json',
      victim,
      fromSite({ [FILL_TIME_HEADER]: '20000' }),
    );
    expect(genuine.body).toEqual({ ok: true, provider: 'crm', delivered: true });
    expect((await sendForm({ ...viaForm, [HONEYPOT_FIELD]: '' })).status).toBe(303);
    for (const email of [victim.email, viaForm.email]) {
      const rows = await rowsOf(email);
      expect(rows).toHaveLength(1);
      await waitFor(`${email} delivered`, () => hooksFor(rows[0]!.id) === 1);
    }
  });

  it('the same Idempotency-Key and body sent clean releases the trapped submission, and a replay sends nothing more', async () => {
    const who = lead('Keyed Retry');
    const key = { 'idempotency-key': '"5b1cc5c8-6b4e-4a55-9d1f-3c7f6d4a0e11"' };
    await post(server.url, '/api/leads', 'json', who, fromSite({ ...key, [HONEYPOT_HEADER]: '1' }));
    const held = (await byEmail(who.email))!;
    const again = await post(server.url, '/api/leads', 'json', who, key);
    expect(again.body).toEqual({ ok: true, provider: 'crm', delivered: true });
    const replay = await post(server.url, '/api/leads', 'json', who, key);
    expect(replay.body).toEqual({ ok: true, provider: 'crm', delivered: true });
    expect(await rowsOf(who.email)).toHaveLength(1);
    expect(hooksFor(held.id)).toBe(1);
  });

  it('a trapped repeat stays a duplicate: of a quarantined submission (still held) and of a delivered one', async () => {
    const bot = lead('Repeat Bot');
    await post(server.url, '/api/leads', 'json', bot, fromSite({ [HONEYPOT_HEADER]: '1' }));
    await post(server.url, '/api/leads', 'json', bot, fromSite({ [FILL_TIME_HEADER]: '10' }));
    const botRows = await rowsOf(bot.email);
    expect(botRows).toHaveLength(1);
    expect(botRows[0]!.delivery?.state).toBe('quarantine');

    const person = lead('Delivered Person');
    expect((await post(server.url, '/api/leads', 'json', person)).body.delivered).toBe(true);
    const trapped = await post(
      server.url,
      '/api/leads',
      'json',
      person,
      fromSite({ [HONEYPOT_HEADER]: '1' }),
    );
    expect(trapped.body).toEqual({ ok: true, provider: 'crm', delivered: true });
    const rows = await rowsOf(person.email);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ quarantineReason: null, delivery: { state: 'delivered' } });
  });
});
