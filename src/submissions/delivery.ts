import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Config } from '../config/index.js';
import { retryDelayMs } from './backoff.js';
import { describeError } from './errors.js';
import type { AttemptResult, DeliveryProvider } from './providers/index.js';
import type { ClaimedDelivery, DeliveryUpdate, SubmissionStore } from './store/index.js';
import type { DeliveringProvider } from './types.js';

export { errorClassOf } from './errors.js';

/** Rows leased per poll; a full batch makes the worker poll again at once. */
const BATCH_SIZE = 16;
/** Longest pause when the delivery cap is full (the cap's window may be long; rows stay due). */
const MAX_CAP_WAIT_MS = 5_000;

export interface DeliveryEngineOptions {
  config: Config['delivery'];
  store: SubmissionStore;
  providers: Map<DeliveringProvider, DeliveryProvider>;
  logger: Logger;
  now: () => number;
  random: () => number;
  metrics: DeliveryMetrics | null;
  /** The global delivery cap shared by every instance (src/limits); null when off. */
  gate: DeliveryGate | null;
}

/** What the engine reports to the server's metrics (src/metrics implements it). */
export interface DeliveryMetrics {
  observeDelivery(provider: string, outcome: 'delivered' | 'retry' | 'dead', seconds: number): void;
  /** `request`: an in-request attempt left to the worker; `worker`: a poll leased fewer rows than it could. */
  deliveryDeferred(where: 'request' | 'worker'): void;
}

/** The global cap on deliveries (src/limits implements it, in memory or in Redis). */
export interface DeliveryGate {
  /** Takes up to `wanted` delivery slots; `retryAfterMs` says when more open. */
  reserve(wanted: number): Promise<{ granted: number; retryAfterMs: number }>;
  /** Gives back slots reserved but not used. */
  release(units: number): Promise<void>;
}

/** The error class recorded on a row whose in-request attempt waited for the delivery cap. */
export const DELIVERY_CAP_ERROR_CLASS = 'delivery_cap_reached';

/**
 * Runs attempts and the background worker. Every attempt holds a lease on its outbox row, longer
 * than the attempt can last, so the in-request attempt and any worker (in this or another
 * instance) never send the same row at the same time. A lease left by a crashed process expires
 * and the row is picked up again.
 */
export class DeliveryEngine {
  readonly leaseMs: number;
  private readonly inFlight = new Set<Promise<boolean>>();
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private running = false;
  /** When the cap has no slot left, how long the worker waits before asking again. */
  private capWaitMs = 0;
  /** Whether the last poll failed: a database outage is logged when it starts and ends, not every poll. */
  private pollFailing = false;

  constructor(private readonly options: DeliveryEngineOptions) {
    this.leaseMs = 2 * options.config.attemptTimeoutMs + 1_000;
  }

  /** Starts an attempt and tracks it until its result is stored; resolves true when delivered. */
  attempt(claim: ClaimedDelivery): Promise<boolean> {
    const running = this.run(claim);
    this.inFlight.add(running);
    void running.finally(() => this.inFlight.delete(running));
    return running;
  }

