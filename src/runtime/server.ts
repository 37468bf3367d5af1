import type { FastifyInstance } from 'fastify';
import pino, { type DestinationStream, type Logger } from 'pino';
import { createAdminServer, type AdminRoutes, type AdminServer } from '../admin/index.js';
import { checkDatabaseFile, checkDataDir, ConfigError, listenError, type Config } from '../config/index.js';
import { Crawler, type CrawlOutcome } from '../crawl/index.js';
import {
  FormsConfigError,
  readFormsFile,
  unknownFormProblems,
  untranslatedFormProblems,
  watchContentFolder,
  type ContentWatcher,
  type Site,
} from '../content/index.js';
import { createInsightRecorder, insightReportRoutes, openInsightStoreLazily } from '../insight/index.js';
import { createRateLimits } from '../limits/index.js';
import { createMetrics, metricsRoutes } from '../metrics/index.js';
import { createAskService } from '../nlweb/index.js';
import { createSubmissionService, type SubmissionServiceOptions } from '../submissions/index.js';
import type { FormDefinition } from '../contract/index.js';
import { buildApp, LiveContent, type AppContext, type ContentGeneration } from '../http/index.js';
import { loadContent, roundTimings, type LoadedContent } from './content-load.js';
import { goingLiveWarnings } from './going-live.js';
import { ContentReloader, logContentProblems, type ReloadOutcome } from './content-reload.js';
import { LogDestination } from './log-destination.js';

export { LogDestination, LogWriteError } from './log-destination.js';

export interface RunningServer {
  app: FastifyInstance;
  context: AppContext;
  /** The address actually bound (useful with PORT=0). */
  url: string;
  /** The admin listener's address (metrics), or null when METRICS_PORT is unset. */
  adminUrl: string | null;
  /** Reloads CONTENT_DIR now (as SIGHUP does without CONTENT_URL). */
  reload(reason: string): Promise<ReloadOutcome>;
  /** With CONTENT_URL: crawls the site now (as SIGHUP does), reloading the content if it changed. */
  crawl(reason: string): Promise<CrawlOutcome> | null;
  /** With CONTENT_URL: the first crawl (started with the server), settled once it has ended. */
  firstCrawl: Promise<CrawlOutcome> | null;
  close(): Promise<void>;
}

/**
 * Personal data never reaches the log through request records; delivery logs name ids only. The
 * destination is asynchronous (see log-destination.ts): stdout unless a test passes its own stream.
 */
export function createLogger(
  config: Pick<Config, 'logLevel'>,
  destination: DestinationStream = new LogDestination(1),
): Logger {
  return pino(
    {
      level: config.logLevel,
      redact: { paths: ['req.headers.cookie', 'req.headers.authorization'], remove: true },
      serializers: {
        req: (req: { method: string; url: string; id: string }) => ({
          method: req.method,
          url: req.url,
          id: req.id,
        }),
      },
    },
    destination,
  );
}

/**
 * A page asking for a form the site does not have shows none, and a form on pages in a language it
 * has no words in shows its own there: said once, at start-up, with a file.
 */
function warnOfUnknownForms(logger: Logger, site: Site, forms: readonly FormDefinition[]): void {
  for (const problem of [
    ...unknownFormProblems(site.pages, forms),
    ...untranslatedFormProblems(site.pages, forms, site.info.language),
  ])
    logger.warn({ file: problem.file }, problem.message);
}

export interface AppContextOptions {
  /** An already loaded site (tests share one); by default the configured content folder is loaded. */
  site?: Site;
  submissions?: SubmissionServiceOptions;
  /** See AppContext.contentWaiting. */
  contentWaiting?: () => string | null;
}

export interface CreatedAppContext extends AppContext {
  readonly content: LiveContent;
}

/**
 * The composition root: every room built from the configuration. Content problems are logged with
 * file and line; the pages that loaded are served. The content lives in a LiveContent, so a reload
 * can replace site and search together; `site` and `ask` always read the one serving now.
 */
export async function createAppContext(
  config: Config,
  logger: Logger,
  options: AppContextOptions = {},
): Promise<CreatedAppContext> {
  return (await createLiveAppContext(config, logger, options)).context;
}

