import { parseRetryAfter } from '../backoff.js';
import { webhookPayload } from '../message.js';
import { signWebhook } from '../webhook-signature.js';
import type { AttemptResult, DeliveryProvider, FormLookup } from './types.js';

export interface CrmProviderOptions {
  url: string;
  secret: string;
  now?: () => number;
  /** The configured form a submission came from (its words and field labels), if any. */
  formOf?: FormLookup;
}

/**
 * `crm`: a JSON POST signed the Standard Webhooks way. `webhook-id` is the submission id on every
 * attempt, so the receiver can drop a repeat; the timestamp and signature are fresh per attempt.
 * Redirects are not followed: a signed personal-data POST goes only where it was configured.
 */
export function createCrmProvider(options: CrmProviderOptions): DeliveryProvider {
  const now = options.now ?? Date.now;
  return {
    name: 'crm',
    deliver: async (submission, _attempt, signal) => {
      const body = webhookPayload(submission, options.formOf?.(submission));
      const timestamp = Math.floor(now() / 1000);
      let response: Response;
      try {
        response = await fetch(options.url, {
          method: 'POST',
          redirect: 'manual',
          signal,
          headers: {
            'content-type': 'application/json',
            'user-agent': 'frontdoor-webhooks/1',
            'webhook-id': submission.id,
            'webhook-timestamp': String(timestamp),
            'webhook-signature': signWebhook(options.secret, submission.id, timestamp, body),
          },
          body,
        });
      } catch (error) {
        return { outcome: 'retry', errorClass: networkErrorClass(error, signal), retryAfterMs: null };
      }
      // The body is not needed; reading it frees the connection, and a slow body must not stall us.
      await response.body?.cancel().catch(() => undefined);
      return classifyHttpStatus(response.status, response.headers.get('retry-after'), now());
    },
    close: async () => undefined,
  };
}

/** 2xx delivered; 408, 429 and 5xx may pass later; any other status will not. */
export function classifyHttpStatus(status: number, retryAfter: string | null, nowMs: number): AttemptResult {
  if (status >= 200 && status < 300) return { outcome: 'delivered' };
  const errorClass = `http_${status}`;
  if (status === 408 || status === 429 || status >= 500) {
    const honoured = status === 429 || status === 503 ? parseRetryAfter(retryAfter, nowMs) : null;
    return { outcome: 'retry', errorClass, retryAfterMs: honoured };
  }
  return { outcome: 'permanent', errorClass };
}

function networkErrorClass(error: unknown, signal: AbortSignal): string {
  if (signal.aborted) return 'timeout';
  const cause = (error as { cause?: { code?: unknown } }).cause;
  const code = typeof cause?.code === 'string' ? cause.code : '';
  if (code === 'ECONNREFUSED') return 'connection_refused';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection_reset';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'dns';
  if (code.startsWith('UND_ERR_') && code.includes('TIMEOUT')) return 'timeout';
  return 'network_error';
}
