import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import type * as IoRedis from 'ioredis';

/** The result of taking `cost` units from a fixed window that starts with its first use. */
export interface Taken {
  /** Units granted (0 … cost); fewer than asked means the window's quota is used up. */
  granted: number;
  /** Units used in the window after this call. */
  used: number;
  /** When the window ends (epoch ms). */
  resetAtMs: number;
}

/**
 * Where counts live: this process (MemoryCounterStore) or Redis, shared by every instance. A window
 * opens with the first unit taken and lasts `windowMs`; refused requests do not consume units, so a
 * client hammering the server is let in again when its window ends.
 */
export interface CounterStore {
  take(key: string, cost: number, quota: number, windowMs: number): Promise<Taken>;
  /** Gives back units taken but not used (a batch leased fewer deliveries than it reserved). */
  refund(key: string, units: number): Promise<void>;
  close(): Promise<void>;
}

export class MemoryCounterStore implements CounterStore {
  readonly #windows = new Map<string, { used: number; resetAtMs: number }>();
  readonly #sweeper: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {
    // Ended windows are dropped once a minute so that one-off clients do not accumulate.
    this.#sweeper = setInterval(() => this.sweep(), 60_000);
    this.#sweeper.unref();
  }

  /** Synchronous take, for the /ask fast path. */
  takeNow(key: string, cost: number, quota: number, windowMs: number): Taken {
    const nowMs = this.now();
    let window = this.#windows.get(key);
    if (window === undefined || window.resetAtMs <= nowMs) {
      window = { used: 0, resetAtMs: nowMs + windowMs };
      this.#windows.set(key, window);
    }
    const granted = Math.min(cost, Math.max(0, quota - window.used));
    window.used += granted;
    return { granted, used: window.used, resetAtMs: window.resetAtMs };
  }

  take(key: string, cost: number, quota: number, windowMs: number): Promise<Taken> {
    return Promise.resolve(this.takeNow(key, cost, quota, windowMs));
  }

  refund(key: string, units: number): Promise<void> {
    const window = this.#windows.get(key);
    if (window && window.resetAtMs > this.now()) window.used = Math.max(0, window.used - units);
    return Promise.resolve();
  }

  sweep(): void {
    const nowMs = this.now();
    for (const [key, window] of this.#windows) if (window.resetAtMs <= nowMs) this.#windows.delete(key);
  }

  get size(): number {
    return this.#windows.size;
  }

  close(): Promise<void> {
    clearInterval(this.#sweeper);
    this.#windows.clear();
    return Promise.resolve();
  }
}

// One round trip, atomic on the Redis server: grant what the quota allows, start the window's
// expiry with its first unit, and report the time left.
const TAKE_SCRIPT = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local cost = tonumber(ARGV[1])
local quota = tonumber(ARGV[2])
local granted = math.min(cost, math.max(0, quota - used))
if granted > 0 then used = redis.call('INCRBY', KEYS[1], granted) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  if used > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
  ttl = tonumber(ARGV[3])
end
return {granted, used, ttl}
`;

// Only a window that still exists is refunded (DECRBY on a missing key would create one without expiry).
const REFUND_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('DECRBY', KEYS[1], ARGV[1]) end
return 0
`;

type ScriptedRedis = Redis & {
  frontdoorTake(
    key: string,
    cost: number,
    quota: number,
    windowMs: number,
  ): Promise<[number, number, number]>;
  frontdoorRefund(key: string, units: number): Promise<number>;
};

export interface RedisCounterStoreOptions {
  url: string;
  /** Prefix of every key, so the counters can share a Redis with other software. */
  keyPrefix: string;
  /** Longest wait for one command before the check fails open. */
  commandTimeoutMs: number;
  onConnectionError(error: Error): void;
}

/**
 * Counters in Redis, shared by every instance. While the connection is down a command fails within
 * the command timeout (and the caller lets the request through); the client reconnects by itself
 * in the background.
 */
export class RedisCounterStore implements CounterStore {
  readonly #redis: ScriptedRedis;
  readonly #prefix: string;

  constructor(options: RedisCounterStoreOptions) {
    this.#prefix = options.keyPrefix;
    // Required here, not imported at start-up: ioredis is ~25 MB and ~0.2 s to load, and only a
    // server with REDIS_URL uses it (a synchronous require keeps this a constructor).
    const { Redis: RedisClient } = createRequire(import.meta.url)('ioredis') as typeof IoRedis;
    const redis = new RedisClient(options.url, {
      // A command sent while (re)connecting waits at most commandTimeoutMs; each failed
      // reconnection attempt fails the waiting commands at once (maxRetriesPerRequest 0).
      enableOfflineQueue: true,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs,
      connectTimeout: 2_000,
      // Reconnect forever, at most every 2 s: Redis coming back restores shared limits by itself.
      retryStrategy: (times) => Math.min(times * 200, 2_000),
    });
    redis.on('error', options.onConnectionError);
    redis.defineCommand('frontdoorTake', { numberOfKeys: 1, lua: TAKE_SCRIPT });
    redis.defineCommand('frontdoorRefund', { numberOfKeys: 1, lua: REFUND_SCRIPT });
    this.#redis = redis as ScriptedRedis;
  }

  async take(key: string, cost: number, quota: number, windowMs: number): Promise<Taken> {
    const [granted, used, ttlMs] = await this.#redis.frontdoorTake(this.#prefix + key, cost, quota, windowMs);
    return { granted: Number(granted), used: Number(used), resetAtMs: Date.now() + Number(ttlMs) };
  }

  async refund(key: string, units: number): Promise<void> {
    await this.#redis.frontdoorRefund(this.#prefix + key, units);
  }

  async close(): Promise<void> {
    await this.#redis.quit().catch(() => this.#redis.disconnect());
  }
}
