import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { loadConfig, type Config, type ConfigSource } from '../../src/config/index.js';
import { loadSite, type Site } from '../../src/content/index.js';
import { buildApp, type AppContext, type BuildAppOptions } from '../../src/http/app.js';
import { createAppContext } from '../../src/http/server.js';
import { type SubmissionService, type SubmissionServiceOptions } from '../../src/submissions/index.js';
import { PublishedContract } from '../helpers/openapi.js';
import { freePort } from '../helpers/ports.js';
import { LIMITS_OFF } from '../helpers/limits.js';

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
  const dataDir = options.env?.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'frontdoor-test-'));
  // The port is chosen first so that the public base URL, and every absolute link the documents
  // and answers build at start-up, name the address the tests actually use.
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    PORT: String(port),
    PUBLIC_BASE_URL: url,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    ...LIMITS_OFF,
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
