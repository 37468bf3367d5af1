import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  createValidator,
  HONEYPOT_FIELD,
  LeadRequestSchema,
  SOLUTION_PAGE_BY_COMPANY_TYPE,
  SUBMISSION_RETRY_AFTER_SECONDS,
  SuggestionRequestSchema,
  type FieldProblem,
  type LeadRequest,
  type SuggestionRequest,
} from '../../contract/index.js';
import { encodePagePath, type Page } from '../../content/index.js';
import {
  demoPathOf,
  FORM_ACTIONS,
  FORM_ANCHORS,
  renderBuiltInDemoPage,
  renderConfirmationPage,
  renderContentPage,
  renderErrorPage,
  renderStandaloneFormPage,
  type FormKind,
  type FormState,
} from '../../site/index.js';
import { describeError, quarantineReasonOf, type SubmissionMeta } from '../../submissions/index.js';
import { clientAddress } from '../client-address.js';
import { crossSiteProblem } from '../cross-site.js';
import { limitSubmission } from '../rate-limit.js';
import { queryParam, sendHtml, type SiteRoutesContext } from './replies.js';

const validateLead = createValidator(LeadRequestSchema);
const validateSuggestion = createValidator(SuggestionRequestSchema);
/** The contract's bound on a suggestion's text (a pre-filled form never shows more). */
const SUGGESTION_TEXT_MAX_LENGTH = SuggestionRequestSchema.properties.suggestion.maxLength ?? 1000;

/** The string values of a submitted form, for showing them again next to the problems. */
function formValues(body: unknown): Record<string, string> {
  const values: Record<string, string> = {};
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return values;
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (typeof value === 'string') values[key] = value;
    else if (Array.isArray(value) && typeof value[0] === 'string') values[key] = value[0];
  }
  return values;
}

/**
 * The form body without its honeypot field (which the contract does not know), and whether a bot
 * filled it. A plain HTML post carries no fill time: only the enhanced form measures that.
 */
function withoutHoneypot(body: unknown): { body: unknown; honeypotFilled: boolean } {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || !(HONEYPOT_FIELD in body))
    return { body, honeypotFilled: false };
  const { [HONEYPOT_FIELD]: trap, ...rest } = body as Record<string, unknown>;
  const value = Array.isArray(trap) ? trap.join('') : trap;
  return { body: rest, honeypotFilled: typeof value === 'string' && value.trim() !== '' };
}

function metaOf(request: FastifyRequest, honeypotFilled: boolean): SubmissionMeta {
  const userAgent = request.headers['user-agent'];
  const quarantineReason = quarantineReasonOf({ honeypotFilled, fillMs: null }, 0);
  return {
    requestId: request.id,
    clientIp: clientAddress(request),
    userAgent: typeof userAgent === 'string' ? userAgent.slice(0, 500) : undefined,
    idempotencyKey: undefined,
    ...(quarantineReason ? { quarantineReason } : {}),
  };
}

/**
 * The forms' routes for browsers without JavaScript: the urlencoded post (re-rendering the form
 * with its problems, or redirecting to a confirmation), the confirmation page, and a GET on a
 * form's address.
 */
