import { randomUUID } from 'node:crypto';
import type { NewSubmission } from '../../src/submissions/store/index.js';

/** When `newSubmission` says a submission was received (a fixed instant, so stored times are exact). */
export const T0 = Date.UTC(2026, 2, 1, 8, 0, 0);

/**
 * A submission as the service hands it to a store: a lead for the CRM with its outbox row leased to
 * the in-request attempt; unique id, e-mail, fingerprint and request hash; fields with quotes, a
 * line break and non-ASCII text.
 */
export function newSubmission(overrides: Partial<NewSubmission> = {}): NewSubmission {
  const id = randomUUID();
  return {
    id,
    kind: 'lead',
    receivedAtMs: T0,
    provider: 'crm',
    fields: { name: 'Zoë “Quote” O’Neil', email: `${id}@example.com`, message: 'line one\nline two ✓' },
    requestId: randomUUID(),
    clientIp: '203.0.113.7',
    userAgent: 'test-agent',
    idempotencyKey: null,
    fingerprint: `fp-${id}`,
    requestHash: `hash-${id}`,
    quarantineReason: null,
    form: null,
    outbox: { provider: 'crm', leaseToken: `inline-${id}`, leaseUntilMs: T0 + 1_000 },
    ...overrides,
  };
}

/** A clock the test moves forward by hand, starting at the real time (so leases and signatures stay sane). */
export interface SteppedClock {
  now(): number;
  advance(ms: number): void;
}

export function steppedClock(): SteppedClock {
  let offsetMs = 0;
  return {
    now: () => Date.now() + offsetMs,
    advance: (ms) => {
      offsetMs += ms;
    },
  };
}
