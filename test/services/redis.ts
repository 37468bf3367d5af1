import { Redis } from 'ioredis';

/** The Redis the services suite uses. */
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Fails (never skips) with a message naming the missing service and how to start it. */
export async function requireRedis(): Promise<void> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 3_000, maxRetriesPerRequest: 0 });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw new Error(
      `Redis not reachable at ${REDIS_URL} (${(error as Error).message}) — start it with ` +
        '`sudo service redis-server start` (or `redis-server --daemonize yes`), or set TEST_REDIS_URL.',
    );
  } finally {
    redis.disconnect();
  }
}