export function registerFormRoutes(app: FastifyInstance, { context, view }: SiteRoutesContext): void {
  /** The page a form is re-rendered on: the page it was sent from when that page carries it. */
  const formPageFor = (kind: FormKind, values: Record<string, string>): Page | null => {
    const from = values.sourcePage ? context.site.byUrl.get(values.sourcePage) : undefined;
    if (from?.form === kind) return from;
    if (kind === 'demo') return context.site.pages.find((page) => page.form === 'demo') ?? null;
    const audiencePage =
      values.companyType === 'cro' || values.companyType === 'research-site'
        ? context.site.byUrl.get(SOLUTION_PAGE_BY_COMPANY_TYPE[values.companyType])
        : undefined;
    if (audiencePage?.form === 'suggestion') return audiencePage;
    return context.site.pages.find((page) => page.form === 'suggestion') ?? null;
  };

  const renderFormPage = (kind: FormKind, state: FormState): string => {
    const page = formPageFor(kind, { ...state.values });
    if (page) return renderContentPage(view(), page, state);
    if (kind === 'demo') return renderBuiltInDemoPage(view(), state);
    return renderStandaloneFormPage(view(), kind, FORM_ACTIONS[kind], state);
  };

  const handleForm = async <T>(
    kind: FormKind,
    request: FastifyRequest,
    reply: FastifyReply,
    validate: (body: unknown) => { ok: true; value: T } | { ok: false; problems: FieldProblem[] },
    accept: (value: T, meta: SubmissionMeta) => Promise<{ provider: string }>,
  ) => {
    const values = formValues(request.body);
    const crossSite = crossSiteProblem(request.headers, context.config.publicBaseUrl);
    if (crossSite)
      return sendHtml(
        reply,
        403,
        renderErrorPage(view(), FORM_ACTIONS[kind], 403, {
          ok: false,
          error: 'Forbidden',
          code: 'VALIDATION_ERROR',
          message: `The form was sent from another site: Origin ${crossSite.message}.`,
          resolution: `Open the form on this site and ${crossSite.fix}.`,
        }),
      );
    const trap = withoutHoneypot(request.body);
    const result = validate(trap.body);
    if (!result.ok) return sendHtml(reply, 400, renderFormPage(kind, { values, problems: result.problems }));
    // The same per-client limit as the API operation: the HTML form is no way around it.
    const refused = await limitSubmission(context, request, reply, kind === 'demo' ? 'leads' : 'suggestions');
    if (refused)
      return sendHtml(
        reply,
        429,
        renderFormPage(kind, {
          values,
          problems: [],
          formError: `${refused.body.message} ${refused.body.resolution}`,
        }),
      );
    let provider: string;
    try {
      ({ provider } = await accept(result.value, metaOf(request, trap.honeypotFilled)));
    } catch (error) {
      request.log.error(describeError(error), 'form submission not stored');
      reply.header('retry-after', String(SUBMISSION_RETRY_AFTER_SECONDS));
      const mailbox = context.site.info.salesEmail ? ` or write to ${context.site.info.salesEmail}` : '';
      return sendHtml(
        reply,
        500,
        renderFormPage(kind, {
          values,
          problems: [],
          formError: `Your ${kind === 'demo' ? 'request' : 'suggestion'} could not be sent just now (reference ${request.id}). Nothing was stored: please try again in a moment${mailbox}.`,
        }),
      );
    }
    const query = new URLSearchParams();
    if (provider === 'mailto') query.set('via', 'mailto');
    if (values.sourcePage && context.site.byUrl.has(values.sourcePage)) query.set('from', values.sourcePage);
    const search = query.size > 0 ? `?${query.toString()}` : '';
    // POST-redirect-GET: reloading the confirmation does not send the form again.
    return reply
      .code(303)
      .header('cache-control', 'no-store')
      .header('location', `${FORM_ACTIONS[kind]}/sent${search}`)
      .send();
  };

  app.post('/forms/demo-request', (request, reply) =>
    handleForm<LeadRequest>('demo', request, reply, validateLead, (value, meta) =>
      context.submissions.acceptLead(value, meta),
    ),
  );
  app.post('/forms/document-suggestion', (request, reply) =>
    handleForm<SuggestionRequest>('suggestion', request, reply, validateSuggestion, (value, meta) =>
      context.submissions.acceptSuggestion(value, meta),
    ),
  );

  // A GET on a form's address (a bookmarked or reloaded result) goes to the page with the form.
  for (const kind of ['demo', 'suggestion'] as const) {
    app.get(FORM_ACTIONS[kind], (request, reply) => {
      // A link may open the suggestion form with its text filled in (the insight report turns a
      // search that found nothing into one); nothing is sent until the visitor submits the form.
      const prefilled = kind === 'suggestion' ? queryParam(request, 'suggestion').trim() : '';
      if (prefilled !== '')
        return sendHtml(
          reply,
          200,
          renderFormPage('suggestion', {
            values: { suggestion: Array.from(prefilled).slice(0, SUGGESTION_TEXT_MAX_LENGTH).join('') },
            problems: [],
          }),
        );
      const page = kind === 'demo' ? demoPathOf(context.site) : formPageFor('suggestion', {})?.url;
      const target = page ? `${encodePagePath(page)}#${FORM_ANCHORS[kind]}` : '/';
      return reply.code(303).header('location', target).send();
    });
    app.get(`${FORM_ACTIONS[kind]}/sent`, (request, reply) => {
      const from = context.site.byUrl.get(queryParam(request, 'from')) ?? null;
      const html = renderConfirmationPage(view(), kind, `${FORM_ACTIONS[kind]}/sent`, {
        mailto: queryParam(request, 'via') === 'mailto',
        from,
      });
      return sendHtml(reply, 200, html);
    });
  }
}
