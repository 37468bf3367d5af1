import { afterEach, describe, expect, it } from 'vitest';
import { runSubmissions } from '../../../src/cli/submissions.js';
import { runCommand } from '../../support/cli.js';
import { post } from '../../support/client.js';
import { startTestServer, type TestServer } from '../../support/servers.js';
import { waitFor } from '../../support/net.js';
import { steppedClock } from '../../support/submissions.js';
import {
  startSmtpPeer,
  startWebhookPeer,
  WEBHOOK_SECRET,
  type SmtpPeer,
  type WebhookPeer,
} from '../../support/peers.js';

let server: TestServer | undefined;
let smtp: SmtpPeer | undefined;
let crm: WebhookPeer | undefined;
afterEach(async () => {
  await server?.close();
  await smtp?.close();
  await crm?.close();
  server = smtp = crm = undefined;
});

/** The operator CLI in this process, against the server's data folder. */
const cli = (args: string[]) => runCommand(runSubmissions, args, { DATA_DIR: server!.dataDir });

/** C0, C1 (CSI, NEL), DEL, line separators and bidi controls: what must never reach a terminal raw. */
const TERMINAL_UNSAFE = /[\p{Cc}\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

describe('terminal escapes in submitted text never reach the operator', () => {
  it('submissions list (table and --json) shows C1 and bidi controls as \\uXXXX', async () => {
    server = await startTestServer({ env: { LEAD_DELIVERY: 'log', SUGGESTION_DELIVERY: 'none' } });
    const forged = '\u009b2J\u009b31mFORGED ROW\u0085delivered';
    const answer = await post(
      server.url,
      '/api/leads',
      'json',
      {
        name: 'Eve \u202eevil\u202c Example',
        email: 'eve@visitor.example',
        message: `Hello ${forged}\u2066hidden\u2069`,
      },
      { 'user-agent': `Mozilla/5.0 \u009b6n` },
    );
    expect(answer.status).toBe(200);

    const table = await cli(['list', '--show-contact']);
    expect(table.code).toBe(0);
    expect(table.out.replace(/\n/g, '')).not.toMatch(TERMINAL_UNSAFE);
    expect(table.out).toContain('name: Eve \\u202eevil\\u202c Example');
    expect(table.out).toContain('\\u009b2J\\u009b31mFORGED ROW\\u0085delivered');
    expect(table.out).toContain('Mozilla/5.0 \\u009b6n');
    // Each submission is one table row plus its indented field lines; nothing starts a row of its own.
    expect(table.out.split('\n').filter((line) => /^[0-9a-f]{8}-/.test(line))).toHaveLength(1);

    const json = await cli(['list', '--show-contact', '--json']);
    expect(json.out.replace(/\n/g, '')).not.toMatch(TERMINAL_UNSAFE);
    const [listed] = JSON.parse(json.out) as { fields: Record<string, string>; userAgent: string }[];
    // The escapes are JSON escapes: the values read back exactly as submitted.
    expect(listed!.fields.message).toBe(`Hello ${forged}\u2066hidden\u2069`);
    expect(listed!.userAgent).toBe('Mozilla/5.0 \u009b6n');
  });
});

describe('the client address', () => {
  it('is not taken from an X-Forwarded-For entry that is not an address', async () => {
    server = await startTestServer({
      env: { LEAD_DELIVERY: 'none', SUGGESTION_DELIVERY: 'none', TRUST_PROXY_HOPS: '1' },
    });
    const send = (forwarded: string, email: string) =>
      post(server!.url, '/api/leads', 'json', { name: 'Dana', email }, { 'x-forwarded-for': forwarded });
    expect((await send('203.0.113.9', 'a@visitor.example')).status).toBe(200);
    expect((await send('198.51.100.1, <script>alert(1)</script>', 'b@visitor.example')).status).toBe(200);
    expect((await send('2001:db8::1', 'c@visitor.example')).status).toBe(200);
    const records = await server.submissions.store.list({ limit: 10 });
    const byEmail = Object.fromEntries(records.map((record) => [record.fields.email, record.clientIp]));
    expect(byEmail).toEqual({
      'a@visitor.example': '203.0.113.9',
      'b@visitor.example': '127.0.0.1',
      'c@visitor.example': '2001:db8::1',
    });
  });
});

describe('faulty peers', () => {
  it('a relay answering 250 after the attempt timeout gets the mail once, and the row ends delivered', async () => {
    smtp = await startSmtpPeer();
    smtp.dataReplyDelayMs = 900;
    const clock = steppedClock();
    server = await startTestServer({
      env: {
        LEAD_DELIVERY: 'email-service',
        SMTP_URL: smtp.url,
        MAIL_FROM: 'website@example.com',
        LEAD_MAIL_TO: 'sales@example.com',
        DELIVERY_ATTEMPT_TIMEOUT_MS: '500',
        DELIVERY_INLINE_BUDGET_MS: '100',
        DELIVERY_MAX_ATTEMPTS: '5',
      },
      submissions: { now: clock.now },
    });
    const answer = await post(server.url, '/api/leads', 'json', {
      name: 'Dana',
      email: 'dana@visitor.example',
    });
    expect(answer.body).toEqual({ ok: true, provider: 'email-service', delivered: false });
    const [record] = await server.submissions.store.list({ limit: 1 });
    await waitFor(
      'delivered',
      async () => (await server!.submissions.store.get(record!.id))?.delivery?.state === 'delivered',
    );
    // No further attempt is due, even an hour later; closing waits for any attempt still in flight.
    clock.advance(3_600_000);
    expect(await server.submissions.deliverDue()).toBe(0);
    expect((await server.submissions.store.get(record!.id))?.delivery?.state).toBe('delivered');
    await server.close();
    server = undefined;
    expect(smtp.received).toHaveLength(1);
  });

  it("a webhook's redirect dead-letters with a hint in the CLI of what to do", async () => {
    crm = await startWebhookPeer();
    crm.reply = () => ({ status: 301, headers: { location: 'https://elsewhere.example/hook' } });
    server = await startTestServer({
      env: { LEAD_DELIVERY: 'crm', CRM_WEBHOOK_URL: crm.url, CRM_WEBHOOK_SECRET: WEBHOOK_SECRET },
    });
    await post(server.url, '/api/leads', 'json', { name: 'Dana', email: 'dana@visitor.example' });
    await waitFor(
      'dead letter',
      async () => (await server!.submissions.store.list({ limit: 1, state: 'dead' })).length === 1,
    );
    const listed = await cli(['list', '--state', 'dead']);
    expect(listed.out).toContain('http_301');
    expect(listed.out).toContain(
      'http_301: the webhook answered with a redirect, which is not followed (signed personal data goes only to the configured URL): set CRM_WEBHOOK_URL to the final address, restart, then run `frontdoor submissions retry --dead`.',
    );
  });
});
