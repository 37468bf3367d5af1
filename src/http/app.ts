import { createServer } from 'node:http';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { AskAnswerWriter } from './ask-answer.js';
import { createAskFastPath } from './ask-fast-path.js';
import type { AppContext } from './context.js';
import { registerBodyParsers } from './body-parsers.js';
import {
  createClientErrorHandler,
  createFrameworkErrorHandler,
  SHUTDOWN_RETRY_AFTER_SECONDS,
  ShuttingDownError,
  trackAllowedMethods,
} from './errors.js';
import { parseQueryString } from './query-string.js';
import { requestIdOf } from './request-id.js';
import { registerSecurityHeaders } from './security-headers.js';
import { endSilentConnectionsOnClose } from './silent-connections.js';
import { registerAskSurface } from './surfaces/ask.js';
import { registerHealthSurface } from './surfaces/health.js';
import { registerDiscoverySurface } from './surfaces/discovery.js';
import { registerSiteSurface } from './surfaces/site.js';
import { registerApiSurface } from './surfaces/submissions.js';

export type { AppContext } from './context.js';

/**
 * Assembles the HTTP application: parsers, headers and logging for every request, then the
 * surfaces (routes/), each an encapsulated plugin with its own error and not-found handling.
 * It does not listen; `startServer` does, and tests use `app.inject` or listen on port 0.
 */
export interface BuildAppOptions {
  /** Answer plain GET /ask JSON requests ahead of the framework (default true; see ask-fast-path.ts). */
  askFastPath?: boolean;
}

/** Node's default checks header/request timeouts only every 30 s (see the reliability notes). */
const SERVER_TIMEOUTS = { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5_000 };

export async function buildApp(context: AppContext, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const { config, insight } = context;
  let closing = false;
  const writer = new AskAnswerWriter({
    publicBaseUrl: config.publicBaseUrl,
    compression: config.compression,
  });
  const fastPath =
    options.askFastPath === false
      ? null
      : createAskFastPath({
          ask: () => context.ask,
          logger: context.logger,
          isClosing: () => closing,
          metrics: context.metrics,
          limits: context.limits,
          trustProxyHops: config.trustProxyHops,
          writer,
          ...(insight
            ? {
                onAnswered: (req, query, summary, clientAddress) =>
                  insight.search('get', query.text, summary, req.headers, clientAddress),
              }
            : {}),
        });
  const app = Fastify({
    loggerInstance: context.logger,
    bodyLimit: config.bodyLimitBytes,
    // Trust exactly the configured number of proxy hops, never "all" (spoofed X-Forwarded-For).
    trustProxy: (_address: string, hop: number) => hop < config.trustProxyHops,
    genReqId: (req) => requestIdOf(req, config.trustProxyHops),
    // Fastify's two lines per request are replaced by the one written in onResponse below.
    logController: new LogController({ requestIdLogLabel: 'requestId', disableRequestLogging: true }),
    // During shutdown the onRequest hook below refuses with 503, in the shape of the route's surface.
    return503OnClosing: false,
    frameworkErrors: createFrameworkErrorHandler(config.publicBaseUrl),
    clientErrorHandler: createClientErrorHandler(config.publicBaseUrl),
    serverFactory: (handler) => {
      const server = createServer(
        { headersTimeout: SERVER_TIMEOUTS.headersTimeoutMs, connectionsCheckingInterval: 1_000 },
        fastPath ? (req, res) => fastPath(req, res) || handler(req, res) : handler,
      );
      server.requestTimeout = SERVER_TIMEOUTS.requestTimeoutMs;
      server.keepAliveTimeout = SERVER_TIMEOUTS.keepAliveTimeoutMs;
      endSilentConnectionsOnClose(server);
      return server;
    },
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 500, querystringParser: parseQueryString },
  }) as unknown as FastifyInstance;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  const { metrics } = context;
  app.addHook('onResponse', (request, reply, done) => {
    // The route pattern, never the URL: page URLs and query strings would make unbounded labels.
    const route = request.routeOptions.url ?? 'unmatched';
    const responseTime = reply.elapsedTime;
    metrics.observeRequest(request.method, route, reply.statusCode, responseTime / 1000);
    // One line per request, without the query string (search text is the visitor's: debug only).
    // request.log honours a route's own logLevel, so a route can keep itself out of the log.
    if ((request.log as Logger).isLevelEnabled('info')) {
      const { url } = request;
      const queryAt = url.indexOf('?');
      request.log.info(
        {
          req: { method: request.method, url: queryAt < 0 ? url : url.slice(0, queryAt) },
          res: { statusCode: reply.statusCode },
          responseTime,
        },
        'request completed',
      );
    }
    done();
  });

  if (insight)
    app.addHook('onResponse', (request, reply, done) => {
      const contentType = reply.getHeader('content-type');
      insight.response(
        request.url,
        reply.statusCode,
        typeof contentType === 'string' ? contentType : undefined,
        request.headers,
      );
      done();
    });

  registerBodyParsers(app);
  registerSecurityHeaders(app, config.publicBaseUrl);
  // During shutdown every request is refused; the route's surface answers in its own shape.
  app.addHook('onRequest', (_request, reply, done) => {
    if (!closing) return done();
    reply.header('retry-after', String(SHUTDOWN_RETRY_AFTER_SECONDS)).header('connection', 'close');
    done(new ShuttingDownError());
  });

  const surface = { context, allowedMethods: trackAllowedMethods(app), writer };
  await registerHealthSurface(app, surface);
  await registerApiSurface(app, surface);
  await registerAskSurface(app, surface);
  await registerDiscoverySurface(app, surface);
  // Last: the site owns the root (its content catch-all and the app-wide not-found handler).
  await registerSiteSurface(app, surface);
  return app;
}
