import { createRequire } from 'node:module';
import type * as PromClient from 'prom-client';
import type { AskCounts } from '../nlweb/index.js';
import type { Metrics, OutboxSnapshot } from './index.js';

/** The instruments, kept with prom-client (loaded only when an admin listener will serve them). */
/** Seconds; /ask answers in well under a millisecond from the cache, submissions take longer. */
const REQUEST_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const DELIVERY_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export function createPrometheusMetrics(): Metrics {
  // Required when called, not imported: the built server is one bundle, where an import of
  // prom-client would load it at start-up even when no admin listener asks for metrics.
  const { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } = createRequire(import.meta.url)(
    'prom-client',
  ) as typeof PromClient;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'frontdoor_' });

  const requests = new Histogram({
    name: 'frontdoor_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status, with their duration (the _count series counts requests).',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: REQUEST_BUCKETS,
    registers: [registry],
  });
  const deliveries = new Histogram({
    name: 'frontdoor_delivery_attempt_duration_seconds',
    help: 'Delivery attempts by provider and outcome (delivered, retry, dead), with their duration.',
    labelNames: ['provider', 'outcome'] as const,
    buckets: DELIVERY_BUCKETS,
    registers: [registry],
  });
  const deliveriesTotal = new Counter({
    name: 'frontdoor_deliveries_total',
    help: 'Delivery attempts by provider and outcome (delivered, retry, dead).',
    labelNames: ['provider', 'outcome'] as const,
    registers: [registry],
  });
  const deadLetters = new Counter({
    name: 'frontdoor_dead_letters_total',
    help: 'Submissions this instance dead-lettered (retries exhausted or refused for good), by provider.',
    labelNames: ['provider'] as const,
    registers: [registry],
  });
  const deferred = new Counter({
    name: 'frontdoor_deliveries_deferred_total',
    help: 'Waits for the global delivery cap (RATE_LIMIT_DELIVERIES): where="request" counts in-request attempts left to the worker, where="worker" polls that leased fewer rows because of the cap. Nothing is dropped.',
    labelNames: ['where'] as const,
    registers: [registry],
  });
  const refusals = new Counter({
    name: 'frontdoor_rate_limit_refusals_total',
    help: 'Requests answered 429 Too Many Requests, by limit (leads, suggestions, ask).',
    labelNames: ['limit'] as const,
    registers: [registry],
  });
  const limitStoreFailures = new Counter({
    name: 'frontdoor_rate_limit_store_failures_total',
    help: 'Limit checks that could not reach the shared store (Redis) and let the request through.',
    registers: [registry],
  });

  let readOutbox: (() => Promise<OutboxSnapshot>) | null = null;
  let outboxScrape: Promise<OutboxSnapshot | null> | null = null;
  // The three outbox gauges are read in one store query per scrape.
  const outbox = (): Promise<OutboxSnapshot | null> => {
    if (readOutbox === null) return Promise.resolve(null);
    outboxScrape ??= readOutbox()
      .catch(() => null)
      .finally(() => {
        outboxScrape = null;
      });
    return outboxScrape;
  };
  const outboxGauge = (name: string, help: string, pick: (snapshot: OutboxSnapshot) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        const snapshot = await outbox();
        if (snapshot) this.set(pick(snapshot));
      },
    });
  outboxGauge(
    'frontdoor_outbox_pending',
    'Submissions waiting for delivery (all instances; read from the store at scrape time).',
    (s) => s.pending,
  );
  outboxGauge(
    'frontdoor_outbox_oldest_pending_age_seconds',
    'Age of the oldest submission waiting for delivery, in seconds (0 when none waits).',
    (s) => s.oldestPendingAgeSeconds,
  );
  outboxGauge(
    'frontdoor_outbox_dead',
    'Dead-lettered submissions in the store, waiting for an operator (submissions requeue).',
    (s) => s.dead,
  );

  let readAsk: (() => AskCounts) | null = null;
  const askGauge = (name: string, help: string, pick: (counts: AskCounts) => number) =>
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        if (readAsk === null) return;
        // The service keeps the running total; a counter is reset and raised to it.
        this.reset();
        this.inc(pick(readAsk()));
      },
    });
  askGauge('frontdoor_ask_answers_total', '/ask answers given (JSON, streamed and HEAD).', (c) => c.answers);
  askGauge(
    'frontdoor_ask_zero_results_total',
    '/ask answers that listed no result (no match, or a question without searchable words).',
    (c) => c.zeroResults,
  );
  askGauge(
    'frontdoor_ask_cache_hits_total',
    '/ask answers served from the answer cache.',
    (c) => c.cacheHits,
  );

  return {
    contentType: registry.contentType,
    observeRequest(method, route, status, seconds) {
      requests.observe({ method, route, status }, seconds);
    },
    requestObserver(method, route, status) {
      const child = requests.labels({ method, route, status });
      return (seconds) => child.observe(seconds);
    },
    observeDelivery(provider, outcome, seconds) {
      deliveries.observe({ provider, outcome }, seconds);
      deliveriesTotal.inc({ provider, outcome });
      if (outcome === 'dead') deadLetters.inc({ provider });
    },
    deliveryDeferred: (where) => deferred.inc({ where }),
    rateLimitRefused: (limit) => refusals.inc({ limit }),
    rateLimitStoreFailed: () => limitStoreFailures.inc(),
    watchOutbox(read) {
      readOutbox = read;
    },
    watchAsk(read) {
      readAsk = read;
    },
    render: () => registry.metrics(),
  };
}
