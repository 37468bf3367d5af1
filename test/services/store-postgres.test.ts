import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSubmissions } from '../../src/cli/submissions.js';
import { loadConfig } from '../../src/config/index.js';
import { createSubmissionService, type SubmissionService } from '../../src/submissions/index.js';
import { openPostgresStore, type SubmissionStore } from '../../src/submissions/store/index.js';
import pino from 'pino';
import { describeStoreContract } from '../submissions/store-contract.js';
import { newSubmission } from '../support/submissions.js';
import { waitFor } from '../support/net.js';
import { startWebhookPeer, WEBHOOK_SECRET, type WebhookPeer } from '../support/peers.js';
import { createTestSchema, POSTGRES_URL } from './postgres.js';

describeStoreContract('PostgreSQL', async () => {
  const { schema, drop } = await createTestSchema();
  return {
    open: () => openPostgresStore({ url: POSTGRES_URL, schema }),
    destroy: drop,
  };
});

describe('several instances on one PostgreSQL', () => {
  let testSchema: Awaited<ReturnType<typeof createTestSchema>>;
  let crm: WebhookPeer;
  const services: SubmissionService[] = [];
  let seed: SubmissionStore;

  beforeAll(async () => {
    testSchema = await createTestSchema();
    crm = await startWebhookPeer();
    seed = await openPostgresStore({ url: testSchema.url });
  });
  afterAll(async () => {
    for (const service of services) await service.close();
    await seed?.close();
    await crm?.close();
    await testSchema?.drop();
  });

  const config = () =>
    loadConfig({
      DATABASE_URL: testSchema.url,
      LEAD_DELIVERY: 'crm',
      CRM_WEBHOOK_URL: crm.url,
      CRM_WEBHOOK_SECRET: WEBHOOK_SECRET,
      DELIVERY_ATTEMPT_TIMEOUT_MS: '2000',
      DELIVERY_RETRY_BASE_MS: '20',
      DELIVERY_RETRY_MAX_MS: '100',
      DELIVERY_POLL_INTERVAL_MS: '10',
      LOG_LEVEL: 'silent',
    });

  it('two workers never deliver the same row at the same time, and every row exactly as often as needed', async () => {
    // Each receiver call is slow, and every first attempt per row fails, so the rows are retried
    // while both workers poll: a row handed to two workers would show as concurrent or extra calls.
    crm.delayMs = 15;
    const failedOnce = new Set<string>();
    crm.reply = (hook) => {
      const id = String(hook.headers['webhook-id']);
      if (failedOnce.has(id)) return { status: 200 };
      failedOnce.add(id);
      return { status: 503 };
    };
    const total = 60;
    const ids: string[] = [];
    for (let i = 0; i < total; i += 1) {
      const submission = newSubmission({
        receivedAtMs: Date.now(),
        outbox: { provider: 'crm', leaseToken: `expired-${randomUUID()}`, leaseUntilMs: 0 },
      });
      ids.push(submission.id);
      expect((await seed.insert(submission, 0)).status).toBe('created');
    }
    const silent = pino({ level: 'silent' });
    for (let n = 0; n < 2; n += 1) {
      const service = await createSubmissionService(config(), silent);
      services.push(service);
    }
    for (const service of services) service.start();

    await waitFor(
      'every row delivered',
      async () => (await seed.list({ limit: 1_000, state: 'delivered' })).length === total,
      30_000,
    );
    expect(crm.maxConcurrentPerId).toBe(1);
    const calls = new Map<string, number>();
    for (const hook of crm.received) {
      const id = String(hook.headers['webhook-id']);
      calls.set(id, (calls.get(id) ?? 0) + 1);
    }
    expect([...calls.keys()].sort()).toEqual([...ids].sort());
    expect([...calls.values()].every((count) => count === 2)).toBe(true);
    const rows = await seed.list({ limit: 1_000 });
    // The seeded rows count their (crashed) in-request attempt, then one failed and one good call.
    expect(rows.every((row) => row.delivery!.attempts === 3)).toBe(true);
  });

  it('two instances given the same Idempotency-Key at once store one submission', async () => {
    const [a, b] = services;
    const meta = {
      requestId: 'r',
      clientIp: '127.0.0.1',
      userAgent: undefined,
      idempotencyKey: 'shared-key',
    };
    const lead = { name: 'Dana', email: `dana-${randomUUID()}@example.com` };
    crm.reply = () => ({ status: 200 });
    const answers = await Promise.all([a!.acceptLead(lead, meta), b!.acceptLead(lead, meta)]);
    expect(answers.map((answer) => answer.provider)).toEqual(['crm', 'crm']);
    const stored = (await seed.list({ limit: 1_000 })).filter((row) => row.idempotencyKey === 'shared-key');
    expect(stored).toHaveLength(1);
  });

  it('the operator CLI lists and retries against PostgreSQL', async () => {
    // Leased until well after the test: with an expired lease, a running instance's worker could
    // claim and deliver the row before `complete` marks it dead (a race CI once lost).
    const dead = newSubmission({
      outbox: { provider: 'crm', leaseToken: 'cli', leaseUntilMs: Date.now() + 60_000 },
    });
    await seed.insert(dead, 0);
    await seed.complete(dead.id, 'cli', { outcome: 'dead', errorClass: 'http_404', atMs: Date.now() });
    let out = '';
    const io = {
      env: { DATABASE_URL: testSchema.url },
      cwd: process.cwd(),
      out: (t: string) => (out += t),
      err: () => {},
    };
    expect(await runSubmissions(['list', '--state', 'dead', '--json'], io)).toBe(0);
    expect((JSON.parse(out) as { id: string; lastError: string }[]).map((r) => [r.id, r.lastError])).toEqual([
      [dead.id, 'http_404'],
    ]);
    out = '';
    expect(await runSubmissions(['retry', dead.id], io)).toBe(0);
    expect(out).toBe(`requeued ${dead.id}\n`);
    await waitFor(
      'redelivery by a running worker',
      async () => (await seed.get(dead.id))!.delivery!.state === 'delivered',
    );
  });
});
