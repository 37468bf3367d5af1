import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  API_PREFIX,
  createValidator,
  FILL_TIME_HEADER,
  HONEYPOT_HEADER,
  LeadRequestSchema,
  REQUEST_DEMO,
  requestSchemaOf,
  SUGGEST_DOCUMENT,
  successStatusOf,
  type FormRequest,
  type ValidationResult,
  SUBMISSION_RETRY_AFTER_SECONDS,
  submissionNotStoredBody,
  SuggestionRequestSchema,
  validationErrorBody,
  type FieldProblem,
} from '../../contract/index.js';
import {
  describeError,
  IdempotencyKeyConflictError,
  quarantineReasonOf,
  type SubmissionMeta,
} from '../../submissions/index.js';
import type { AppContext, SurfaceOptions } from '../context.js';
import { errorHandlerRendering, notFoundHandler, renderEnvelope, sendEnvelope } from '../errors.js';
import { clientAddress } from '../client-address.js';
import { crossSiteProblem } from '../cross-site.js';
import { registerFormCors } from '../form-cors.js';
import { limitSubmission } from '../rate-limit.js';

const validateLead = createValidator(LeadRequestSchema);
const validateSuggestion = createValidator(SuggestionRequestSchema);

/** Printable ASCII without spaces, as the IETF Idempotency-Key draft's examples; quotes optional. */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** The Idempotency-Key header, unquoted; a problem when it is malformed or repeated. */
export function readIdempotencyKey(
  headers: FastifyRequest['headers'],
): { key: string | undefined } | { problem: FieldProblem } {
  const raw = headers['idempotency-key'];
  if (raw === undefined) return { key: undefined };
  const value = Array.isArray(raw) ? raw.join(', ') : raw;
  const unquoted = /^"[^"]*"$/.test(value) ? value.slice(1, -1) : value;
  if (IDEMPOTENCY_KEY.test(unquoted)) return { key: unquoted };
  return {
    problem: {
      field: 'Idempotency-Key',
      message: 'must be 1 to 255 printable characters without spaces, sent once',
      fix: 'send one key such as a UUID, e.g. Idempotency-Key: "8e03978e-40d5-43e8-bc93-6894a57f9324"',
    },
  };
}

const KEY_CONFLICT: FieldProblem = {
  field: 'Idempotency-Key',
  message: 'was already used with a different request body',
  fix: 'send a new key for a new submission, or resend the original body unchanged to get its answer again',
};

/**
 * The site forms' spam-trap headers (see contract/form-traps.ts), read only from a browser on this
 * site's own pages: a request with this site's Origin (a foreign one was refused before). They are
 * the site's protocol with its own script, not part of the public API: from any other caller
 * (agents, servers: no Origin) headers of these names are ignored, so /openapi.json does not list
 * them as parameters.
 */
function formTrapSignals(headers: FastifyRequest['headers']) {
  if (headers.origin === undefined) return { honeypotFilled: false, fillMs: null };
  const honeypot = headers[HONEYPOT_HEADER];
  const fill = headers[FILL_TIME_HEADER];
  const fillMs = typeof fill === 'string' && /^\d{1,12}$/.test(fill.trim()) ? Number(fill.trim()) : null;
  return { honeypotFilled: typeof honeypot === 'string' && honeypot.trim() === '1', fillMs };
}

function metaOf(
  request: FastifyRequest,
  idempotencyKey: string | undefined,
  formMinFillMs: number,
): SubmissionMeta {
  const userAgent = request.headers['user-agent'];
  const quarantineReason = quarantineReasonOf(formTrapSignals(request.headers), formMinFillMs);
  return {
    requestId: request.id,
    clientIp: clientAddress(request),
    userAgent: typeof userAgent === 'string' ? userAgent.slice(0, 500) : undefined,
    idempotencyKey,
    ...(quarantineReason ? { quarantineReason } : {}),
  };
}

/**
 * The API surface: everything under /api/, answered in the spec's Error envelope. A GET under the
 * prefix is the API's too (no page lives there), so it reaches this surface's not-found handler
 * rather than the site's catch-all.
 */
