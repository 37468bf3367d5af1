import { afterEach, describe, expect, it } from 'vitest';
import type { SubmissionRecord } from '../../../src/submissions/index.js';
import { post } from '../../support/client.js';
import { startTestServer, type TestServer } from '../../support/servers.js';
import { steppedClock, type SteppedClock } from '../../support/submissions.js';
import { freePort, waitFor } from '../../support/net.js';
import {
  mailHeader,
  startSilentPeer,
  startSmtpPeer,
  startWebhookPeer,
  verifyStandardWebhook,
  WEBHOOK_SECRET,
  type SmtpPeer,
  type WebhookPeer,
} from '../../support/peers.js';

/**
 * The worker is stopped: the in-request attempt runs as in production, and every later attempt is
 * one explicit `deliverDue()` after the test moved the server's clock past the backoff. Only the
 * attempt timeout is real time (the provider's AbortSignal), so it is kept short.
 */
const TIMING = {
  DELIVERY_INLINE_BUDGET_MS: '300',
  DELIVERY_ATTEMPT_TIMEOUT_MS: '800',
  DELIVERY_RETRY_BASE_MS: '50',
  DELIVERY_RETRY_MAX_MS: '300',
  DELIVERY_POLL_INTERVAL_MS: '25',
};
/** Longer than any backoff TIMING allows (jitter included): one step makes a retry due. */
const STEP_MS = 301;
/** Far beyond every backoff: what is not due then is never retried. */
const AN_HOUR_MS = 3_600_000;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface SteppedServer extends TestServer {
  clock: SteppedClock;
}

async function startStepped(env: Record<string, string>, startWorker = false): Promise<SteppedServer> {
  const clock = steppedClock();
  const server = await startTestServer({
    env: { ...TIMING, ...env },
    submissions: { now: clock.now },
    startWorker,
  });
  cleanups.push(() => server.close());
  return Object.assign(server, { clock });
}

function startWithSmtp(smtpUrl: string, extra: Record<string, string> = {}): Promise<SteppedServer> {
  return startStepped({
    LEAD_DELIVERY: 'email-service',
    SMTP_URL: smtpUrl,
    MAIL_FROM: 'website@trialwright.example',
    LEAD_MAIL_TO: 'sales@trialwright.example',
    ...extra,
  });
}

async function startWithCrm(
  crm: WebhookPeer,
  extra: Record<string, string> = {},
  startWorker = false,
): Promise<SteppedServer> {
  const server = await startStepped(
    { LEAD_DELIVERY: 'crm', CRM_WEBHOOK_URL: crm.url, CRM_WEBHOOK_SECRET: WEBHOOK_SECRET, ...extra },
    startWorker,
  );
  // The receiver stamps arrivals with the server's clock, so its gaps are the server's backoff.
  crm.now = server.clock.now;
  return server;
}

async function smtpPeer(port?: number): Promise<SmtpPeer> {
  const peer = await startSmtpPeer(port);
  cleanups.push(() => peer.close());
  return peer;
}

async function webhookPeer(): Promise<WebhookPeer> {
  const peer = await startWebhookPeer();
  cleanups.push(() => peer.close());
  return peer;
}

/**
 * Sends one lead and checks the answer is honest (not delivered) and did not wait for a retry: the
 * row shows the one in-request attempt, or that attempt still running. Returns the stored row.
 */
async function submitUndelivered(server: TestServer, provider: string): Promise<SubmissionRecord> {
  const answer = await post(server.url, '/api/leads', 'json', {
    name: 'Dana Reyes',
    email: 'dana@sponsor.example',
    message: 'Please call',
  });
  expect(answer.status).toBe(200);
  expect(answer.body).toEqual({ ok: true, provider, delivered: false });
  const [record] = await server.submissions.store.list({ limit: 1 });
  expect(record!.delivery!.attempts).toBe(1);
  return record!;
}

const stateOf = async (server: TestServer, id: string) => (await server.submissions.store.get(id))!.delivery!;

/**
 * For a peer that holds the in-request attempt: the answer came back while that attempt was still
 * running (no error recorded yet), so it waited for the inline budget, not for the attempt. The
 * attempt timeout is set well above the budget so that this does not depend on scheduling.
 */
const HELD_ATTEMPT = { DELIVERY_ATTEMPT_TIMEOUT_MS: '1000' };
async function expectAnsweredWhileAttemptRuns(server: TestServer, record: SubmissionRecord): Promise<void> {
  expect(await stateOf(server, record.id)).toMatchObject({ state: 'pending', attempts: 1, lastError: null });
}

/** Steps until the row is delivered (at most `maxSteps` attempts), then checks that it is. */
async function stepUntilDelivered(server: SteppedServer, id: string, maxSteps = 10): Promise<void> {
  for (let i = 0; i < maxSteps && (await stateOf(server, id)).state !== 'delivered'; i += 1)
    await step(server);
  expect((await stateOf(server, id)).state).toBe('delivered');
}

