import type { Logger } from 'pino';
import type { Config, RateLimitPolicy } from '../config/index.js';
import type { DeliveryGate } from '../submissions/index.js';
import { MemoryCounterStore, RedisCounterStore, type CounterStore } from './stores.js';
import { clientKey } from '../http-primitives/index.js';

export { MemoryCounterStore, RedisCounterStore, type CounterStore, type Taken } from './stores.js';

/** The per-client limits; each is named in its headers and in the refusal metric. */
export type ClientLimitName = 'leads' | 'suggestions' | 'ask';

/** A limit's verdict with the header fields that describe it (IETF RateLimit draft, Retry-After). */
export interface LimitDecision {
  allowed: boolean;
  limit: ClientLimitName;
  policy: RateLimitPolicy;
  /** Whole seconds until the window ends (at least 1). */
  resetSeconds: number;
  /** `RateLimit-Policy` and `RateLimit`, and `Retry-After` when refused. */
  headers: Record<string, string>;
}

export interface RateLimits {
  /** Whether counts are shared through Redis (REDIS_URL) or kept in this process. */
  readonly shared: boolean;
  /** The write operations' exact check; null when the limit is off. Fails open when Redis fails. */
  check(limit: 'leads' | 'suggestions', clientIp: string): Promise<LimitDecision | null>;
  /**
   * /ask's check: null to let the request through, else the refusal. Synchronous (the fast path
   * answers at once) except with Redis for a request that arrives while this client's last one is
   * still being charged: it then waits for that charge (see createAskCounter).
   */
  refuseAsk(clientIp: string): AskVerdict;
  /** Whether /ask has a limit (the fast path skips finding the client address when not). */
  readonly limitsAsk: boolean;
  /** The global delivery cap; null when it is off. */
  readonly deliveries: DeliveryGate | null;
  close(): Promise<void>;
}

/** /ask's verdict: now, or once the client's charge in flight is answered. */
export type AskVerdict = LimitDecision | null | Promise<LimitDecision | null>;

export interface RateLimitEvents {
  rateLimitRefused(limit: string): void;
  rateLimitStoreFailed(): void;
}

/** A Redis command slower than this lets the request through (limits fail open). */
export const REDIS_COMMAND_TIMEOUT_MS = 250;
const REDIS_KEY_PREFIX = 'frontdoor:limit:';
/** Client addresses whose /ask counter key is kept. */
const ASK_KEYS_KEPT = 10_000;
/** At most one "Redis unreachable" warning per this interval; the metric counts every failure. */
const FAILURE_LOG_INTERVAL_MS = 30_000;

export function policyHeader(limit: string, policy: RateLimitPolicy): string {
  return `"${limit}";q=${policy.quota};w=${policy.windowSeconds}`;
}

function decision(
  limit: ClientLimitName,
  policy: RateLimitPolicy,
  allowed: boolean,
  used: number,
  resetAtMs: number,
  nowMs: number,
): LimitDecision {
  const resetSeconds = Math.max(1, Math.ceil((resetAtMs - nowMs) / 1000));
  const headers: Record<string, string> = {
    'ratelimit-policy': policyHeader(limit, policy),
    ratelimit: `"${limit}";r=${Math.max(0, policy.quota - used)};t=${resetSeconds}`,
  };
  if (!allowed) headers['retry-after'] = String(resetSeconds);
  return { allowed, limit, policy, resetSeconds, headers };
}

export interface CreateRateLimitsOptions {
  events: RateLimitEvents;
  /** A store to use instead of the configured one (tests). */
  store?: CounterStore;
  now?: () => number;
  /** Prefix of the Redis keys (default `frontdoor:limit:`); tests use their own. */
  redisKeyPrefix?: string;
}

/**
 * Builds the limits the configuration asks for. Decision on failure: when Redis cannot be reached
 * or answers too slowly, requests and deliveries are let through (fail open), a warning is logged
 * at most every 30 s and `frontdoor_rate_limit_store_failures_total` counts each case: an outage of
 * the limit store must not take the site's forms down with it.
 */
