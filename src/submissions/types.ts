import type { LeadProvider, SuggestionProvider } from '../contract/index.js';

export type SubmissionKind = 'lead' | 'suggestion';
export const SUBMISSION_KINDS: readonly SubmissionKind[] = ['lead', 'suggestion'];

/** The provider named in the answer: a delivering provider, or the no-delivery fallback. */
export type AnswerProvider = LeadProvider | SuggestionProvider;

/** Providers that deliver from the outbox; `mailto` and `server-log` never get an outbox row. */
export type DeliveringProvider = 'log' | 'email-service' | 'crm';
export const DELIVERING_PROVIDERS: readonly DeliveringProvider[] = ['log', 'email-service', 'crm'];

/** `none` = stored without an outbox row (the LEAD_DELIVERY/SUGGESTION_DELIVERY=none fallbacks). */
/** `quarantine`: held for review (a form's spam trap tripped); never delivered until released. */
export type DeliveryState = 'pending' | 'delivered' | 'dead' | 'quarantine';
export const DELIVERY_STATES: readonly DeliveryState[] = ['pending', 'delivered', 'dead', 'quarantine'];

/** Why a submission was quarantined: the form's honeypot field was filled, or it was sent too fast. */
export type QuarantineReason = 'honeypot' | 'too-fast';
export type ListedState = DeliveryState | 'none';

/** The validated request fields as stored (suggestions always carry their resolved sourcePage). */
export type SubmissionFields = Record<string, string>;

export interface DeliveryStatus {
  provider: DeliveringProvider;
  state: DeliveryState;
  /** Attempts started so far (the in-request attempt counts). */
  attempts: number;
  /** When the next attempt is due (ms since the epoch); null once delivered or dead. */
  nextAttemptAtMs: number | null;
  /** Error class of the last failed attempt, e.g. `http_503`, `smtp_451`, `timeout`. Never personal data. */
  lastError: string | null;
  deliveredAtMs: number | null;
}

export interface SubmissionRecord {
  id: string;
  kind: SubmissionKind;
  receivedAtMs: number;
  provider: AnswerProvider;
  fields: SubmissionFields;
  requestId: string;
  clientIp: string;
  userAgent: string | null;
  idempotencyKey: string | null;
  /** Short-window duplicate key: endpoint + normalised e-mail + body hash. */
  fingerprint: string;
  /** Hash of the validated body, compared when an Idempotency-Key is reused. */
  requestHash: string;
  /** Set when a form's spam trap tripped; kept after a release, for the record. */
  quarantineReason: QuarantineReason | null;
  /** When the personal fields were erased (retention or a data-subject request); null while kept. */
  erasedAtMs: number | null;
  /**
   * The operationId of the configured form it came from (`forms:` in _site.yaml); null for the
   * seed's forms, whose kind says which.
   */
  form: string | null;
  /** null when the submission has no outbox row (no delivery configured). */
  delivery: DeliveryStatus | null;
}