/**
 * Forms are read once, at start-up: they define the API's routes and /openapi.json, which a
 * running Fastify cannot change. After a reload, a `forms:` that differs from the one serving is
 * logged once per change, so an owner who edited it knows to restart rather than wonder.
 */
function formsChangeWarning(
  contentDir: string,
  serving: readonly FormDefinition[],
  logger: Logger,
): { check(): void } {
  const servingJson = JSON.stringify(serving);
  let lastSeen = servingJson;
  return {
    check() {
      let current: string;
      try {
        current = JSON.stringify(readFormsFile(contentDir));
      } catch (error) {
        current = error instanceof FormsConfigError ? error.message : String(error);
      }
      if (current === lastSeen) return;
      lastSeen = current;
      if (current === servingJson) return;
      logger.warn(
        { file: '_site.yaml' },
        'forms: in _site.yaml changed since start-up; the forms served are still the ones read then (they define the API routes and /openapi.json): restart Frontdoor to use the new forms',
      );
    },
  };
}

/**
 * The site's forms. A mistake in `forms:` (or a `_site.yaml` that cannot be read) stops start-up
 * as any configuration mistake does: the file, line and fix, exit 78, no stack trace.
 */
function siteForms(contentDir: string): readonly FormDefinition[] {
  try {
    return readFormsFile(contentDir);
  } catch (error) {
    if (error instanceof FormsConfigError) throw new ConfigError([error.message]);
    throw error;
  }
}

/**
 * createAppContext, and the start-up load when it read CONTENT_DIR itself (what a reloader and the
 * snapshot need; not kept in the context, so the first site can be freed after a reload).
 */
async function createLiveAppContext(
  config: Config,
  logger: Logger,
  options: AppContextOptions,
): Promise<{ context: CreatedAppContext; loaded: LoadedContent | null }> {
  let initial: ContentGeneration;
  let loaded: LoadedContent | null = null;
  const forms = siteForms(config.contentDir);
  if (options.site !== undefined) {
    initial = { site: options.site, ask: createAskService(options.site, config.publicBaseUrl) };
  } else {
    loaded = (await loadContent(config, logger))!;
    logContentProblems(logger, loaded.problems);
    warnOfUnknownForms(logger, loaded.generation.site, forms);
    initial = loaded.generation;
  }
  const content = new LiveContent(initial);
  const metrics = await createMetrics(config.admin !== null);
  const limits = createRateLimits(config.rateLimits, logger, { events: metrics });
  const submissions = await createSubmissionService(config, logger, {
    metrics,
    deliveryGate: limits.deliveries,
    forms,
    ...options.submissions,
  });
  // Counts of the ask service serving now (a reload starts them again, as a restart would).
  metrics.watchAsk(() => content.current.ask.counts);
  metrics.watchOutbox(async () => {
    const stats = await submissions.store.outboxStats();
    const oldest = stats.oldestPendingReceivedAtMs;
    return {
      pending: stats.pending,
      dead: stats.dead,
      oldestPendingAgeSeconds: oldest === null ? 0 : Math.max(0, (Date.now() - oldest) / 1000),
    };
  });
  const insight = config.insight.enabled
    ? createInsightRecorder({
        // Opened on first flush: the server starts while the database is down, like the submissions.
        store: openInsightStoreLazily(config.database),
        logger,
        minClients: config.insight.minClients,
        retentionMonths: config.insight.retentionMonths,
        flushIntervalMs: config.insight.flushIntervalMs,
      })
    : undefined;
  const context: CreatedAppContext = {
    config,
    logger,
    submissions,
    forms,
    metrics,
    limits,
    ...(insight ? { insight } : {}),
    content,
    ...(options.contentWaiting ? { contentWaiting: options.contentWaiting } : {}),
    get site() {
      return content.current.site;
    },
    get ask() {
      return content.current.ask;
    },
  };
  return { context, loaded };
}

