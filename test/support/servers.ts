import { DEFAULT_FORMS } from '../../src/contract/index.js';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { loadConfig, type Config, type ConfigSource } from '../../src/config/index.js';
import { loadSite, type Site } from '../../src/content/index.js';
import { buildApp, type AppContext, type BuildAppOptions } from '../../src/http/app.js';
import { createAppContext, startServer, type RunningServer } from '../../src/runtime/server.js';
import { createRateLimits } from '../../src/limits/index.js';
import { createMetrics } from '../../src/metrics/index.js';
import { createAskService, type AskService, type AskServiceOptions } from '../../src/nlweb/index.js';
import {
  createSubmissionService,
  type SubmissionService,
  type SubmissionServiceOptions,
} from '../../src/submissions/index.js';
import { contentFolder, tempDir } from './files.js';
import { LIMITS_OFF } from './limits.js';
import { freePort } from './net.js';
import { PublishedContract } from './openapi.js';

/*
 * The real application, started four ways; each owns a fresh temp DATA_DIR and removes it on close.
 *   buildTestApp     not listening: requests go through `app.inject` (the fastest; most suites)
 *   startTestServer  listening on 127.0.0.1 with a captured log and the delivery worker
 *   startAskServer   listening, over given content, with the ask service built from given options
 *   startSiteServer  the composition root (`startServer`) itself, as the browser suite drives it
 *   startInsightServer  the same with insight on, behind one trusted proxy hop (insight suites)
 */

/**
 * The configuration every starter begins from: port 0 on 127.0.0.1, a silent log, the abuse limits
 * off; `env` wins. `root` is the folder relative paths in it are read from (default: the cwd).
 */
export function testConfig(env: ConfigSource, root?: string): Config {
  return loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...LIMITS_OFF, ...env }, root);
}

export interface LogRecord {
  level: number;
  msg: string;
  [key: string]: unknown;
}

export interface TestServerOptions {
  /** Environment variables over the test defaults (DATA_DIR is a fresh temp folder unless given). */
  env?: ConfigSource;
  /** Options for the submission service (a clock, a store). */
  submissions?: SubmissionServiceOptions;
  /** Leave the delivery worker stopped (the test drives `deliverDue()` itself). */
  startWorker?: boolean;
  /** Options of the HTTP assembly (e.g. the /ask fast path off). */
  app?: BuildAppOptions;
}

export interface TestServer {
  /** http://127.0.0.1:<port>; also the configured PUBLIC_BASE_URL unless the env gave one. */
  url: string;
  app: FastifyInstance;
  context: AppContext;
  config: Config;
  submissions: SubmissionService;
  dataDir: string;
  /** Every log line the server wrote, parsed. */
  logs: LogRecord[];
  /** The OpenAPI document the server publishes at /openapi.json. */
  contract(): Promise<PublishedContract>;
  close(): Promise<void>;
}

let sitePromise: Promise<Site> | null = null;
const bundledSite = (contentDir: string) => (sitePromise ??= loadSite(contentDir).then(({ site }) => site));

/**
 * Starts the real application (real content, ask service, SQLite store, providers) on port 0 with
 * a captured log. PUBLIC_BASE_URL becomes the bound address unless the test sets one, so same-site
 * Origin headers can be tested.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const ownDataDir = options.env?.DATA_DIR === undefined;
  const dataDir = options.env?.DATA_DIR ?? tempDir('frontdoor-test-');
  // The port is chosen first so that the public base URL, and every absolute link the documents
  // and answers build at start-up, name the address the tests actually use.
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const config = testConfig({
    PORT: String(port),
    PUBLIC_BASE_URL: url,
    LOG_LEVEL: 'info',
    DATA_DIR: dataDir,
    DELIVERY_INLINE_BUDGET_MS: '1000',
    DELIVERY_ATTEMPT_TIMEOUT_MS: '2000',
    DELIVERY_RETRY_BASE_MS: '50',
    DELIVERY_RETRY_MAX_MS: '400',
    DELIVERY_POLL_INTERVAL_MS: '50',
    ...options.env,
  });
  const logs: LogRecord[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n'))
        if (line.trim() !== '') logs.push(JSON.parse(line) as LogRecord);
      callback();
    },
  });
  const logger = pino({ level: config.logLevel }, sink);
  const site = await bundledSite(config.contentDir);
  const context = await createAppContext(config, logger, { site, submissions: options.submissions });
  const { submissions } = context;
  const app = await buildApp(context, options.app);
  await app.listen({ port, host: '127.0.0.1' });
  if (options.startWorker !== false) submissions.start();

  let contract: Promise<PublishedContract> | null = null;
  return {
    url,
    app,
    context,
    config,
    submissions,
    dataDir,
    logs,
    contract: () =>
      (contract ??= fetch(`${url}/openapi.json`).then(async (response) => {
        if (response.status !== 200) throw new Error(`/openapi.json answered ${response.status}`);
        return new PublishedContract(
          (await response.json()) as ConstructorParameters<typeof PublishedContract>[0],
        );
      })),
    close: async () => {
      await app.close();
      await submissions.close();
      await context.limits.close();
      if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The public base URL of an app built with `buildTestApp` unless the test gives one. */
