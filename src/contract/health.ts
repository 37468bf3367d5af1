import { Type, type Static, type TSchema } from '@sinclair/typebox';

/**
 * The two operator endpoints a load balancer polls. `/healthz` says the process lives; `/readyz`
 * says this instance can do its whole job now (the submissions store answers and the search index
 * is loaded), so a balancer sends traffic only to ready instances.
 */
export const HealthSchema = Type.Object(
  { status: Type.Literal('ok', { description: 'Always `ok`: the process is running and answering.' }) },
  { additionalProperties: false, title: 'Health' },
);

export const ReadinessSchema = Type.Object(
  {
    status: Type.Unsafe<'ready' | 'unavailable'>({ type: 'string', enum: ['ready', 'unavailable'] }),
    checks: Type.Object(
      {
        store: Type.Unsafe<'ok' | 'failing'>({
          type: 'string',
          enum: ['ok', 'failing'],
          description: 'Whether the submissions database answered a trivial query in time.',
        }),
        index: Type.Unsafe<'ok' | 'empty'>({
          type: 'string',
          enum: ['ok', 'empty'],
          description: 'Whether the search index holds the site’s pages.',
        }),
      },
      { additionalProperties: false },
    ),
    reasons: Type.Array(Type.String(), {
      description: 'Why the instance is not ready, in words (empty when ready).',
    }),
  },
  { additionalProperties: false, title: 'Readiness' },
);

export type Health = Static<typeof HealthSchema>;
export type Readiness = Static<typeof ReadinessSchema>;

export const HEALTH_COMPONENTS: Record<string, TSchema> = {
  Health: HealthSchema,
  Readiness: ReadinessSchema,
};

/** How long /readyz waits for the store before calling it failing (a balancer's check must not hang). */
export const READINESS_STORE_TIMEOUT_MS = 2_000;
/** A readiness result is reused this long, so frequent polling costs one query per second at most. */
export const READINESS_CACHE_MS = 1_000;
