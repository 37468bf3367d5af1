import type { FormDefinition } from '../../contract/index.js';
import type { DeliveringProvider, SubmissionRecord } from '../types.js';

/** The configured form a stored submission came from (undefined: a seed form, known by its kind). */
export type FormLookup = (submission: SubmissionRecord) => FormDefinition | undefined;

/**
 * How one attempt ended. `retry` covers what may pass later (timeouts, refused connections,
 * SMTP 4xx, HTTP 408/429/5xx); `permanent` what will not (SMTP 5xx, other HTTP 4xx) and goes
 * straight to the dead letters. `errorClass` is a short code such as `http_503` or `smtp_550`:
 * it is logged and stored, so it never contains personal data.
 */
export type AttemptResult =
  | { outcome: 'delivered' }
  | { outcome: 'retry'; errorClass: string; retryAfterMs: number | null }
  | { outcome: 'permanent'; errorClass: string };

export interface DeliveryProvider {
  readonly name: DeliveringProvider;
  /** One attempt. It must end by `signal` (the attempt's time cap) and never throw. */
  deliver(submission: SubmissionRecord, attempt: number, signal: AbortSignal): Promise<AttemptResult>;
  close(): Promise<void>;
}
