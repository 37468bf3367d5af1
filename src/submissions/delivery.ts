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

export interface DeliveryEngineOptions {
  config: Config['delivery'];
  store: SubmissionStore;
  providers: Map<DeliveringProvider, DeliveryProvider>;
  logger: Logger;
  now: () => number;
  random: () => number;
}

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

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  /** Leases and runs one batch of due rows; returns how many were attempted. */
  async pollOnce(): Promise<number> {
    const { store, now } = this.options;
    const nowMs = now();
    const claims = await store.claimDue({
      nowMs,
      limit: BATCH_SIZE,
      leaseUntilMs: nowMs + this.leaseMs,
      leaseToken: randomUUID(),
    });
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
          this.schedule(count === BATCH_SIZE ? 0 : this.options.config.pollIntervalMs);
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
