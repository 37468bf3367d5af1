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
> {
  /**
   * The outbox row, written in the same transaction. It is created already leased to the
   * in-request attempt (attempt 1), so no worker picks it up while that attempt runs.
   */
  outbox: { provider: DeliveringProvider; leaseToken: string; leaseUntilMs: number } | null;
}

export type InsertOutcome =
  | { status: 'created'; record: SubmissionRecord }
  /** The same content arrived within the duplicate window: the original submission. */
  | { status: 'duplicate'; record: SubmissionRecord }
  /** The Idempotency-Key was used before with the same body: the original submission. */
  | { status: 'replay'; record: SubmissionRecord }
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
  /** Newest first; at most this many. */
  limit: number;
}

export type RequeueResult = {
  id: string;
  requeued: boolean;
  reason?: 'unknown' | 'delivered' | 'no-delivery';
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
  /** Pending and dead counts and the oldest pending submission (read by the metrics at scrape time). */
  outboxStats(): Promise<OutboxStats>;
  close(): Promise<void>;
}
