// PLACEHOLDER — replaced by the engineer who owns this route module.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app.js';

export async function registerAskRoutes(_app: FastifyInstance, _context: AppContext): Promise<void> {}
