import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Config } from '../config/index.js';
import {
  DEFAULT_FORMS,
  SOLUTION_PAGE_BY_COMPANY_TYPE,
  type FormDefinition,
  type FormRequest,
  type LeadRequest,
  type LeadSuccess,
  type SuggestionRequest,
  type SuggestionSuccess,
} from '../contract/index.js';
import { DeliveryEngine, type DeliveryGate, type DeliveryMetrics } from './delivery.js';
import { describeError } from './errors.js';
import { contentFingerprint, DUPLICATE_WINDOW_MS, requestHash } from './fingerprint.js';
import { createProviders, type DeliveryProvider } from './providers/index.js';
import { openSubmissionStore, type SubmissionStore } from './store/index.js';
import type {
  AnswerProvider,
  DeliveringProvider,
  QuarantineReason,
  SubmissionFields,
  SubmissionKind,
  SubmissionRecord,
} from './types.js';

export type * from './types.js';
export type { SubmissionStore } from './store/index.js';
export { openSubmissionStore } from './store/index.js';
export { describeError, errorClassOf } from './errors.js';
export { quarantineReasonOf, type FormTrapSignals } from './quarantine.js';
export { DUPLICATE_WINDOW_MS } from './fingerprint.js';
export { multiLine, singleLine } from './safe-text.js';
export type { DeliveryGate, DeliveryMetrics } from './delivery.js';

/** What the HTTP layer knows of the request, for abuse control and the operator (no body data). */
export interface SubmissionMeta {
  requestId: string;
  clientIp: string;
  userAgent: string | undefined;
  idempotencyKey: string | undefined;
  /** Set by the site's forms when their spam trap tripped: the submission is held, not delivered. */
  quarantineReason?: QuarantineReason;
}

/** The Idempotency-Key was used before with a different body; nothing was stored. */
export class IdempotencyKeyConflictError extends Error {
  constructor() {
    super('Idempotency-Key was already used with a different request body');
    this.name = 'IdempotencyKeyConflictError';
  }
}

export interface SubmissionService {
  /**
   * Stores the demo request with its outbox row in one transaction, then tries to deliver it
   * within the inline budget. Resolves only after the commit; rejects when nothing was stored.
   */
  acceptLead(request: LeadRequest, meta: SubmissionMeta): Promise<LeadSuccess>;
  acceptSuggestion(request: SuggestionRequest, meta: SubmissionMeta): Promise<SuggestionSuccess>;
  /**
   * A configured form's submission (`forms:` in _site.yaml): stored under its delivery route's
   * kind with the form's id, delivered like the seed forms. Same durability: resolves after the commit.
   */
  acceptForm(
    form: FormDefinition,
    request: FormRequest,
    meta: SubmissionMeta,
  ): Promise<{ ok: true; provider: AnswerProvider; delivered: boolean }>;
  /** Starts the background delivery worker (due rows, including those left by a crash, are picked up at once). */
  start(): void;
  /** Runs one worker poll now; returns how many deliveries were attempted. */
  deliverDue(): Promise<number>;
  /** Erases the personal fields of submissions delivered longer ago than the retention; returns how many. */
  eraseExpired(): Promise<number>;
  /** Stops the worker, waits for attempts in flight, closes the providers and the store. */
  close(): Promise<void>;
  readonly store: SubmissionStore;
}

export interface SubmissionServiceOptions {
  /** An already opened store (tests, the CLI); by default the one the configuration names. */
  store?: SubmissionStore;
  now?: () => number;
  random?: () => number;
  /** Where delivery outcomes are counted (the server's metrics). */
  metrics?: DeliveryMetrics;
  /** The global delivery cap (the server's rate limits). */
  deliveryGate?: DeliveryGate | null;
  /** The site's forms (default: the seed's), for the words and labels of e-mails and webhooks. */
  forms?: readonly FormDefinition[];
}

/** How often the retention sweep runs (it also runs at start). */
const RETENTION_SWEEP_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

