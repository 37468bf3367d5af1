import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from '../config/index.js';
import type { Site } from '../content/index.js';
import type { AskService } from '../nlweb/index.js';
import type { SubmissionService } from '../submissions/index.js';
import { createAskFastPath } from './ask-fast-path.js';
import type { LiveContent } from './live-content.js';
import { registerBodyParsers } from './body-parsers.js';
import { registerErrorHandling } from './errors.js';
import { parseQueryString } from './query-string.js';
import { registerSecurityHeaders } from './security-headers.js';
import { registerAskRoutes } from './routes/ask.js';
import { registerDiscoveryRoutes } from './routes/discovery.js';
import { registerSiteRoutes } from './routes/site.js';
import { registerSubmissionRoutes } from './routes/submissions.js';

/**
 * Everything the routes need, built once by the server (or by a test) and passed in. `site` and
 * `ask` are the content serving now: with live content they change on a reload, so routes read
 * them per request (once, and use what they read for the whole request), never at registration.
 */
export interface AppContext {
  config: Config;
  logger: Logger;
  readonly site: Site;
  readonly ask: AskService;
  submissions: SubmissionService;
  /** Present when the content can be reloaded; routes register the work a new site needs. */
  readonly content?: LiveContent;
}

/**
 * Assembles the HTTP application: parsers, headers, the error envelope and every room's routes.
 * It does not listen; `startServer` does, and tests use `app.inject` or listen on port 0.
 */
export interface BuildAppOptions {
  /** Answer plain GET /ask JSON requests ahead of the framework (default true; see ask-fast-path.ts). */
  askFastPath?: boolean;
}

/** Node's default checks header/request timeouts only every 30 s (see the reliability notes). */
const SERVER_TIMEOUTS = { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5_000 };

export async function buildApp(context: AppContext, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const { config } = context;
  let closing = false;
  const fastPath =
    options.askFastPath === false
      ? null
      : createAskFastPath({
          ask: () => context.ask,
          logger: context.logger,
          publicBaseUrl: config.publicBaseUrl,
          isClosing: () => closing,
        });
  const app = Fastify({
    loggerInstance: context.logger,
    bodyLimit: config.bodyLimitBytes,
    // Trust exactly the configured number of proxy hops, never "all" (spoofed X-Forwarded-For).
    trustProxy: (_address: string, hop: number) => hop < config.trustProxyHops,
    genReqId: () => randomUUID(),
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
    return503OnClosing: true,
    serverFactory: (handler) => {
      const server = createServer(
        { headersTimeout: SERVER_TIMEOUTS.headersTimeoutMs, connectionsCheckingInterval: 1_000 },
        fastPath ? (req, res) => fastPath(req, res) || handler(req, res) : handler,
      );
      server.requestTimeout = SERVER_TIMEOUTS.requestTimeoutMs;
      server.keepAliveTimeout = SERVER_TIMEOUTS.keepAliveTimeoutMs;
      return server;
    },
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 500, querystringParser: parseQueryString },
  }) as unknown as FastifyInstance;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });

  registerBodyParsers(app);
  registerSecurityHeaders(app, config.publicBaseUrl);
  registerErrorHandling(app, config.bodyLimitBytes);

  app.get('/healthz', { config: { errorShape: 'envelope' } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' };
  });

  await registerSubmissionRoutes(app, context);
  await registerAskRoutes(app, context);
  await registerDiscoveryRoutes(app, context);
  // Last: the site's page routes include a catch-all for content URLs.
  await registerSiteRoutes(app, context);
  return app;
}