export async function registerApiSurface(app: FastifyInstance, options: SurfaceOptions): Promise<void> {
  const { context, allowedMethods } = options;
  await app.register(
    async (api) => {
      api.setErrorHandler(
        errorHandlerRendering(renderEnvelope, { bodyLimitBytes: context.config.bodyLimitBytes }),
      );
      api.setNotFoundHandler(notFoundHandler(allowedMethods));
      api.get('/*', (_request, reply) => reply.callNotFound());
      registerFormCors(
        api,
        context.config.corsOrigins,
        context.forms.map((form) => underApiPrefix(form.path)),
      );
      registerSubmissionRoutes(api, context);
    },
    { prefix: API_PREFIX },
  );
}

/** A contract path relative to the API prefix the surface is registered under. */
function underApiPrefix(path: string): string {
  if (!path.startsWith(API_PREFIX)) throw new Error(`${path} is not under ${API_PREFIX}`);
  return path.slice(API_PREFIX.length - 1);
}

/**
 * POST /api/leads and POST /api/document-suggestions: refuse cross-site posts, validate with the
 * contract, store durably, answer. A 500 is sent only when the store refused the write.
 */
function registerSubmissionRoutes(app: FastifyInstance, context: AppContext): void {
  const submit = async <T>(
    request: FastifyRequest,
    reply: FastifyReply,
    validate: (body: unknown) => { ok: true; value: T } | { ok: false; problems: FieldProblem[] },
    accept: (value: T, meta: SubmissionMeta) => Promise<object>,
    status: number,
    limit: 'leads' | 'suggestions',
  ) => {
    reply.header('cache-control', 'no-store');
    const { publicBaseUrl, corsOrigins } = context.config;
    const crossSite = crossSiteProblem(request.headers, publicBaseUrl, corsOrigins);
    if (crossSite) return sendEnvelope(reply, 400, validationErrorBody([crossSite]));
    const key = readIdempotencyKey(request.headers);
    const result = validate(request.body);
    const problems = [...('problem' in key ? [key.problem] : []), ...(result.ok ? [] : result.problems)];
    if (problems.length > 0 || !result.ok) return sendEnvelope(reply, 400, validationErrorBody(problems));
    // Counted once valid: a person correcting a form is not held back by their own mistakes.
    const refused = await limitSubmission(context, request, reply, limit);
    if (refused) return sendEnvelope(reply, 429, refused.body);

    try {
      const meta = metaOf(
        request,
        'key' in key ? key.key : undefined,
        context.config.submissions.formMinFillMs,
      );
      const answer = await accept(result.value, meta);
      return reply.code(status).type('application/json; charset=utf-8').send(answer);
    } catch (error) {
      if (error instanceof IdempotencyKeyConflictError)
        return sendEnvelope(reply, 400, validationErrorBody([KEY_CONFLICT]));
      // The class only: a database message may quote the submitted values.
      request.log.error(describeError(error), 'submission could not be stored');
      reply.header('retry-after', String(SUBMISSION_RETRY_AFTER_SECONDS));
      return sendEnvelope(reply, 500, submissionNotStoredBody(request.id));
    }
  };

  // One route per form of the site: the seed's answer as the contract fixes it, a configured form's
  // like the seed form of its delivery route (200 for leads, 201 for suggestions).
  for (const form of context.forms) {
    const status = successStatusOf(form);
    if (form === REQUEST_DEMO)
      app.post(underApiPrefix(form.path), (request, reply) =>
        submit(
          request,
          reply,
          validateLead,
          (value, meta) => context.submissions.acceptLead(value, meta),
          status,
          'leads',
        ),
      );
    else if (form === SUGGEST_DOCUMENT)
      app.post(underApiPrefix(form.path), (request, reply) =>
        submit(
          request,
          reply,
          validateSuggestion,
          (value, meta) => context.submissions.acceptSuggestion(value, meta),
          status,
          'suggestions',
        ),
      );
    else {
      const validate = createValidator(requestSchemaOf(form));
      app.post(underApiPrefix(form.path), (request, reply) =>
        submit(
          request,
          reply,
          (body) => validate(body) as ValidationResult<FormRequest>,
          (value, meta) => context.submissions.acceptForm(form, value, meta),
          status,
          form.delivery,
        ),
      );
    }
  }
}
