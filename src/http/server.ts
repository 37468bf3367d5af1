import type { FastifyInstance } from 'fastify';
import pino, { type Logger } from 'pino';
import { createAdminServer, type AdminRoutes, type AdminServer } from '../admin/index.js';
import type { Config } from '../config/index.js';
import { loadSite, type Site } from '../content/index.js';
import { createInsightRecorder, insightReportRoutes, openInsightStoreLazily } from '../insight/index.js';
import { createRateLimits } from '../limits/index.js';
import { createMetrics, metricsRoutes } from '../metrics/index.js';
import { createAskService } from '../nlweb/index.js';
import { createSubmissionService, type SubmissionServiceOptions } from '../submissions/index.js';
import { buildApp, type AppContext } from './app.js';

export interface RunningServer {
  app: FastifyInstance;
  context: AppContext;
  /** The address actually bound (useful with PORT=0). */
  url: string;
  /** The admin listener's address (metrics), or null when METRICS_PORT is unset. */
  adminUrl: string | null;
  close(): Promise<void>;
}

/** Personal data never reaches the log through request records; delivery logs name ids only. */
export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  return pino({
    level: config.logLevel,
    redact: { paths: ['req.headers.cookie', 'req.headers.authorization'], remove: true },
    serializers: {
      req: (req: { method: string; url: string; id: string }) => ({
        method: req.method,
        url: req.url,
        id: req.id,
      }),
    },
  });
}

export interface AppContextOptions {
  /** An already loaded site (tests share one); by default the configured content folder is loaded. */
  site?: Site;
  submissions?: SubmissionServiceOptions;
}

/**
 * The composition root: every room built from the configuration. Content problems are logged with
 * file and line; the pages that loaded are served.
 */
export async function createAppContext(
  config: Config,
  logger: Logger,
  options: AppContextOptions = {},
): Promise<AppContext> {
  let site = options.site;
  if (site === undefined) {
    const loaded = await loadSite(config.contentDir);
    for (const problem of loaded.problems) {
      const log = problem.severity === 'error' ? logger.error.bind(logger) : logger.warn.bind(logger);
      log({ file: problem.file, line: problem.line }, `content: ${problem.message}`);
    }
    site = loaded.site;
  }
  const metrics = createMetrics();
  const ask = createAskService(site, config.publicBaseUrl);
  const limits = createRateLimits(config.rateLimits, logger, { events: metrics });
  const submissions = await createSubmissionService(config, logger, {
    metrics,
    deliveryGate: limits.deliveries,
    ...options.submissions,
  });
  metrics.watchAsk(() => ask.counts);
  metrics.watchOutbox(async () => {
    const stats = await submissions.store.outboxStats();
    const oldest = stats.oldestPendingReceivedAtMs;
    return {
      pending: stats.pending,
      dead: stats.dead,
      oldestPendingAgeSeconds: oldest === null ? 0 : Math.max(0, (Date.now() - oldest) / 1000),
    };
  });
  if (!config.insight.enabled) return { config, logger, site, ask, submissions, metrics, limits };
  const insight = createInsightRecorder({
    // Opened on first flush: the server starts while the database is down, like the submissions.
    store: openInsightStoreLazily(config.database),
    logger,
    minClients: config.insight.minClients,
    retentionMonths: config.insight.retentionMonths,
    flushIntervalMs: config.insight.flushIntervalMs,
  });
  return { config, logger, site, ask, submissions, metrics, limits, insight };
}

/**
 * Builds every room from the configuration and starts listening. Content problems are logged with
 * file and line; the server still starts with the pages that loaded.
 */
export interface StartServerOptions {
  /** More routes for the admin listener, after /metrics (see src/admin/index.ts). */
  adminRoutes?: AdminRoutes[];
}

export async function startServer(
  config: Config,
  logger: Logger = createLogger(config),
  options: StartServerOptions = {},
): Promise<RunningServer> {
  const started = process.hrtime.bigint();
  const context = await createAppContext(config, logger);
  const { site, submissions, insight } = context;
  const app = await buildApp(context);
  await app.listen({ port: config.port, host: config.host });
  let admin: AdminServer | null = null;
  let adminUrl: string | null = null;
  if (config.admin) {
    admin = createAdminServer({ ...config.admin, logger });
    // Operator routes from other folders are added here, e.g. admin.addRoutes(reportRoutes(context)).
    admin.addRoutes(metricsRoutes(context.metrics));
    if (insight)
      admin.addRoutes(
        insightReportRoutes({
          store: insight.store,
          siteName: context.ask.siteName,
          publicBaseUrl: config.publicBaseUrl,
          minClients: config.insight.minClients,
        }),
      );
    for (const routes of options.adminRoutes ?? []) admin.addRoutes(routes);
    adminUrl = await admin.listen();
  }
  submissions.start();
  insight?.start();
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
  logger.info(
    { pages: site.pages.length, contentDir: config.contentDir, startupMs: Math.round(elapsedMs) },
    `frontdoor listening on http://${host}:${port} (public ${config.publicBaseUrl})`,
  );

  let closing: Promise<void> | null = null;
  const close = () => {
    closing ??= (async () => {
      await app.close();
      await admin?.close();
      await insight?.close();
      await submissions.close();
      await context.limits.close();
    })();
    return closing;
  };
  return { app, context, url: `http://${host}:${port}`, adminUrl, close };
}