/**
 * Builds every room from the configuration and starts listening. Content problems are logged with
 * file and line; the server still starts with the pages that loaded. Then it keeps the content
 * live: a change in CONTENT_DIR (CONTENT_WATCH=on) or SIGHUP reloads it.
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
  if (config.database.kind === 'sqlite') {
    checkDataDir(config.dataDir);
    checkDatabaseFile(config.database.file);
  }
  // With CONTENT_URL the content folder is the crawler's mirror: made (empty) before it is read,
  // and served as a previous run left it until the first crawl ends.
  const crawler = config.crawl ? new Crawler({ config: config.crawl, logger }) : null;
  const { context, loaded } = await createLiveAppContext(config, logger, {
    ...(crawler ? { contentWaiting: () => crawler.waiting() } : {}),
  });
  const { submissions, insight } = context;
  if (config.production)
    for (const warning of goingLiveWarnings(config, context.site))
      logger.warn({ goingLive: true }, `before going live: ${warning}`);
  const contextReady = process.hrtime.bigint();
  const app = await buildApp(context);
  await app.ready();
  const appReady = process.hrtime.bigint();
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await app.close();
    await submissions.close();
    throw listenError(error, config.host, config.port);
  }
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
    try {
      adminUrl = await admin.listen();
    } catch (error) {
      await admin.close();
      await app.close();
      await submissions.close();
      await insight?.close();
      await context.limits.close();
      throw listenError(error, config.admin.host, config.admin.port, {
        host: 'METRICS_HOST',
        port: 'METRICS_PORT',
      });
    }
  }
  submissions.start();
  insight?.start();
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
  logger.info(
    {
      pages: context.site.pages.length,
      contentDir: config.contentDir,
      startupMs: Math.round(elapsedMs),
      // Where the start-up went: content (read, build or snapshot, index), the app, listening.
      content: loaded && {
        source: loaded.source,
        ...(loaded.snapshotRejected ? { snapshotRejected: loaded.snapshotRejected } : {}),
        filesRead: loaded.filesRead,
        ...roundTimings(loaded.timings),
      },
      contextMs: Math.round(Number(contextReady - started) / 1e6),
      appMs: Math.round(Number(appReady - contextReady) / 1e6),
    },
    `frontdoor listening on http://${host}:${port} (public ${config.publicBaseUrl})`,
  );
  // After listening: the first answers do not wait for the snapshot to be written.
  const snapshotSaved = loaded?.saveSnapshot() ?? Promise.resolve();
  context.content.analyseInBackground((error) =>
    logger.warn(
      { err: error },
      'analysing snippet texts in the background failed; answers analyse them as they quote them',
    ),
  );

  const reloader = new ContentReloader(
    config,
    logger,
    context.content,
    loaded!.contentHash,
    loaded!.build,
    snapshotSaved,
    loaded!.problems,
  );
  const reload = async (reason: string) => {
    const outcome = await reloader.reload(reason);
    if (outcome.status === 'swapped') formsWatch.check();
    return outcome;
  };
  const formsWatch = formsChangeWarning(config.contentDir, context.forms, logger);
  crawler?.onChange((reason) => reload(reason));
  const firstCrawl = crawler?.start() ?? null;
  const onHangup = () => void (crawler ? crawler.crawl('SIGHUP') : reload('SIGHUP'));
  process.on('SIGHUP', onHangup);
  let watcher: ContentWatcher | null = null;
  if (config.contentWatch) {
    try {
      watcher = watchContentFolder(config.contentDir, () => void reload('change in CONTENT_DIR'), {
        onError: (error) =>
          logger.error({ err: error }, 'watching CONTENT_DIR stopped: reload with SIGHUP after a change'),
      });
    } catch (error) {
      logger.warn({ err: error }, 'CONTENT_DIR cannot be watched: reload with SIGHUP after a change');
    }
  }

  let closing: Promise<void> | null = null;
  const close = () => {
    closing ??= (async () => {
      process.off('SIGHUP', onHangup);
      context.content.stopAnalysis();
      watcher?.close();
      await crawler?.close();
      await reloader.close();
      await snapshotSaved;
      await app.close();
      await admin?.close();
      await insight?.close();
      await submissions.close();
      await context.limits.close();
    })();
    return closing;
  };
  return {
    app,
    context,
    url: `http://${host}:${port}`,
    adminUrl,
    reload,
    crawl: (reason: string) => crawler?.crawl(reason) ?? null,
    firstCrawl,
    close,
  };
}
