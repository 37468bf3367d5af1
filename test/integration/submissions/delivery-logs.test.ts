import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { createSubmissionService, type SubmissionService } from '../../../src/submissions/index.js';
import { openSqliteStore, type SubmissionStore } from '../../../src/submissions/store/index.js';
import type { LogRecord } from '../../support/servers.js';
import { startWebhookPeer, WEBHOOK_SECRET, type WebhookPeer } from '../../support/peers.js';
import { steppedClock } from '../../support/submissions.js';

const META = { requestId: 'req-1', clientIp: '203.0.113.1', userAgent: undefined, idempotencyKey: undefined };
const LEAD = { name: 'Log Reader', email: 'reader@visitor.example' };

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function setUp(wrap: (store: SubmissionStore) => SubmissionStore = (store) => store) {
  const dir = mkdtempSync(join(tmpdir(), 'frontdoor-logs-'));
  const crm: WebhookPeer = await startWebhookPeer();
  const logs: LogRecord[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString().split('\n'))
        if (line.trim()) logs.push(JSON.parse(line) as LogRecord);
      callback();
    },
  });
  const config = loadConfig({
    DATA_DIR: dir,
    LEAD_DELIVERY: 'crm',
    CRM_WEBHOOK_URL: crm.url,
    CRM_WEBHOOK_SECRET: WEBHOOK_SECRET,
    DELIVERY_INLINE_BUDGET_MS: '2000',
    DELIVERY_RETRY_BASE_MS: '10',
    DELIVERY_RETRY_MAX_MS: '10',
  });
  const store = openSqliteStore(join(dir, 'frontdoor.sqlite'));
  const clock = steppedClock();
  const service: SubmissionService = await createSubmissionService(config, pino(sink), {
    store: wrap(store),
    now: clock.now,
  });
  cleanup.push(async () => {
    await service.close();
    await crm.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { crm, logs, service, clock };
}

const linesOf = (logs: LogRecord[], id: string) =>
  logs.filter((line) => line.submissionId === id).map((line) => line.msg);

describe('submission logs', () => {
  it('write one line per event: stored, each failed attempt, delivered', async () => {
    const { crm, logs, service, clock } = await setUp();
    let calls = 0;
    crm.reply = () => (calls++ === 0 ? { status: 503 } : { status: 204 });
    expect(await service.acceptLead(LEAD, META)).toEqual({ ok: true, provider: 'crm', delivered: false });
    const [record] = await service.store.list({ limit: 1 });
    // Past the retry delay (DELIVERY_RETRY_MAX_MS), so the row is due.
    clock.advance(11);
    await service.deliverDue();
    expect(linesOf(logs, record!.id)).toEqual([
      'submission stored',
      'delivery attempt failed; will retry',
      'submission delivered',
    ]);
  });

  it('never say delivered when the result was not recorded: a lost lease and a failed write are named', async () => {
    const lostLease = await setUp((store) => ({ ...store, complete: async () => false }));
    expect(await lostLease.service.acceptLead(LEAD, META)).toMatchObject({ delivered: false });
    const [leased] = await lostLease.service.store.list({ limit: 1 });
    expect(leased!.delivery!.state).toBe('pending');
    const leaseLines = lostLease.logs.filter((line) => line.submissionId === leased!.id);
    expect(leaseLines.map((line) => line.msg)).toEqual([
      'submission stored',
      'delivery lease lost: another attempt owns the row now; this delivery’s result was not recorded and the receiver may get the submission again'.replace(
        '’',
        "'",
      ),
    ]);
    expect(leaseLines[1]).toMatchObject({ level: 40, outcome: 'delivered' });

    const brokenWrite = await setUp((store) => ({
      ...store,
      complete: async () => {
        throw Object.assign(new Error('terminating connection due to administrator command'), {
          code: '57P01',
        });
      },
    }));
    await brokenWrite.service.acceptLead(LEAD, META);
    const [pending] = await brokenWrite.service.store.list({ limit: 1 });
    const writeLines = brokenWrite.logs.filter((line) => line.submissionId === pending!.id);
    expect(writeLines.map((line) => line.msg)).toEqual([
      'submission stored',
      'delivery result could not be recorded: the row stays pending and the receiver may get the submission again',
    ]);
    // The PostgreSQL code is named in words beside it, and the driver's message is not logged.
    expect(writeLines[1]).toMatchObject({
      storeErrorClass: '57P01',
      storeError: expect.stringMatching(/^admin shutdown/),
    });
    expect(JSON.stringify(writeLines[1])).not.toContain('administrator command');
  });
});
