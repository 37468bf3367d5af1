import type { FastifyInstance } from 'fastify';
import {
  READINESS_CACHE_MS,
  READINESS_STORE_TIMEOUT_MS,
  type Health,
  type Readiness,
} from '../../contract/index.js';
import { describeError } from '../../submissions/index.js';
import type { AppContext, SurfaceOptions } from '../context.js';
import { errorHandlerRendering, renderEnvelope } from '../errors.js';

/** Polled every few seconds by every balancer: kept out of the request log. */
const ROUTE_OPTIONS = { logLevel: 'silent' as const };

/** Why the store check failed, in words: the error's meaning beside its code. */
function storeReason(error: unknown): string {
  if (error instanceof StoreTimeout)
    return `submissions database: no answer within ${READINESS_STORE_TIMEOUT_MS / 1000} s`;
  const { errorClass, errorMeaning } = describeError(error);
  return `submissions database: ${errorMeaning ? `${errorMeaning} (${errorClass})` : errorClass}`;
}

class StoreTimeout extends Error {}

/** The probes' surface: GET /healthz and GET /readyz, errors in the spec's Error envelope. */
export async function registerHealthSurface(app: FastifyInstance, options: SurfaceOptions): Promise<void> {
  const { context } = options;
  await app.register(async (surface) => {
    surface.setErrorHandler(
      errorHandlerRendering(renderEnvelope, { bodyLimitBytes: context.config.bodyLimitBytes }),
    );
    registerHealthRoutes(surface, context);
  });
}

/** GET /healthz (the process lives) and GET /readyz (the store answers and the index is loaded). */
function registerHealthRoutes(app: FastifyInstance, context: AppContext): void {
  let cached: { atMs: number; readiness: Readiness } | null = null;
  let checking: Promise<Readiness> | null = null;

  const check = async (): Promise<Readiness> => {
    const reasons: string[] = [];
    let store: Readiness['checks']['store'] = 'ok';
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        context.submissions.store.ping(),
        new Promise<never>((_resolve, reject) => {
          timer = setTimeout(() => reject(new StoreTimeout()), READINESS_STORE_TIMEOUT_MS);
        }),
      ]);
    } catch (error) {
      store = 'failing';
      reasons.push(storeReason(error));
    } finally {
      clearTimeout(timer);
    }
    const index: Readiness['checks']['index'] = context.ask.pageCount > 0 ? 'ok' : 'empty';
    if (index === 'empty')
      reasons.push(context.contentWaiting?.() ?? 'search index: no page was loaded from the content folder');
    return { status: reasons.length === 0 ? 'ready' : 'unavailable', checks: { store, index }, reasons };
  };

  /** One check at a time, its result reused briefly: a burst of probes costs one query. */
  const readiness = (): Promise<Readiness> => {
    if (cached && Date.now() - cached.atMs < READINESS_CACHE_MS) return Promise.resolve(cached.readiness);
    checking ??= check().then((result) => {
      cached = { atMs: Date.now(), readiness: result };
      checking = null;
      return result;
    });
    return checking;
  };

  app.get('/healthz', ROUTE_OPTIONS, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    const health: Health = { status: 'ok' };
    return health;
  });

  app.get('/readyz', ROUTE_OPTIONS, async (_request, reply) => {
    const result = await readiness();
    reply.header('cache-control', 'no-store');
    return reply.code(result.status === 'ready' ? 200 : 503).send(result);
  });
}