export const TEST_BASE_URL = 'https://www.example.test';

export interface TestApp {
  app: FastifyInstance;
  context: AppContext;
  config: Config;
  close(): Promise<void>;
}

/**
 * The real application (content loader, ask service, SQLite store, log delivery) for
 * `app.inject`, with PUBLIC_BASE_URL = TEST_BASE_URL and its own temp data folder. `build` makes
 * the Fastify instance from the context (by default every route: `buildApp`).
 */
export async function buildTestApp(
  env: ConfigSource = {},
  build: (context: AppContext) => Promise<FastifyInstance> = (context) => buildApp(context),
): Promise<TestApp> {
  const dataDir = tempDir('frontdoor-app-');
  const config = testConfig({ DATA_DIR: dataDir, PUBLIC_BASE_URL: TEST_BASE_URL, ...env });
  const logger = pino({ level: 'silent' });
  const context = await createAppContext(config, logger);
  const { submissions } = context;
  let app: FastifyInstance;
  try {
    app = await build(context);
    await app.ready();
  } catch (error) {
    await submissions.close();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    app,
    context,
    config,
    close: async () => {
      await app.close();
      await submissions.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface AskApp {
  app: FastifyInstance;
  ask: AskService;
  /** http://127.0.0.1:port */
  url: string;
  contract: PublishedContract;
  close(): Promise<void>;
}

/**
 * The real application (config, content loader, ask service, submission service on a temp SQLite
 * file) listening on port 0, over the content `files` and with the ask service built from
 * `options`; the contract is the /openapi.json the app serves.
 */
export async function startAskServer(
  files: Record<string, string>,
  options: AskServiceOptions = {},
  env: Record<string, string> = {},
  publicBaseUrl = TEST_BASE_URL,
): Promise<AskApp> {
  const root = tempDir('fd-ask-');
  const contentDir = contentFolder(files, join(root, 'content'));
  const config = testConfig(
    { PUBLIC_BASE_URL: publicBaseUrl, DATA_DIR: join(root, 'data'), CONTENT_DIR: contentDir, ...env },
    root,
  );
  const logger = pino({ level: 'silent' });
  const { site } = await loadSite(config.contentDir);
  const ask = createAskService(site, config.publicBaseUrl, options);
  const submissions = await createSubmissionService(config, logger);
  const metrics = await createMetrics();
  const limits = createRateLimits(config.rateLimits, logger, { events: metrics });
  const app = await buildApp({
    config,
    logger,
    site,
    ask,
    submissions,
    metrics,
    limits,
    forms: DEFAULT_FORMS,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  // The contract the tests check against is the document the app itself serves.
  const served = await app.inject({ method: 'GET', url: '/openapi.json' });
  if (served.statusCode !== 200) throw new Error(`/openapi.json answered ${served.statusCode}`);
  const contract = new PublishedContract(served.json());
  return {
    app,
    ask,
    url: `http://127.0.0.1:${port}`,
    contract,
    async close() {
      await app.close();
      await submissions.close();
      await limits.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

export interface SiteServer {
  url: string;
  server: RunningServer;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * The real server from its composition root (content, search, SQLite store, log delivery), with
 * PUBLIC_BASE_URL equal to the address it listens on, so search links and same-site form posts
 * behave as in production.
 */
export async function startSiteServer(env: ConfigSource = {}): Promise<SiteServer> {
  const dataDir = tempDir('frontdoor-browser-');
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const config = testConfig({ PORT: String(port), PUBLIC_BASE_URL: url, DATA_DIR: dataDir, ...env });
    try {
      const server = await startServer(config, pino({ level: 'silent' }));
      return {
        url,
        server,
        dataDir,
        close: async () => {
          await server.close();
          rmSync(dataDir, { recursive: true, force: true });
        },
      };
    } catch (error) {
      // Another process took the port between the probe and the listen: try another one.
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 5) throw error;
    }
  }
}

export interface InsightServer {
  url: string;
  server: RunningServer;
  dataDir: string;
  /** Stops the server (writing the last counts), keeping the data folder. */
  stop(): Promise<void>;
  /** Stops the server and removes the data folder. */
  close(): Promise<void>;
}

/**
 * The real server from its composition root with insight on, behind one trusted proxy hop so a
 * test plays distinct clients with X-Forwarded-For. Counts are flushed only when the test asks.
 */
export async function startInsightServer(env: ConfigSource = {}): Promise<InsightServer> {
  const dataDir = tempDir('frontdoor-insight-');
  const config = testConfig({
    PUBLIC_BASE_URL: 'https://www.trialwright.test',
    DATA_DIR: dataDir,
    TRUST_PROXY_HOPS: '1',
    INSIGHT_FLUSH_INTERVAL_MS: '600000',
    ...env,
  });
  const server = await startServer(config, pino({ level: 'silent' }));
  return {
    url: server.url,
    server,
    dataDir,
    stop: () => server.close(),
    close: async () => {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