const LEAD_FIELDS = [
  'name',
  'firstName',
  'lastName',
  'email',
  'company',
  'role',
  'message',
  'teamSize',
  'timeline',
  'companyType',
  'persona',
  'sourcePage',
] as const satisfies readonly (keyof LeadRequest)[];

const SUGGESTION_FIELDS = [
  'companyType',
  'persona',
  'suggestion',
  'email',
  'sourcePage',
] as const satisfies readonly (keyof SuggestionRequest)[];

/** Every field either form stores, lead fields first, each once: the columns of an export. */
export const SUBMISSION_FIELDS: readonly string[] = [
  ...new Set<string>([...LEAD_FIELDS, ...SUGGESTION_FIELDS]),
];

/** Builds the stored fields one by one from the validated request: nothing else is carried over. */
function pick<T extends object>(request: T, keys: readonly (keyof T & string)[]): SubmissionFields {
  const fields: SubmissionFields = {};
  for (const key of keys) {
    const value = request[key];
    if (typeof value === 'string') fields[key] = value;
  }
  return fields;
}

export async function createSubmissionService(
  config: Config,
  logger: Logger,
  options: SubmissionServiceOptions = {},
): Promise<SubmissionService> {
  const now = options.now ?? Date.now;
  const store =
    options.store ??
    (await openSubmissionStore(config.database, {
      onConnectionError: (error) =>
        logger.warn(describeError(error), 'database connection lost; the pool replaces it'),
      onMigrated: (applied) => {
        if (applied.length > 0) logger.info({ migrations: applied }, 'database schema migrated');
      },
    }));
  const configuredForms = new Map(
    (options.forms ?? DEFAULT_FORMS)
      .filter((form) => !DEFAULT_FORMS.includes(form))
      .map((form) => [form.id, form]),
  );
  const formOf = (submission: SubmissionRecord) =>
    submission.form === null ? undefined : configuredForms.get(submission.form);
  const providers: Map<DeliveringProvider, DeliveryProvider> = createProviders(config, logger, now, formOf);
  const engine = new DeliveryEngine({
    config: config.delivery,
    store,
    providers,
    logger,
    now,
    random: options.random ?? Math.random,
    metrics: options.metrics ?? null,
    gate: options.deliveryGate ?? null,
  });

  const routeOf = (
    kind: SubmissionKind,
  ): { answer: AnswerProvider; delivering: DeliveringProvider | null } => {
    const configured = config.delivery[kind].provider;
    if (configured === 'none') return { answer: kind === 'lead' ? 'mailto' : 'server-log', delivering: null };
    return { answer: configured, delivering: configured };
  };

  /** Stores, then answers with whether the provider confirmed within the inline budget. */
  const accept = async (
    kind: SubmissionKind,
    fields: SubmissionFields,
    meta: SubmissionMeta,
    form: string | null = null,
  ): Promise<{ record: SubmissionRecord; delivered: boolean }> => {
    // A configured form's submissions are told apart from another form's of the same kind.
    const scope = form === null ? kind : `${kind}:${form}`;
    const receivedAtMs = now();
    const route = routeOf(kind);
    const leaseToken = randomUUID();
    const quarantineReason = meta.quarantineReason ?? null;
    const outcome = await store.insert(
      {
        id: randomUUID(),
        kind,
        receivedAtMs,
        provider: route.answer,
        fields,
        requestId: meta.requestId,
        clientIp: meta.clientIp,
        userAgent: meta.userAgent ?? null,
        idempotencyKey: meta.idempotencyKey ?? null,
        fingerprint: contentFingerprint(scope, fields),
        requestHash: requestHash(scope, fields),
        quarantineReason,
        form,
        outbox: route.delivering
          ? { provider: route.delivering, leaseToken, leaseUntilMs: receivedAtMs + engine.leaseMs }
          : null,
      },
      receivedAtMs - DUPLICATE_WINDOW_MS,
    );

    if (outcome.status === 'key-conflict') {
      logger.info({ kind, requestId: meta.requestId }, 'idempotency key reused with another body');
      throw new IdempotencyKeyConflictError();
    }
    const { record } = outcome;
    if (outcome.status !== 'created' && outcome.status !== 'released') {
      // The original answer, with what is true now: a delivery confirmed since then counts.
      logger.info(
        { submissionId: record.id, kind, provider: record.provider, match: outcome.status },
        'repeated submission answered with the original',
      );
      return { record, delivered: record.delivery?.state === 'delivered' };
    }

    // One line per event: stored (or quarantined) here; delivered, retried or dead-lettered by the engine.
    const stored = { submissionId: record.id, kind, provider: record.provider, requestId: meta.requestId };
    if (outcome.status === 'released') {
      logger.info(
        { ...stored, quarantineReason: record.quarantineReason },
        'quarantined submission released by the same submission sent again without a tripped trap',
      );
    } else if (quarantineReason !== null) {
      logger.info({ ...stored, quarantineReason }, 'submission quarantined (not delivered until released)');
      return { record, delivered: false };
    } else if (!route.delivering) {
      logger.info(
        stored,
        kind === 'lead'
          ? 'demo request stored; no delivery configured (LEAD_DELIVERY=none)'
          : 'document suggestion stored; no delivery configured (SUGGESTION_DELIVERY=none)',
      );
      return { record, delivered: false };
    } else logger.info(stored, 'submission stored');
    const provider = record.delivery?.provider ?? route.delivering;
    if (!provider) return { record, delivered: false };
    const attempt = engine.attemptFirst({
      submission: record,
      provider,
      attempt: 1,
      leaseToken,
    });
    let budget: NodeJS.Timeout | undefined;
    const delivered = await Promise.race([
      attempt,
      new Promise<boolean>((resolve) => {
        budget = setTimeout(() => resolve(false), config.delivery.inlineBudgetMs);
      }),
    ]).catch(() => false);
    clearTimeout(budget);
    return { record, delivered };
  };

  const retentionMs = config.submissions.retentionDays * DAY_MS;
  let retentionTimer: NodeJS.Timeout | null = null;
  const eraseExpired = async (): Promise<number> => {
    if (retentionMs === 0) return 0;
    const nowMs = now();
    return store.eraseDelivered(nowMs - retentionMs, nowMs);
  };
  const sweep = async () => {
    try {
      const erased = await eraseExpired();
      if (erased > 0)
        logger.info(
          { erased, retentionDays: config.submissions.retentionDays },
          'personal fields of delivered submissions erased (retention)',
        );
    } catch (error) {
      logger.warn(describeError(error), 'retention sweep failed; it runs again within the hour');
    }
  };

  return {
    store,
    acceptLead: async (request, meta) => {
      const { record, delivered } = await accept('lead', pick(request, LEAD_FIELDS), meta);
      return { ok: true, provider: record.provider as LeadSuccess['provider'], delivered };
    },
    acceptSuggestion: async (request, meta) => {
      const fields = pick(request, SUGGESTION_FIELDS);
      fields.sourcePage = request.sourcePage ?? SOLUTION_PAGE_BY_COMPANY_TYPE[request.companyType];
      const { record, delivered } = await accept('suggestion', fields, meta);
      return {
        ok: true,
        provider: record.provider as SuggestionSuccess['provider'],
        delivered,
        sourcePage: record.fields.sourcePage ?? fields.sourcePage,
      };
    },
    acceptForm: async (form, request, meta) => {
      const kind: SubmissionKind = form.delivery === 'leads' ? 'lead' : 'suggestion';
      const names = form.fields.map((field) => field.name);
      const { record, delivered } = await accept(kind, pick(request, names), meta, form.id);
      return { ok: true, provider: record.provider, delivered };
    },
    start: () => {
      engine.start();
      if (retentionMs > 0) {
        void sweep();
        retentionTimer = setInterval(() => void sweep(), RETENTION_SWEEP_MS);
        retentionTimer.unref();
      }
    },
    deliverDue: () => engine.pollOnce(),
    eraseExpired,
    close: async () => {
      if (retentionTimer) clearInterval(retentionTimer);
      await engine.stop();
      await Promise.allSettled([...providers.values()].map((provider) => provider.close()));
      await store.close();
    },
  };
}