export function createRateLimits(
  config: Config['rateLimits'],
  logger: Logger,
  options: CreateRateLimitsOptions,
): RateLimits {
  const now = options.now ?? Date.now;
  const { events } = options;
  let lastFailureLogMs = -Infinity;
  let lastConnectionLogMs = -Infinity;
  const failed = (error: unknown) => {
    events.rateLimitStoreFailed();
    const nowMs = now();
    if (nowMs - lastFailureLogMs < FAILURE_LOG_INTERVAL_MS) return;
    lastFailureLogMs = nowMs;
    logger.warn(
      { err: error },
      'rate-limit store (Redis) unreachable: limits are not enforced until it answers again (failing open)',
    );
  };

  const memory = new MemoryCounterStore(now);
  const store: CounterStore =
    options.store ??
    (config.redisUrl === null
      ? memory
      : new RedisCounterStore({
          url: config.redisUrl,
          keyPrefix: options.redisKeyPrefix ?? REDIS_KEY_PREFIX,
          commandTimeoutMs: REDIS_COMMAND_TIMEOUT_MS,
          // Connection errors repeat while Redis is down; they are reported like failed checks.
          onConnectionError: (error) => {
            const nowMs = now();
            if (nowMs - lastConnectionLogMs < FAILURE_LOG_INTERVAL_MS) return;
            lastConnectionLogMs = nowMs;
            logger.warn({ err: error }, 'rate-limit store (Redis) connection failed; retrying');
          },
        }));
  const shared = store !== memory;

  const check = async (limit: 'leads' | 'suggestions', clientIp: string): Promise<LimitDecision | null> => {
    const policy = config[limit];
    if (policy === null) return null;
    try {
      const taken = await store.take(
        `${limit}:${clientKey(clientIp)}`,
        1,
        policy.quota,
        policy.windowSeconds * 1000,
      );
      const result = decision(limit, policy, taken.granted === 1, taken.used, taken.resetAtMs, now());
      if (!result.allowed) events.rateLimitRefused(limit);
      return result;
    } catch (error) {
      failed(error);
      return null;
    }
  };

  const ask =
    config.ask === null ? null : createAskCounter(config.ask, shared ? store : null, memory, now, failed);
  // The client's key by address: /ask checks every request, and a client asks again and again
  // (clientKey's address parsing cost more than the count). Emptied when full, like the other memos.
  const askKeys = new Map<string, string>();
  const askKeyOf = (clientIp: string): string => {
    let key = askKeys.get(clientIp);
    if (key === undefined) {
      if (askKeys.size >= ASK_KEYS_KEPT) askKeys.clear();
      askKeys.set(clientIp, (key = `ask:${clientKey(clientIp)}`));
    }
    return key;
  };
  const counted = (refusal: LimitDecision | null) => {
    if (refusal !== null) events.rateLimitRefused('ask');
    return refusal;
  };
  const refuseAsk = (clientIp: string): AskVerdict => {
    if (ask === null) return null;
    const verdict = ask(askKeyOf(clientIp));
    return verdict instanceof Promise ? verdict.then(counted) : counted(verdict);
  };

  const deliveryPolicy = config.deliveries;
  const deliveries: DeliveryGate | null =
    deliveryPolicy === null
      ? null
      : {
          async reserve(wanted) {
            try {
              const taken = await store.take(
                'deliveries:global',
                wanted,
                deliveryPolicy.quota,
                deliveryPolicy.windowSeconds * 1000,
              );
              return { granted: taken.granted, retryAfterMs: Math.max(0, taken.resetAtMs - now()) };
            } catch (error) {
              failed(error);
              return { granted: wanted, retryAfterMs: 0 };
            }
          },
          async release(units) {
            if (units <= 0) return;
            await store.refund('deliveries:global', units).catch(failed);
          },
        };

  return {
    shared,
    check,
    refuseAsk,
    limitsAsk: ask !== null,
    deliveries,
    close: async () => {
      await memory.close();
      if (store !== memory) await store.close();
    },
  };
}

