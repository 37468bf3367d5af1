import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewSubmission, SubmissionStore } from '../../src/submissions/store/index.js';
import { newSubmission, T0 } from '../support/submissions.js';

/** Opens stores on one backing database (each call a new connection to the same data). */
export interface StoreFactory {
  open(): Promise<SubmissionStore>;
  /** Drops the backing database. */
  destroy(): Promise<void>;
}

/**
 * The meaning every store must have, run against SQLite (core suite) and PostgreSQL (services
 * suite) with the same body.
 */
export function describeStoreContract(name: string, factory: () => Promise<StoreFactory>): void {
  describe(`${name} store contract`, () => {
    let backing: StoreFactory;
    let store: SubmissionStore;
    beforeAll(async () => {
      backing = await factory();
      store = await backing.open();
    });
    afterAll(async () => {
      await store?.close();
      await backing?.destroy();
    });

    const fresh = async (overrides: Partial<NewSubmission> = {}) => {
      const outcome = await store.insert(newSubmission(overrides), 0);
      expect(outcome.status).toBe('created');
      if (outcome.status !== 'created') throw new Error('not created');
      return outcome.record;
    };

    it('stores a submission with its outbox row, leased to the in-request attempt', async () => {
      const submission = newSubmission({ receivedAtMs: T0 });
      const outcome = await store.insert(submission, T0 - 600_000);
      expect(outcome).toMatchObject({ status: 'created' });
      const record = await store.get(submission.id);
      expect(record).toEqual({
        id: submission.id,
        kind: 'lead',
        receivedAtMs: T0,
        provider: 'crm',
        fields: submission.fields,
        requestId: submission.requestId,
        clientIp: '203.0.113.7',
        userAgent: 'test-agent',
        idempotencyKey: null,
        fingerprint: submission.fingerprint,
        requestHash: submission.requestHash,
        quarantineReason: null,
        erasedAtMs: null,
        form: null,
        delivery: {
          provider: 'crm',
          state: 'pending',
          attempts: 1,
          nextAttemptAtMs: T0,
          lastError: null,
          deliveredAtMs: null,
        },
      });
      // Leased: no worker may take it while the in-request attempt runs.
      const during = await store.claimDue({
        nowMs: T0 + 500,
        limit: 100,
        leaseUntilMs: T0 + 5_000,
        leaseToken: 'w1',
      });
      expect(during.map((claim) => claim.submission.id)).not.toContain(submission.id);
      expect(
        await store.complete(submission.id, submission.outbox!.leaseToken, {
          outcome: 'delivered',
          atMs: T0 + 10,
        }),
      ).toBe(true);
      expect((await store.get(submission.id))!.delivery).toMatchObject({
        state: 'delivered',
        deliveredAtMs: T0 + 10,
      });
    });

    it('stores a submission without delivery and no outbox row', async () => {
      const record = await fresh({ provider: 'mailto', outbox: null });
      expect(record.delivery).toBeNull();
      expect(record.provider).toBe('mailto');
      const none = await store.list({ state: 'none', limit: 1_000 });
      expect(none.map((r) => r.id)).toContain(record.id);
      const claimed = await store.claimDue({
        nowMs: T0 + 10_000_000,
        limit: 1_000,
        leaseUntilMs: T0 + 10_000_100,
        leaseToken: 'x',
      });
      expect(claimed.map((c) => c.submission.id)).not.toContain(record.id);
      for (const claim of claimed)
        await store.complete(claim.submission.id, 'x', { outcome: 'delivered', atMs: T0 });
    });

    it('matches identical content inside the window and stores it again after', async () => {
      const fingerprint = `fp-${randomUUID()}`;
      const original = await fresh({ fingerprint, receivedAtMs: T0 });
      const repeat = await store.insert(
        newSubmission({ fingerprint, receivedAtMs: T0 + 1_000 }),
        T0 + 1_000 - 600_000,
      );
      expect(repeat).toMatchObject({ status: 'duplicate', record: { id: original.id } });
      const later = await store.insert(
        newSubmission({ fingerprint, receivedAtMs: T0 + 700_000 }),
        T0 + 100_000,
      );
      expect(later.status).toBe('created');
    });

    it('replays a reused Idempotency-Key with the same body and refuses it with another', async () => {
      const key = `key-${randomUUID()}`;
      const original = await fresh({ idempotencyKey: key, requestHash: 'same' });
      const replay = await store.insert(newSubmission({ idempotencyKey: key, requestHash: 'same' }), 0);
      expect(replay).toMatchObject({ status: 'replay', record: { id: original.id, idempotencyKey: key } });
      const conflict = await store.insert(newSubmission({ idempotencyKey: key, requestHash: 'other' }), 0);
      expect(conflict).toEqual({ status: 'key-conflict' });
      // The same key on the other endpoint is another key.
      const otherKind = await store.insert(
        newSubmission({ idempotencyKey: key, kind: 'suggestion', requestHash: 'other' }),
        0,
      );
      expect(otherKind.status).toBe('created');
    });

    it('leases due rows once, counts attempts, and ignores results from a lost lease', async () => {
      const record = await fresh({
        outbox: { provider: 'log', leaseToken: 'inline', leaseUntilMs: T0 + 100 },
      });
      expect(
        await store.complete(record.id, 'inline', {
          outcome: 'retry',
          errorClass: 'http_503',
          nextAttemptAtMs: T0 + 5_000,
          atMs: T0 + 50,
        }),
      ).toBe(true);
      const early = await store.claimDue({
        nowMs: T0 + 4_999,
        limit: 1_000,
        leaseUntilMs: T0 + 9_999,
        leaseToken: 'early',
      });
      expect(early.map((c) => c.submission.id)).not.toContain(record.id);
      for (const claim of early)
        await store.complete(claim.submission.id, 'early', { outcome: 'delivered', atMs: T0 });
      expect((await store.get(record.id))!.delivery).toMatchObject({
        state: 'pending',
        attempts: 1,
        lastError: 'http_503',
        nextAttemptAtMs: T0 + 5_000,
      });

      const [claim] = (
        await store.claimDue({ nowMs: T0 + 5_000, limit: 1_000, leaseUntilMs: T0 + 6_000, leaseToken: 'a' })
      ).filter((c) => c.submission.id === record.id);
      expect(claim).toMatchObject({
        provider: 'log',
        attempt: 2,
        leaseToken: 'a',
        submission: { id: record.id, fields: record.fields },
      });
      // Still leased: a second worker does not get it.
      const second = await store.claimDue({
        nowMs: T0 + 5_500,
        limit: 1_000,
        leaseUntilMs: T0 + 7_000,
        leaseToken: 'b',
      });
      expect(second.map((c) => c.submission.id)).not.toContain(record.id);
      // The lease ran out and another worker took the row: the first worker's result is refused.
      const taken = (
        await store.claimDue({ nowMs: T0 + 6_001, limit: 1_000, leaseUntilMs: T0 + 8_000, leaseToken: 'c' })
      ).filter((c) => c.submission.id === record.id);
      expect(taken).toHaveLength(1);
      expect(taken[0]!.attempt).toBe(3);
      expect(await store.complete(record.id, 'a', { outcome: 'delivered', atMs: T0 + 6_002 })).toBe(false);
      expect(
        await store.complete(record.id, 'c', { outcome: 'dead', errorClass: 'http_400', atMs: T0 + 6_003 }),
      ).toBe(true);
      expect((await store.get(record.id))!.delivery).toEqual({
        provider: 'log',
        state: 'dead',
        attempts: 3,
        nextAttemptAtMs: null,
        lastError: 'http_400',
        deliveredAtMs: null,
      });
      // A finished row is never completed again.
      expect(await store.complete(record.id, 'c', { outcome: 'delivered', atMs: T0 + 7_000 })).toBe(false);
    });

    it('requeues dead rows with a fresh attempt budget and says why others were not', async () => {
      const dead = await fresh({ outbox: { provider: 'crm', leaseToken: 'l1', leaseUntilMs: T0 + 1 } });
      await store.complete(dead.id, 'l1', { outcome: 'dead', errorClass: 'http_410', atMs: T0 + 1 });
      const delivered = await fresh({ outbox: { provider: 'crm', leaseToken: 'l2', leaseUntilMs: T0 + 1 } });
      await store.complete(delivered.id, 'l2', { outcome: 'delivered', atMs: T0 + 1 });
      const unrouted = await fresh({ provider: 'server-log', kind: 'suggestion', outbox: null });
      const results = await store.requeue([dead.id, delivered.id, unrouted.id, 'no-such-id'], T0 + 100);
      expect(results).toEqual([
        { id: dead.id, requeued: true },
        { id: delivered.id, requeued: false, reason: 'delivered' },
        { id: unrouted.id, requeued: false, reason: 'no-delivery' },
        { id: 'no-such-id', requeued: false, reason: 'unknown' },
      ]);
      expect((await store.get(dead.id))!.delivery).toMatchObject({
        state: 'pending',
        attempts: 0,
        nextAttemptAtMs: T0 + 100,
        lastError: 'http_410',
      });

      const again = await fresh({ outbox: { provider: 'crm', leaseToken: 'l3', leaseUntilMs: T0 + 1 } });
      await store.complete(again.id, 'l3', { outcome: 'dead', errorClass: 'smtp_550', atMs: T0 + 1 });
      const all = await store.requeueAllDead(T0 + 200);
      expect(all).toContain(again.id);
      expect(await store.list({ state: 'dead', limit: 1_000 })).toEqual([]);
    });

    it('lists newest first, filtered by state and kind, up to a limit', async () => {
      const base = T0 + 50_000_000;
      const a = await fresh({
        receivedAtMs: base + 1,
        kind: 'suggestion',
        provider: 'server-log',
        outbox: null,
      });
      const b = await fresh({ receivedAtMs: base + 2, kind: 'lead' });
      const c = await fresh({ receivedAtMs: base + 3, kind: 'suggestion', provider: 'crm' });
      const newest = await store.list({ limit: 3 });
      expect(newest.map((r) => r.id)).toEqual([c.id, b.id, a.id]);
      expect((await store.list({ limit: 2, kind: 'suggestion' })).map((r) => r.id)).toEqual([c.id, a.id]);
      expect((await store.list({ limit: 1, kind: 'suggestion', state: 'pending' })).map((r) => r.id)).toEqual(
        [c.id],
      );
      expect((await store.list({ limit: 1, state: 'none' })).map((r) => r.id)).toEqual([a.id]);
    });

    it('never hands one row to two concurrent claimers', async () => {
      const ids = new Set<string>();
      for (let i = 0; i < 40; i += 1) {
        const record = await fresh({
          receivedAtMs: T0 + 80_000_000 + i,
          outbox: { provider: 'log', leaseToken: 'i', leaseUntilMs: 0 },
        });
        ids.add(record.id);
      }
      const now = T0 + 90_000_000;
      const batches = await Promise.all(
        Array.from({ length: 6 }, (_, n) =>
          store.claimDue({ nowMs: now, limit: 10, leaseUntilMs: now + 60_000, leaseToken: `w${n}` }),
        ),
      );
      const claimed = batches
        .flat()
        .map((c) => c.submission.id)
        .filter((id) => ids.has(id));
      expect(new Set(claimed).size).toBe(claimed.length);
      expect(claimed.length).toBe(40);
    });

    it('counts pending and dead rows and finds the oldest pending one', async () => {
      const expected = async () => {
        const pending = await store.list({ state: 'pending', limit: 100_000 });
        const dead = await store.list({ state: 'dead', limit: 100_000 });
        const oldest = pending.length ? Math.min(...pending.map((r) => r.receivedAtMs)) : null;
        return { pending: pending.length, dead: dead.length, oldestPendingReceivedAtMs: oldest };
      };
      expect(await store.outboxStats()).toEqual(await expected());
      const older = await fresh({ receivedAtMs: T0 - 3_600_000 });
      const before = await store.outboxStats();
      expect(before).toEqual(await expected());
      expect(before.oldestPendingReceivedAtMs).toBe(T0 - 3_600_000);
      expect(
        await store.complete(older.id, `inline-${older.id}`, { outcome: 'dead', errorClass: 'x', atMs: T0 }),
      ).toBe(true);
      const after = await store.outboxStats();
      expect(after).toEqual({ ...(await expected()), pending: before.pending - 1, dead: before.dead + 1 });
    });

    it('holds a quarantined submission out of delivery until it is released', async () => {
      const held = await fresh({ receivedAtMs: T0 + 100_000_000, quarantineReason: 'honeypot' });
      expect(held.quarantineReason).toBe('honeypot');
      expect(held.delivery).toMatchObject({ state: 'quarantine', attempts: 0, nextAttemptAtMs: null });
      const later = T0 + 100_500_000;
      const claim = () =>
        store.claimDue({ nowMs: later, limit: 1_000, leaseUntilMs: later + 60_000, leaseToken: 'q' });
      expect((await claim()).map((c) => c.submission.id)).not.toContain(held.id);
      expect((await store.list({ state: 'quarantine', limit: 1_000 })).map((r) => r.id)).toContain(held.id);
      // requeue is for dead letters: it leaves a quarantined row alone and says so.
      expect(await store.requeue([held.id], later)).toEqual([
        { id: held.id, requeued: false, reason: 'quarantined' },
      ]);

      const ordinary = await fresh({ receivedAtMs: T0 + 100_000_001 });
      expect(await store.release([held.id, ordinary.id, 'no-such-id'], later)).toEqual([
        { id: held.id, released: true },
        { id: ordinary.id, released: false, reason: 'not-quarantined' },
        { id: 'no-such-id', released: false, reason: 'unknown' },
      ]);
      const released = await store.get(held.id);
      expect(released!.delivery).toMatchObject({ state: 'pending', attempts: 0, nextAttemptAtMs: later });
      expect(released!.quarantineReason).toBe('honeypot');
      expect((await claim()).map((c) => c.submission.id)).toContain(held.id);
    });

    it('releases a quarantined match to a clean submission, leased to its attempt; a trapped repeat stays a duplicate', async () => {
      const at = T0 + 150_000_000;
      for (const match of ['fingerprint', 'key'] as const) {
        const fingerprint = `fp-${randomUUID()}`;
        const key = match === 'key' ? `key-${randomUUID()}` : null;
        const held = await fresh({
          receivedAtMs: at,
          fingerprint,
          idempotencyKey: key,
          requestHash: 'h',
          quarantineReason: 'too-fast',
        });
        // Another trapped send of the same content is the same held submission.
        const trapped = await store.insert(
          newSubmission({
            receivedAtMs: at + 1,
            fingerprint,
            idempotencyKey: key,
            requestHash: 'h',
            quarantineReason: 'honeypot',
          }),
          at - 600_000,
        );
        expect(trapped).toMatchObject({
          status: key ? 'replay' : 'duplicate',
          record: { id: held.id, delivery: { state: 'quarantine' } },
        });

        const clean = newSubmission({
          receivedAtMs: at + 2,
          fingerprint,
          idempotencyKey: key,
          requestHash: 'h',
          outbox: { provider: 'crm', leaseToken: `clean-${match}`, leaseUntilMs: at + 60_000 },
        });
        const outcome = await store.insert(clean, at - 600_000);
        expect(outcome).toMatchObject({
          status: 'released',
          record: {
            id: held.id,
            quarantineReason: 'too-fast',
            delivery: { state: 'pending', attempts: 1, nextAttemptAtMs: at + 2 },
          },
        });
        // Leased to the clean request's attempt: no worker takes it meanwhile, and that attempt completes it.
        const claimed = await store.claimDue({
          nowMs: at + 3,
          limit: 1_000,
          leaseUntilMs: at + 60_000,
          leaseToken: 'w',
        });
        expect(claimed.map((c) => c.submission.id)).not.toContain(held.id);
        expect(
          await store.complete(held.id, clean.outbox!.leaseToken, { outcome: 'delivered', atMs: at + 4 }),
        ).toBe(true);
        expect((await store.list({ state: 'quarantine', limit: 1_000 })).map((r) => r.id)).not.toContain(
          held.id,
        );
        expect(
          await store.insert(
            newSubmission({ receivedAtMs: at + 5, fingerprint, idempotencyKey: key, requestHash: 'h' }),
            at - 600_000,
          ),
        ).toMatchObject({
          status: key ? 'replay' : 'duplicate',
          record: { id: held.id, delivery: { state: 'delivered' } },
        });
      }
    });

    it('erases personal fields after delivery and on request, keeping counts and states', async () => {
      const base = T0 + 200_000_000;
      await store.eraseDelivered(base, base); // what earlier tests delivered
      const leased = (token: string) => ({
        provider: 'crm' as const,
        leaseToken: token,
        leaseUntilMs: base + 1,
      });
      const old = await fresh({ receivedAtMs: base, outbox: leased('e1') });
      await store.complete(old.id, 'e1', { outcome: 'delivered', atMs: base + 10 });
      const recent = await fresh({ receivedAtMs: base + 1, outbox: leased('e2') });
      await store.complete(recent.id, 'e2', { outcome: 'delivered', atMs: base + 1_000 });
      const waiting = await fresh({ receivedAtMs: base + 2, outbox: leased('e3') });

      expect(await store.eraseDelivered(base + 500, base + 2_000)).toBe(1);
      expect(await store.eraseDelivered(base + 500, base + 2_001)).toBe(0);
      const erased = await store.get(old.id);
      expect(erased).toMatchObject({
        id: old.id,
        kind: 'lead',
        provider: 'crm',
        receivedAtMs: base,
        fields: {},
        clientIp: '',
        userAgent: null,
        erasedAtMs: base + 2_000,
        delivery: { state: 'delivered', deliveredAtMs: base + 10 },
      });
      expect(erased!.fingerprint).not.toBe(old.fingerprint);
      expect(erased!.requestHash).not.toBe(old.requestHash);
      expect((await store.get(recent.id))!.fields).toEqual(recent.fields);

      // A data-subject request finds every submission of the address, whatever its case or state.
      const shouted = await fresh({
        receivedAtMs: base + 3,
        fields: { name: 'Ana', email: recent.fields.email!.toUpperCase() },
        outbox: null,
      });
      expect((await store.list({ email: recent.fields.email!, limit: 10 })).map((r) => r.id).sort()).toEqual(
        [recent.id, shouted.id].sort(),
      );
      expect(await store.eraseByEmail(recent.fields.email!, base + 3_000)).toEqual(
        [recent.id, shouted.id].sort(),
      );
      expect((await store.get(shouted.id))!).toMatchObject({
        fields: {},
        erasedAtMs: base + 3_000,
        delivery: null,
      });
      expect((await store.get(recent.id))!.delivery).toMatchObject({ state: 'delivered' });
      // One not yet delivered is never sent empty: it is dead-lettered as erased.
      expect(await store.eraseByEmail(waiting.fields.email!, base + 4_000)).toEqual([waiting.id]);
      expect((await store.get(waiting.id))!.delivery).toMatchObject({ state: 'dead', lastError: 'erased' });
      expect(await store.eraseByEmail('nobody@example.com', base + 5_000)).toEqual([]);
      // An erased dead letter is never requeued: it would send an empty record.
      expect(await store.requeue([waiting.id], base + 6_000)).toEqual([
        { id: waiting.id, requeued: false, reason: 'erased' },
      ]);
      expect(await store.requeueAllDead(base + 6_000)).not.toContain(waiting.id);
      expect((await store.get(waiting.id))!.delivery).toMatchObject({ state: 'dead' });
    });

    it('erases on request every submission that holds the address, in any column, and only whole addresses', async () => {
      const at = T0 + 250_000_000;
      const address = `${randomUUID()}@erase.example`;
      const holders = [
        await fresh({ receivedAtMs: at, idempotencyKey: address.toUpperCase(), fields: { suggestion: 'x' } }),
        await fresh({ receivedAtMs: at, userAgent: `agent <${address}>` }),
        await fresh({ receivedAtMs: at, requestId: `req:${address}` }),
        await fresh({ receivedAtMs: at, fields: { message: `write to ${address}.` }, outbox: null }),
      ];
      const others = [
        await fresh({ receivedAtMs: at, idempotencyKey: `x${address}` }),
        await fresh({ receivedAtMs: at, fields: { message: `${address}s and ${address}.au` } }),
      ];
      expect(await store.eraseByEmail(address, at + 1)).toEqual(holders.map((r) => r.id).sort());
      for (const holder of holders)
        expect(await store.get(holder.id)).toMatchObject({
          fields: {},
          idempotencyKey: null,
          userAgent: null,
          requestId: '',
          erasedAtMs: at + 1,
        });
      for (const other of others) expect(await store.get(other.id)).toEqual(other);
    });

    it('answers a ping', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });

    it('keeps everything across a reopen', async () => {
      const record = await fresh();
      const reopened = await backing.open();
      try {
        expect(await reopened.get(record.id)).toEqual(record);
      } finally {
        await reopened.close();
      }
    });
  });
}
