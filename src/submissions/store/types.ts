import type { DeliveringProvider, ListedState, SubmissionKind, SubmissionRecord } from '../types.js';

/** What is stored for a new submission: the record's own columns, and its outbox row if any. */
export interface NewSubmission extends Pick<
  SubmissionRecord,
  | 'id'
  | 'kind'
  | 'receivedAtMs'
  | 'provider'
  | 'fields'
  | 'requestId'
  | 'clientIp'
  | 'userAgent'
  | 'idempotencyKey'
  | 'fingerprint'
  | 'requestHash'
  | 'quarantineReason'
  | 'form'
> {
  /**
   * The outbox row, written in the same transaction. It is created already leased to the
   * in-request attempt (attempt 1), so no worker picks it up while that attempt runs; with a
   * quarantine reason it is created in state `quarantine`, unleased, and nothing delivers it.
   */
  outbox: { provider: DeliveringProvider; leaseToken: string; leaseUntilMs: number } | null;
}

export type InsertOutcome =
  | { status: 'created'; record: SubmissionRecord }
  /** The same content arrived within the duplicate window: the original submission. */
  | { status: 'duplicate'; record: SubmissionRecord }
  /** The Idempotency-Key was used before with the same body: the original submission. */
  | { status: 'replay'; record: SubmissionRecord }
  /**
   * A submission without a tripped trap matched a quarantined one (same content within the window,
   * or its Idempotency-Key with the same body): the quarantined submission was moved to the queue
   * and is leased to this request's first attempt (`outbox.leaseToken`), as a created one is. A
   * bot's or a third party's trapped post never holds back the real sender's.
   */
  | { status: 'released'; record: SubmissionRecord }
  /** The Idempotency-Key was used before with another body. Nothing was stored. */
  | { status: 'key-conflict' };

/** One outbox row leased to one attempt. */
export interface ClaimedDelivery {
  submission: SubmissionRecord;
  provider: DeliveringProvider;
  /** 1 for the first attempt. */
  attempt: number;
  leaseToken: string;
}

export type DeliveryUpdate =
  | { outcome: 'delivered'; atMs: number }
  | { outcome: 'retry'; nextAttemptAtMs: number; errorClass: string; atMs: number }
  | { outcome: 'dead'; errorClass: string; atMs: number };

export interface ListFilter {
  state?: ListedState;
  kind?: SubmissionKind;
  /** Only submissions whose `email` field equals this address (case-insensitive). */
  email?: string;
  /** Newest first; at most this many. */
  limit: number;
}

export type ReleaseResult = {
  id: string;
  released: boolean;
  reason?: 'unknown' | 'not-quarantined';
};

export type RequeueResult = {
  id: string;
  requeued: boolean;
  /** `erased`: its personal fields were erased; there is nothing left to send. */
  reason?: 'unknown' | 'delivered' | 'no-delivery' | 'quarantined' | 'erased';
};

/** The outbox as the metrics show it: every instance's rows. */
export interface OutboxStats {
  pending: number;
  dead: number;
  /** When the oldest pending submission was received; null when nothing is pending. */
  oldestPendingReceivedAtMs: number | null;
}

/**
 * The durable half of the submissions room. SQLite and PostgreSQL implement it with the same
 * meaning; the contract tests in test/submissions/store-contract.ts run against both.
 */
export interface SubmissionStore {
  readonly kind: 'sqlite' | 'postgres';
  /**
   * In one transaction: refuses or matches a reused Idempotency-Key, matches identical content
   * received at or after `duplicateSinceMs`, otherwise stores the submission and its outbox row.
   * A match in quarantine is released when the new submission tripped no trap (`released`).
   */
  insert(submission: NewSubmission, duplicateSinceMs: number): Promise<InsertOutcome>;
  /**
   * Leases up to `limit` pending rows that are due and not leased, counting one more attempt on
   * each. Two callers never receive the same row while its lease runs.
   */
  claimDue(options: {
    nowMs: number;
    limit: number;
    leaseUntilMs: number;
    leaseToken: string;
  }): Promise<ClaimedDelivery[]>;
  /** Records the end of an attempt; false when the lease was lost (nothing is changed then). */
  complete(id: string, leaseToken: string, update: DeliveryUpdate): Promise<boolean>;
  get(id: string): Promise<SubmissionRecord | null>;
  list(filter: ListFilter): Promise<SubmissionRecord[]>;
  /** Puts dead (or still pending) rows back in the queue, due now, with a fresh attempt budget. */
  requeue(ids: string[], nowMs: number): Promise<RequeueResult[]>;
  requeueAllDead(nowMs: number): Promise<string[]>;
  /** Moves quarantined submissions to the queue, due now; others are reported, not changed. */
  release(ids: string[], nowMs: number): Promise<ReleaseResult[]>;
  /**
   * Erases the personal fields (submitted fields, client address, user agent and the hashes of the
   * body) of submissions delivered before `deliveredBeforeMs`; kind, times, provider and delivery
   * state are kept. Returns how many were erased.
   */
  eraseDelivered(deliveredBeforeMs: number, nowMs: number): Promise<number>;
  /**
   * A data-subject request: erases the personal fields of every submission that holds this
   * address (case-insensitive, the whole address) in any stored value: its e-mail, another field,
   * its Idempotency-Key, user agent or request id (see erasure.ts); whatever its state; one not yet delivered is dead-lettered with `erased`,
   * so an empty record is never sent. Returns the ids erased.
   */
  eraseByEmail(email: string, nowMs: number): Promise<string[]>;
  /** Resolves when the database answers a trivial query; rejects with its error otherwise. */
  ping(): Promise<void>;
  /** Pending and dead counts and the oldest pending submission (read by the metrics at scrape time). */
  outboxStats(): Promise<OutboxStats>;
  close(): Promise<void>;
}