/**
 * /ask's per-client counter. In memory it is exact. With Redis, a client's request is granted at
 * once and charged to the shared count (one atomic script call) without waiting; a request that
 * arrives while that charge is on its way waits for it, then is decided the same way. Once the
 * shared count has no room, the instance refuses until the window ends. So the shared quota holds
 * within one request per instance (the one granted while its charge found the quota used up),
 * however many requests arrive at once: counted locally and sent every 100 ms, as before, a burst
 * of 100 to each of two instances got 2 × 30 of a quota of 30. A client's sequential requests
 * never wait; its parallel ones wait a Redis round trip each.
 */
function createAskCounter(
  policy: RateLimitPolicy,
  redis: CounterStore | null,
  memory: MemoryCounterStore,
  now: () => number,
  failed: (error: unknown) => void,
): (key: string) => AskVerdict {
  // `key` is the client's counter key, `ask:` and its clientKey.
  const windowMs = policy.windowSeconds * 1000;
  if (redis === null) {
    return (key) => {
      const taken = memory.takeNow(key, 1, policy.quota, windowMs);
      if (taken.granted === 1) return null;
      return decision('ask', policy, false, taken.used, taken.resetAtMs, now());
    };
  }

  const windows = new Map<string, AskWindow>();
  const refused = (window: AskWindow) =>
    decision('ask', policy, false, policy.quota, window.resetAtMs, now());
  const settle = (window: AskWindow) => {
    window.charging = false;
    for (const waiter of window.waiting.splice(0)) waiter(decide(window));
  };
  const charge = (key: string, window: AskWindow) => {
    window.charging = true;
    redis.take(key, 1, policy.quota, windowMs).then(
      (taken) => {
        window.resetAtMs = taken.resetAtMs;
        if (taken.granted < 1) window.exhausted = true;
        settle(window);
      },
      (error: unknown) => {
        failed(error);
        // Failing open: this instance counts the client on its own for the rest of the window.
        window.local = true;
        settle(window);
      },
    );
  };
  const decide = (window: AskWindow): AskVerdict => {
    if (window.local) return window.granted++ < policy.quota ? null : refused(window);
    if (window.exhausted) return refused(window);
    if (window.charging) {
      // At most a quota's worth wait: more are refused at once (no queue grows without bound).
      if (window.waiting.length >= policy.quota) return refused(window);
      return new Promise((resolve) => window.waiting.push(resolve));
    }
    window.granted++;
    charge(window.key, window);
    return null;
  };
  return (key) => {
    const nowMs = now();
    let window = windows.get(key);
    if (window === undefined || window.resetAtMs <= nowMs) {
      if (windows.size >= ASK_KEYS_KEPT)
        for (const [other, old] of windows)
          if (old.resetAtMs <= nowMs && !old.charging) windows.delete(other);
      window = {
        key,
        charging: false,
        waiting: [],
        exhausted: false,
        local: false,
        granted: 0,
        resetAtMs: nowMs + windowMs,
      };
      windows.set(key, window);
    }
    return decide(window);
  };
}

/** One client's /ask window on this instance, with Redis. */
interface AskWindow {
  key: string;
  /** A request's charge is on its way to Redis. */
  charging: boolean;
  /** Requests waiting for that charge's answer, to be decided then. */
  waiting: ((verdict: AskVerdict) => void)[];
  /** The shared count had no room left in this window: refuse until it ends. */
  exhausted: boolean;
  /** Redis failed: this instance counts on its own until the window ends (failing open). */
  local: boolean;
  /** Requests this instance granted in the window. */
  granted: number;
  resetAtMs: number;
}
