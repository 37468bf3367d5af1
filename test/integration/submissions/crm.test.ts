import { afterEach, describe, expect, it } from 'vitest';
import { post } from '../../support/client.js';
import { startTestServer, type TestServer } from '../../support/servers.js';
import {
  startWebhookPeer,
  verifyStandardWebhook,
  WEBHOOK_SECRET,
  type WebhookPeer,
} from '../../support/peers.js';

let server: TestServer | undefined;
let crm: WebhookPeer | undefined;
afterEach(async () => {
  await server?.close();
  await crm?.close();
  server = undefined;
  crm = undefined;
});

async function start(): Promise<{ server: TestServer; crm: WebhookPeer }> {
  crm = await startWebhookPeer();
  server = await startTestServer({
    env: {
      LEAD_DELIVERY: 'crm',
      SUGGESTION_DELIVERY: 'crm',
      CRM_WEBHOOK_URL: crm.url,
      CRM_WEBHOOK_SECRET: WEBHOOK_SECRET,
    },
  });
  return { server, crm };
}

describe('the independent Standard Webhooks verifier', () => {
  it('fails on a changed body, id, timestamp, secret or a stale timestamp', () => {
    const body = '{"a":1}';
    const headers = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': '1700000000',
      'webhook-signature': 'v1,dGVzdA==',
    };
    // A made-up signature never verifies.
    expect(verifyStandardWebhook(WEBHOOK_SECRET, headers, body, 1700000000)).toBe(false);
  });
});

describe('crm delivery to a real webhook receiver', () => {
  it('POSTs a signed lead.created event that the receiver verifies', async () => {
    const { server, crm } = await start();
    const lead = {
      firstName: 'Dana',
      lastName: 'Reyes',
      email: 'dana@sponsor.example',
      companyType: 'cro',
      persona: 'study-start-up',
      teamSize: '11-50',
    };
    const before = Math.floor(Date.now() / 1000);
    const answer = await post(server.url, '/api/leads', 'form', lead);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ ok: true, provider: 'crm', delivered: true });

    expect(crm.received).toHaveLength(1);
    const hook = crm.received[0]!;
    expect(hook.headers['content-type']).toBe('application/json');
    expect(verifyStandardWebhook(WEBHOOK_SECRET, hook.headers, hook.body)).toBe(true);
    // The verifier can fail: any change to what is signed breaks it.
    expect(verifyStandardWebhook(WEBHOOK_SECRET, hook.headers, hook.body.replace('Dana', 'Dina'))).toBe(
      false,
    );
    expect(verifyStandardWebhook(WEBHOOK_SECRET, { ...hook.headers, 'webhook-id': 'other' }, hook.body)).toBe(
      false,
    );
    const otherSecret = `whsec_${Buffer.from('another-secret-of-32-bytes-long!').toString('base64')}`;
    expect(verifyStandardWebhook(otherSecret, hook.headers, hook.body)).toBe(false);
    expect(verifyStandardWebhook(WEBHOOK_SECRET, hook.headers, hook.body, before + 3600)).toBe(false);

    const timestamp = Number(hook.headers['webhook-timestamp']);
    expect(timestamp).toBeGreaterThanOrEqual(before);
    expect(timestamp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));

    const [stored] = await server.submissions.store.list({ limit: 1 });
    expect(hook.headers['webhook-id']).toBe(stored!.id);
    const receivedAt = new Date(stored!.receivedAtMs).toISOString();
    expect(JSON.parse(hook.body)).toEqual({
      type: 'lead.created',
      timestamp: receivedAt,
      data: { id: stored!.id, ...lead, sourcePage: null, receivedAt },
    });
    expect(stored!.delivery).toMatchObject({ state: 'delivered', attempts: 1, lastError: null });
  });

  it('POSTs suggestion.created with the resolved sourcePage', async () => {
    const { server, crm } = await start();
    const answer = await post(server.url, '/api/document-suggestions', 'json', {
      companyType: 'cro',
      persona: 'regulatory-affairs',
      suggestion: 'IND annual report tables',
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      ok: true,
      provider: 'crm',
      delivered: true,
      sourcePage: '/solutions/cros',
    });
    const hook = crm.received[0]!;
    expect(verifyStandardWebhook(WEBHOOK_SECRET, hook.headers, hook.body)).toBe(true);
    const event = JSON.parse(hook.body) as { type: string; data: Record<string, unknown> };
    expect(event.type).toBe('suggestion.created');
    expect(event.data).toMatchObject({
      companyType: 'cro',
      persona: 'regulatory-affairs',
      suggestion: 'IND annual report tables',
      sourcePage: '/solutions/cros',
    });
  });

  it('routes leads and suggestions separately', async () => {
    crm = await startWebhookPeer();
    server = await startTestServer({
      env: {
        LEAD_DELIVERY: 'crm',
        SUGGESTION_DELIVERY: 'log',
        CRM_WEBHOOK_URL: crm.url,
        CRM_WEBHOOK_SECRET: WEBHOOK_SECRET,
      },
    });
    const suggestion = await post(server.url, '/api/document-suggestions', 'json', {
      companyType: 'research-site',
      persona: 'clinical-research-coordinator',
      suggestion: 'Visit checklist',
    });
    expect(suggestion.body).toMatchObject({ provider: 'log', delivered: true });
    expect(crm.received).toHaveLength(0);
    const lead = await post(server.url, '/api/leads', 'json', { name: 'Dana', email: 'dana@x.example' });
    expect(lead.body).toEqual({ ok: true, provider: 'crm', delivered: true });
    expect(crm.received).toHaveLength(1);
  });
});
