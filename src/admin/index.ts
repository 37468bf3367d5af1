import Fastify, { LogController, type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import type { Logger } from 'pino';

/**
 * The admin listener: a second HTTP server for operators (Prometheus metrics, reports), bound to
 * loopback by default and never to the public port. It is started only when METRICS_PORT is set.
 *
 * Other folders add their routes with `AdminServer.addRoutes(plugin)` before `listen()`: the
 * plugin is an ordinary Fastify plugin (`async (app) => { app.get('/report', ...) }`) and sees only
 * this listener, never the public application. Routes are served as registered, with no prefix;
 * the server's composition root (src/http/server.ts `startServer`) is where they are added.
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