  /**
   * The in-request attempt: under the global delivery cap it runs now; over it, the row is given
   * back to the queue, due when the cap has room again (deferred, never dropped).
   */
  async attemptFirst(claim: ClaimedDelivery): Promise<boolean> {
    const { gate, store, now, logger, metrics } = this.options;
    if (gate !== null) {
      const { granted, retryAfterMs } = await gate.reserve(1);
      if (granted === 0) {
        metrics?.deliveryDeferred('request');
        const atMs = now();
        const update: DeliveryUpdate = {
          outcome: 'retry',
          errorClass: DELIVERY_CAP_ERROR_CLASS,
          atMs,
          nextAttemptAtMs: atMs + retryAfterMs,
        };
        // If this fails the lease simply expires and the worker takes the row then.
        const kept = await store.complete(claim.submission.id, claim.leaseToken, update).catch(() => false);
        logger.info(
          { submissionId: claim.submission.id, kind: claim.submission.kind, retryInMs: retryAfterMs, kept },
          'delivery cap reached: delivery left to the worker',
        );
        return false;
      }
    }
    return this.attempt(claim);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  /** Leases and runs one batch of due rows; returns how many were attempted. */
  async pollOnce(): Promise<number> {
    const { store, now, gate, metrics } = this.options;
    // Slots are reserved before rows are leased, so a row is never leased (and its attempt
    // counted) only to wait for the cap; unused slots are given back.
    let limit = BATCH_SIZE;
    this.capWaitMs = 0;
    if (gate !== null) {
      const { granted, retryAfterMs } = await gate.reserve(BATCH_SIZE);
      limit = granted;
      if (granted < BATCH_SIZE) this.capWaitMs = retryAfterMs;
      if (granted === 0) {
        metrics?.deliveryDeferred('worker');
        return 0;
      }
    }
    const nowMs = now();
    let claims: ClaimedDelivery[];
    try {
      claims = await store.claimDue({
        nowMs,
        limit,
        leaseUntilMs: nowMs + this.leaseMs,
        leaseToken: randomUUID(),
      });
    } catch (error) {
      if (gate !== null) await gate.release(limit);
      throw error;
    }
    if (gate !== null && claims.length < limit) await gate.release(limit - claims.length);
    if (gate !== null && claims.length === limit && limit < BATCH_SIZE) metrics?.deliveryDeferred('worker');
    await Promise.all(claims.map((claim) => this.attempt(claim)));
    return claims.length;
  }

  /** Stops polling and waits for every attempt in flight to store its result. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.polling;
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private schedule(delayMs: number): void {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.polling = this.pollOnce().then(
        (count) => {
          if (this.pollFailing) {
            this.pollFailing = false;
            this.options.logger.info('delivery worker reads the outbox again');
          }
          this.schedule(
            count === BATCH_SIZE
              ? 0
              : Math.max(this.options.config.pollIntervalMs, Math.min(this.capWaitMs, MAX_CAP_WAIT_MS)),
          );
        },
        (error: unknown) => {
          if (!this.pollFailing) {
            this.pollFailing = true;
            this.options.logger.warn(
              describeError(error),
              'delivery worker cannot read the outbox; it keeps trying every poll interval',
            );
          }
          this.schedule(this.options.config.pollIntervalMs);
        },
      );
    }, delayMs);
  }

  private async run(claim: ClaimedDelivery): Promise<boolean> {
    const { store, providers, logger, now, random, config } = this.options;
    const { submission, attempt } = claim;
    const provider = providers.get(claim.provider);
    const startedMs = performance.now();
    let result: AttemptResult;
    if (!provider) {
      result = { outcome: 'retry', errorClass: 'provider_not_configured', retryAfterMs: null };
    } else {
      try {
        result = await provider.deliver(submission, attempt, AbortSignal.timeout(config.attemptTimeoutMs));
      } catch (error) {
        result = {
          outcome: 'retry',
          errorClass: `provider_${describeError(error).errorClass}`,
          retryAfterMs: null,
        };
      }
    }

    const atMs = now();
    let update: DeliveryUpdate;
    if (result.outcome === 'delivered') update = { outcome: 'delivered', atMs };
    else if (result.outcome === 'permanent' || attempt >= config.maxAttempts)
      update = { outcome: 'dead', errorClass: result.errorClass, atMs };
    else
      update = {
        outcome: 'retry',
        errorClass: result.errorClass,
        atMs,
        nextAttemptAtMs: atMs + retryDelayMs(config, attempt, result.retryAfterMs, random),
      };

    this.options.metrics?.observeDelivery(
      claim.provider,
      update.outcome,
      (performance.now() - startedMs) / 1000,
    );
    const context = { submissionId: submission.id, kind: submission.kind, provider: claim.provider, attempt };
    // One line per attempt, saying what is true in the store: a result that was not recorded leaves
    // the row pending, and it will be attempted again once its lease expires.
    let recorded: 'yes' | 'lease-lost' | 'failed' = 'failed';
    let storeError: ReturnType<typeof describeError> | null = null;
    try {
      recorded = (await store.complete(submission.id, claim.leaseToken, update)) ? 'yes' : 'lease-lost';
    } catch (error) {
      storeError = describeError(error);
    }
    if (recorded !== 'yes') {
      const sent = update.outcome === 'delivered';
      logger.warn(
        {
          ...context,
          outcome: update.outcome,
          ...(update.outcome === 'delivered' ? {} : { errorClass: update.errorClass }),
          ...(storeError
            ? { storeErrorClass: storeError.errorClass, storeError: storeError.errorMeaning }
            : {}),
        },
        recorded === 'lease-lost'
          ? `delivery lease lost: another attempt owns the row now; this ${sent ? 'delivery' : 'attempt'}'s result was not recorded${sent ? ' and the receiver may get the submission again' : ''}`
          : `delivery result could not be recorded: the row stays pending${sent ? ' and the receiver may get the submission again' : ''}`,
      );
      return false;
    }
    if (update.outcome === 'delivered') logger.info(context, 'submission delivered');
    else if (update.outcome === 'dead')
      logger.error(
        { ...context, errorClass: update.errorClass, permanent: result.outcome === 'permanent' },
        'submission dead-lettered',
      );
    else
      logger.warn(
        {
          ...context,
          errorClass: update.errorClass,
          nextAttemptAt: new Date(update.nextAttemptAtMs).toISOString(),
        },
        'delivery attempt failed; will retry',
      );
    return update.outcome === 'delivered';
  }
}
