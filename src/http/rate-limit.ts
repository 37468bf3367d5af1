import type { FastifyReply, FastifyRequest } from 'fastify';
import { rateLimitedBody, type ErrorBody } from '../contract/index.js';
import type { AskVerdict, LimitDecision } from '../limits/index.js';
import type { AppContext } from './context.js';
import { clientAddress } from './client-address.js';

const WHAT: Record<'leads' | 'suggestions', string> = {
  leads: 'demo requests',
  suggestions: 'document suggestions',
};

/**
 * Counts a submission against its per-client limit and puts the RateLimit header fields on the
 * reply. Resolves with the refusal (its envelope and decision) when the quota is used up, else null.
 */
export async function limitSubmission(
  context: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  limit: 'leads' | 'suggestions',
): Promise<{ body: ErrorBody; decision: LimitDecision } | null> {
  const client = clientAddress(request);
  const decision = await context.limits.check(limit, client);
  if (decision === null) return null;
  reply.headers(decision.headers);
  if (decision.allowed) return null;
  request.log.info({ limit, client }, 'rate limit reached: 429');
  const { quota, windowSeconds } = decision.policy;
  return { body: rateLimitedBody(WHAT[limit], quota, windowSeconds, decision.resetSeconds), decision };
}

/** /ask's per-client limit for a request the route answers (the fast path checks its own). */
export function askRefusal(context: AppContext, request: FastifyRequest): AskVerdict {
  return context.limits.refuseAsk(clientAddress(request));
}

/** What a search refused by RATE_LIMIT_ASK is told (/ask and the /search page), then what to do. */
export function tooManySearches(refusal: LimitDecision, then: string): string {
  const { quota, windowSeconds } = refusal.policy;
  return (
    `Too many searches from your address: at most ${quota} every ${windowSeconds} seconds are answered. ` +
    `Wait ${refusal.resetSeconds} seconds ${then}`
  );
}
