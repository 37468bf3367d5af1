import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../../src/submissions/store/index.js';
import { waitFor } from '../../support/net.js';
import {
  startWebhookPeer,
  verifyStandardWebhook,
  WEBHOOK_SECRET,
  type WebhookPeer,
} from '../../support/peers.js';
import { spawnServe, type ServeProcess } from '../../support/process.js';

/**
 * Sends leads from `clients` concurrent loops until `stop()`; every 2xx is recorded by its unique
 * e-mail. Requests cut off by the crash fail and are simply not acknowledged.
 */
function load(url: string, clients: number, acknowledged: Set<string>, prefix: string) {
  let running = true;
  let sent = 0;
  const loops = Array.from({ length: clients }, async (_, client) => {
    while (running) {
      const email = `${prefix}-c${client}-n${sent++}@load.example`;
      try {
        const response = await fetch(`${url}/api/leads`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: `Load ${client}`, email, message: 'crash test' }),
        });
        const body = (await response.json()) as { ok?: boolean };
        if (response.status === 200 && body.ok === true) acknowledged.add(email);
      } catch {
        return; // the server is gone
      }
    }
  });
  return {
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

describe('kill -9 under load', () => {
  let dataDir: string;
  let crm: WebhookPeer;
  const children: ServeProcess[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'frontdoor-crash-'));
    crm = await startWebhookPeer();
    // A slow receiver that sometimes fails keeps deliveries in flight and pending when the kill lands.
    crm.delayMs = 5;
    let calls = 0;
    crm.reply = () => (++calls % 7 === 0 ? { status: 503 } : { status: 200 });
  });
  afterAll(async () => {
    for (const child of children) child.child.kill('SIGKILL');
    await Promise.all(children.map((child) => child.exit));
    await crm?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps every acknowledged submission and delivers it after restarts', { timeout: 120_000 }, async () => {
    const env = {
      DATA_DIR: dataDir,
      LEAD_DELIVERY: 'crm',
      CRM_WEBHOOK_URL: crm.url,
      CRM_WEBHOOK_SECRET: WEBHOOK_SECRET,
      DELIVERY_INLINE_BUDGET_MS: '100',
      DELIVERY_ATTEMPT_TIMEOUT_MS: '500',
      DELIVERY_RETRY_BASE_MS: '50',
      DELIVERY_RETRY_MAX_MS: '500',
      DELIVERY_POLL_INTERVAL_MS: '50',
    };
    const acknowledged = new Set<string>();

    for (let round = 0; round < 2; round += 1) {
      const child = spawnServe(env);
      children.push(child);
      const url = await child.url;
      const traffic = load(url, 12, acknowledged, `r${round}`);
      const before = acknowledged.size;
      // Killed in the middle of the load: the same count on every run, a different one each round.
      await waitFor('acknowledged submissions', () => acknowledged.size >= before + 40 + 23 * round, 30_000);
      child.child.kill('SIGKILL');
      await child.exit;
      await traffic.stop();
    }
    expect(acknowledged.size).toBeGreaterThanOrEqual(80);

    // Restart on the same data: rows left pending or leased by the killed processes are picked up.
    const survivor = spawnServe(env);
    children.push(survivor);
    await survivor.url;

    const store = openSqliteStore(join(dataDir, 'frontdoor.sqlite'));
    try {
      const stored = await store.list({ limit: 100_000 });
      const byEmail = new Map(stored.map((record) => [record.fields.email!, record]));
      const lost = [...acknowledged].filter((email) => !byEmail.has(email));
      expect(lost, 'acknowledged but not stored').toEqual([]);

      await waitFor(
        'every stored submission delivered',
        async () =>
          (await store.list({ limit: 100_000 })).every((record) => record.delivery?.state === 'delivered'),
        60_000,
      );
      const deliveredIds = new Set(
        crm.received
          .filter((hook) => verifyStandardWebhook(WEBHOOK_SECRET, hook.headers, hook.body))
          .filter((hook) => (JSON.parse(hook.body) as { type: string }).type === 'lead.created')
          .map((hook) => String(hook.headers['webhook-id'])),
      );
      const undelivered = [...acknowledged].filter((email) => !deliveredIds.has(byEmail.get(email)!.id));
      expect(undelivered, 'acknowledged but never received by the CRM').toEqual([]);
      // Nothing arrives that was not stored; a repeat after a crash (at-least-once) carries the same
      // webhook-id, so the receiver can drop it.
      const storedIds = new Set(stored.map((record) => record.id));
      const phantoms = crm.received
        .map((hook) => String(hook.headers['webhook-id']))
        .filter((id) => !storedIds.has(id));
      expect(phantoms).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
