import type { AdminRoutes } from '../admin/index.js';
import type { AskCounts } from '../nlweb/index.js';

/** Outbox figures read from the store at scrape time (never cached: another instance may have moved them). */
export interface OutboxSnapshot {
  pending: number;
  /** Age of the oldest pending row in seconds; 0 when nothing is pending. */
  oldestPendingAgeSeconds: number;
  dead: number;
}

export type DeliveryOutcome = 'delivered' | 'retry' | 'dead';

/**
 * The server's Prometheus instruments, in a registry of their own (two apps in one process, as in
 * tests, never share counters). Hot paths call the small methods below; gauges that describe state
 * held elsewhere (the outbox, the ask service's counts) are read when Prometheus scrapes.
 */
export interface Metrics {
  /** The media type of `render()`'s text. */
  readonly contentType: string;
  /** One finished HTTP request; `route` is the route pattern (never the raw URL, to bound the labels). */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  /** `observeRequest` with its labels bound once, for a hot path that always has the same ones. */
  requestObserver(method: string, route: string, status: number): (seconds: number) => void;
  /** One finished delivery attempt. */
  observeDelivery(provider: string, outcome: DeliveryOutcome, seconds: number): void;
  /** A delivery postponed by the global delivery cap (see DeliveryMetrics). */
  deliveryDeferred(where: 'request' | 'worker'): void;
  /** A request answered 429 by the named limit. */
  rateLimitRefused(limit: string): void;
  /** The shared limit store (Redis) failed and the request was let through. */
  rateLimitStoreFailed(): void;
  /** Where scrapes read the outbox from (the submission store). */
  watchOutbox(read: () => Promise<OutboxSnapshot>): void;
  /** Where scrapes read the /ask counts from (the ask service's running totals). */
  watchAsk(read: () => AskCounts): void;
  /** The Prometheus text exposition. */
  render(): Promise<string>;
}

/**
 * The server's metrics: Prometheus instruments (prom-client, loaded now) when an admin listener
 * will serve them (METRICS_PORT), else `DISABLED_METRICS`, which keeps nothing: with no listener
 * nothing could read them, and each request would still pay a histogram update.
 */
export async function createMetrics(enabled = true): Promise<Metrics> {
  if (!enabled) return DISABLED_METRICS;
  const { createPrometheusMetrics } = await import('./prometheus.js');
  return createPrometheusMetrics();
}

const ignore = (): void => undefined;

/** Metrics that keep nothing (no admin listener to serve them). */
export const DISABLED_METRICS: Metrics = Object.freeze({
  contentType: 'text/plain; version=0.0.4; charset=utf-8',
  observeRequest: ignore,
  requestObserver: () => ignore,
  observeDelivery: ignore,
  deliveryDeferred: ignore,
  rateLimitRefused: ignore,
  rateLimitStoreFailed: ignore,
  watchOutbox: ignore,
  watchAsk: ignore,
  render: () => Promise.resolve(''),
});

/** GET /metrics on the admin listener, in the Prometheus text format. */
export function metricsRoutes(metrics: Metrics): AdminRoutes {
  return async (app) => {
    app.get('/metrics', async (_request, reply) => {
      reply.header('content-type', metrics.contentType).header('cache-control', 'no-store');
      return metrics.render();
    });
  };
}
