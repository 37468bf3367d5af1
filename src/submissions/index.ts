// INTERFACE ONLY — the submissions engineer replaces this file with the real room.
import type { Logger } from 'pino';
import type { Config } from '../config/index.js';
import type { LeadRequest, LeadSuccess, SuggestionRequest, SuggestionSuccess } from '../contract/index.js';

/** What the HTTP layer knows of the request, for abuse control and the operator (no body data). */
export interface SubmissionMeta {
  requestId: string;
  clientIp: string;
  userAgent: string | undefined;
  idempotencyKey: string | undefined;
}

export interface SubmissionService {
  acceptLead(request: LeadRequest, meta: SubmissionMeta): Promise<LeadSuccess>;
  acceptSuggestion(request: SuggestionRequest, meta: SubmissionMeta): Promise<SuggestionSuccess>;
  /** Starts the background delivery worker. */
  start(): void;
  /** Stops the worker, waits for attempts in flight, closes the store. */
  close(): Promise<void>;
}

export declare function createSubmissionService(config: Config, logger: Logger): Promise<SubmissionService>;