/** Moves the clock past the backoff and runs one worker poll; returns how many attempts it made. */
async function step(server: SteppedServer, ms = STEP_MS): Promise<number> {
  server.clock.advance(ms);
  return server.submissions.deliverDue();
}

describe('SMTP faults', () => {
  it('a relay refusing connections: stored, retried, delivered once it listens', async () => {
    const port = await freePort();
    const server = await startWithSmtp(`smtp://127.0.0.1:${port}`);
    const record = await submitUndelivered(server, 'email-service');
    expect((await stateOf(server, record.id)).lastError).toBe('connection');
    const smtp = await smtpPeer(port);
    expect(await step(server)).toBe(1);
    expect((await stateOf(server, record.id)).state).toBe('delivered');
    expect(smtp.accepted).toHaveLength(1);
    expect(mailHeader(smtp.accepted[0]!.raw, 'message-id')[0]).toContain(record.id);
  });

  it('a relay answering 4xx: retried with the same Message-ID, then delivered', async () => {
    const smtp = await smtpPeer();
    let refusals = 2;
    smtp.onData = () => (refusals-- > 0 ? { code: 451, message: 'Try again later' } : null);
    const server = await startWithSmtp(smtp.url);
    const record = await submitUndelivered(server, 'email-service');
    expect((await stateOf(server, record.id)).state).toBe('pending');
    await step(server);
    expect((await stateOf(server, record.id)).state).toBe('pending');
    await step(server);
    expect((await stateOf(server, record.id)).state).toBe('delivered');
    expect(smtp.received).toHaveLength(3);
    expect(smtp.accepted).toHaveLength(1);
    const ids = smtp.received.map((mail) => mailHeader(mail.raw, 'message-id')[0]);
    expect(new Set(ids)).toEqual(new Set([`<${record.id}@127.0.0.1>`]));
    expect((await stateOf(server, record.id)).attempts).toBe(3);
  });

  it('a relay answering 5xx: dead-lettered at once, never retried', async () => {
    const smtp = await smtpPeer();
    smtp.onRecipient = () => ({ code: 550, message: 'No such mailbox' });
    const server = await startWithSmtp(smtp.url);
    const answer = await post(server.url, '/api/leads', 'json', {
      name: 'Dana',
      email: 'dana@sponsor.example',
    });
    expect(answer.body).toEqual({ ok: true, provider: 'email-service', delivered: false });
    const [record] = await server.submissions.store.list({ limit: 1 });
    expect((await stateOf(server, record!.id)).state).toBe('dead');
    const connections = smtp.connections;
    // An hour of the server's time later, nothing more is due or tried.
    expect(await step(server, AN_HOUR_MS)).toBe(0);
    expect(smtp.connections).toBe(connections);
    expect(await stateOf(server, record!.id)).toMatchObject({
      state: 'dead',
      attempts: 1,
      lastError: 'smtp_550',
    });
    const deadLog = server.logs.find((line) => line.msg === 'submission dead-lettered');
    expect(deadLog).toMatchObject({ submissionId: record!.id, errorClass: 'smtp_550', permanent: true });
  });

  it('a relay that never greets: the answer stays prompt and delivery follows recovery', async () => {
    const smtp = await smtpPeer();
    smtp.hang = true;
    const server = await startWithSmtp(smtp.url, HELD_ATTEMPT);
    const record = await submitUndelivered(server, 'email-service');
    await expectAnsweredWhileAttemptRuns(server, record);
    await waitFor(
      'the in-request attempt to time out',
      async () => (await stateOf(server, record.id)).lastError === 'timeout',
    );
    smtp.hang = false;
    // The transport may first spend an attempt on the connection the relay still holds.
    await stepUntilDelivered(server, record.id);
    expect(smtp.accepted).toHaveLength(1);
  });

  it('a TCP peer that never speaks SMTP times out within the attempt cap', async () => {
    const silent = await startSilentPeer();
    cleanups.push(() => silent.close());
    const server = await startWithSmtp(`smtp://127.0.0.1:${silent.port}`, {
      ...HELD_ATTEMPT,
      DELIVERY_MAX_ATTEMPTS: '2',
    });
    const record = await submitUndelivered(server, 'email-service');
    await expectAnsweredWhileAttemptRuns(server, record);
    await waitFor(
      'the in-request attempt to time out',
      async () => (await stateOf(server, record.id)).lastError === 'timeout',
    );
    // The second and last attempt: deliverDue() returns when it has timed out and been recorded.
    expect(await step(server)).toBe(1);
    expect(await stateOf(server, record.id)).toMatchObject({
      state: 'dead',
      attempts: 2,
      lastError: 'timeout',
    });
  });
});

