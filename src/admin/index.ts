import Fastify, { LogController, type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import { networkInterfaces } from 'node:os';
import type { Logger } from 'pino';
import { endpointNotFoundBody, errorBody, internalErrorBody } from '../contract/index.js';

/**
 * The admin listener: a second HTTP server for operators (Prometheus metrics, reports), bound to
 * loopback by default and never to the public port. It is started only when METRICS_PORT is set.
 *
 * Other folders add their routes with `AdminServer.addRoutes(plugin)` before `listen()`: the
 * plugin is an ordinary Fastify plugin (`async (app) => { app.get('/report', ...) }`) and sees only
 * this listener, never the public application. Routes are served as registered, with no prefix;
 * the server's composition root (src/runtime/server.ts `startServer`) is where they are added.
 */
export type AdminRoutes = FastifyPluginAsync;

export interface AdminServerOptions {
  host: string;
  port: number;
  logger: Logger;
}

export interface AdminServer {
  /** Adds routes (a Fastify plugin) to the admin listener; call before `listen()`. */
  addRoutes(routes: AdminRoutes): void;
  /** Starts listening; resolves with the base URL actually bound (useful with port 0). */
  listen(): Promise<string>;
  close(): Promise<void>;
  /** The Fastify instance, for `inject` in tests. */
  readonly app: FastifyInstance;
}

export function createAdminServer(options: AdminServerOptions): AdminServer {
  const logger = options.logger.child({ listener: 'admin' });
  const app = Fastify({
    loggerInstance: logger,
    // A scrape every few seconds is not worth a log line; errors are still logged.
    logController: new LogController({ disableRequestLogging: true }),
  }) as unknown as FastifyInstance;
  let listening = false;
  const ownHosts = ownHostNames(options.host);

  // DNS rebinding: a page an operator opens could point its own host name at 127.0.0.1 and have
  // the browser send requests here. Such a request names that host name in Host: only this
  // listener's own names (its address, loopback names when bound there, every interface address
  // when bound to all) are answered.
  app.addHook('onRequest', async (request, reply) => {
    const host = hostNameOf(request.headers.host);
    if (host !== null && ownHosts.has(host)) return;
    return reply
      .code(421)
      .send(
        errorBody(
          'VALIDATION_ERROR',
          'Misdirected Request',
          'The Host header does not name this admin listener, so the request is refused (it may come from a web page through DNS rebinding).',
          `Address the admin listener by its own address, such as ${[...ownHosts][0]}.`,
        ),
      );
  });
  // Whatever a route throws is logged and answered with the envelope, never with a stack.
  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    const status = error.statusCode;
    if (status !== undefined && status >= 400 && status < 500)
      return reply
        .code(status)
        .send(
          errorBody(
            'VALIDATION_ERROR',
            'Bad request',
            error.message,
            'Correct the request and send it again.',
          ),
        );
    request.log.error({ err: error }, 'admin request failed');
    return reply.code(500).send(internalErrorBody(request.id));
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send(endpointNotFoundBody(request.method, request.url.split('?')[0]!)),
  );

  return {
    app,
    addRoutes(routes) {
      if (listening) throw new Error('admin routes must be added before the admin listener starts');
      void app.register(routes);
    },
    async listen() {
      listening = true;
      await app.listen({ port: options.port, host: options.host });
      const address = app.server.address();
      const port = typeof address === 'object' && address ? address.port : options.port;
      const host = options.host.includes(':') ? `[${options.host}]` : options.host;
      const url = `http://${host}:${port}`;
      logger.info(`admin listener (metrics) on ${url}`);
      return url;
    },
    close: () => app.close(),
  };
}

/** The host names a request to a listener bound to `host` may name (lower case, IPv6 in brackets). */
function ownHostNames(host: string): Set<string> {
  const bracketed = (address: string) => (address.includes(':') ? `[${address.toLowerCase()}]` : address);
  const names = new Set<string>([bracketed(host.toLowerCase())]);
  const wildcard = host === '0.0.0.0' || host === '::';
  if (wildcard || /^127\./.test(host) || host === '::1' || host === 'localhost')
    for (const name of ['localhost', '127.0.0.1', '[::1]']) names.add(name);
  if (wildcard)
    for (const addresses of Object.values(networkInterfaces()))
      for (const { address } of addresses ?? []) names.add(bracketed(address.replace(/%.*$/, '')));
  return names;
}

/** The host name of a Host header without its port, lower case; null when there is none. */
function hostNameOf(header: string | undefined): string | null {
  if (header === undefined || header === '') return null;
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::\d{1,5})?$/i.exec(header.trim());
  return match ? match[1]!.toLowerCase() : null;
}