describe('CRM faults', () => {
  it('a receiver answering 500: retried with the same webhook-id and fresh signatures, then delivered', async () => {
    const crm = await webhookPeer();
    let failures = 2;
    crm.reply = () => (failures-- > 0 ? { status: 500 } : { status: 200 });
    const server = await startWithCrm(crm);
    const record = await submitUndelivered(server, 'crm');
    await step(server);
    expect((await stateOf(server, record.id)).state).toBe('pending');
    await step(server);
    expect((await stateOf(server, record.id)).state).toBe('delivered');
    expect(crm.received).toHaveLength(3);
    expect(new Set(crm.received.map((hook) => hook.headers['webhook-id']))).toEqual(new Set([record.id]));
    expect(new Set(crm.received.map((hook) => hook.body)).size).toBe(1);
    for (const hook of crm.received)
      expect(verifyStandardWebhook(WEBHOOK_SECRET, hook.headers, hook.body)).toBe(true);
    expect(await stateOf(server, record.id)).toMatchObject({ attempts: 3, lastError: null });
  });

  it('a receiver answering 429 with Retry-After: the next attempt waits for it', async () => {
    const crm = await webhookPeer();
    let limited = true;
    crm.reply = () => {
      if (!limited) return { status: 202 };
      limited = false;
      return { status: 429, headers: { 'retry-after': '3' } };
    };
    const server = await startWithCrm(crm, { DELIVERY_RETRY_MAX_MS: '5000' });
    const record = await submitUndelivered(server, 'crm');
    // 2 s on: far longer than any backoff of a first failure (≤ 50 ms), a second shorter than
    // Retry-After: not due. (The stepped clock also moves with real time: the margin is for a busy
    // machine, where 10 ms of it passed between the attempt and the step.)
    expect(await step(server, 2000)).toBe(0);
    expect(crm.received).toHaveLength(1);
    expect(await step(server, 1000)).toBe(1);
    expect((await stateOf(server, record.id)).state).toBe('delivered');
    expect(crm.received).toHaveLength(2);
    expect(crm.received[1]!.atMs - crm.received[0]!.atMs).toBeGreaterThanOrEqual(3000);
  });

  it('a receiver answering 400: dead-lettered, never retried', async () => {
    const crm = await webhookPeer();
    crm.reply = () => ({ status: 400 });
    const server = await startWithCrm(crm);
    const answer = await post(server.url, '/api/leads', 'json', {
      name: 'Dana',
      email: 'dana@sponsor.example',
    });
    expect(answer.body).toEqual({ ok: true, provider: 'crm', delivered: false });
    const [record] = await server.submissions.store.list({ limit: 1 });
    expect((await stateOf(server, record!.id)).state).toBe('dead');
    expect(await step(server, AN_HOUR_MS)).toBe(0);
    expect(crm.received).toHaveLength(1);
    expect(await stateOf(server, record!.id)).toMatchObject({ attempts: 1, lastError: 'http_400' });
  });

  it('a receiver that never answers: the answer stays prompt and delivery follows recovery', async () => {
    const crm = await webhookPeer();
    let hanging = true;
    crm.reply = () => (hanging ? { status: 200, hang: true } : { status: 204 });
    const server = await startWithCrm(crm, HELD_ATTEMPT);
    const record = await submitUndelivered(server, 'crm');
    await expectAnsweredWhileAttemptRuns(server, record);
    await waitFor(
      'the in-request attempt to time out',
      async () => (await stateOf(server, record.id)).lastError === 'timeout',
    );
    hanging = false;
    await stepUntilDelivered(server, record.id);
    expect(new Set(crm.received.map((hook) => hook.headers['webhook-id']))).toEqual(new Set([record.id]));
  });

  it('gives up after the configured number of attempts', async () => {
    const crm = await webhookPeer();
    crm.reply = () => ({ status: 503 });
    const server = await startWithCrm(crm, { DELIVERY_MAX_ATTEMPTS: '3' });
    const record = await submitUndelivered(server, 'crm');
    await step(server);
    await step(server);
    expect(await stateOf(server, record.id)).toMatchObject({
      state: 'dead',
      attempts: 3,
      lastError: 'http_503',
    });
    expect(await step(server, AN_HOUR_MS)).toBe(0);
    expect(crm.received).toHaveLength(3);
  });

  it('never sends the same row twice at the same time (in-request attempt and worker)', async () => {
    const crm = await webhookPeer();
    crm.delayMs = 150;
    let failures = 3;
    crm.reply = () => (failures-- > 0 ? { status: 502 } : { status: 200 });
    // The real worker this time: the race is between it and the in-request attempts.
    const server = await startWithCrm(crm, { DELIVERY_INLINE_BUDGET_MS: '50' }, true);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        post(server.url, '/api/leads', 'json', { name: `Visitor ${i}`, email: `v${i}@example.com` }),
      ),
    );
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    await waitFor('all delivered', async () =>
      (await server.submissions.store.list({ limit: 100 })).every((r) => r.delivery?.state === 'delivered'),
    );
    expect(crm.maxConcurrentPerId).toBe(1);
  });
});
