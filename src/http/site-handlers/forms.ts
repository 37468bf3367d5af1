import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  createValidator,
  HONEYPOT_FIELD,
  REQUEST_DEMO,
  SUGGEST_DOCUMENT,
  type FormRequest,
  type LeadRequest,
  type SuggestionRequest,
  SOLUTION_PAGE_BY_COMPANY_TYPE,
  SUBMISSION_RETRY_AFTER_SECONDS,
  type FieldProblem,
  type SuggestionCompanyType,
} from '../../contract/index.js';
import { encodePagePath, type Page } from '../../content/index.js';
import { formatMessage, messagesFor, type Messages } from '../../language/index.js';
import {
  renderConfirmationPage,
  renderContentPage,
  renderErrorPage,
  renderFormFallbackPage,
  type FormDescriptor,
  type FormState,
} from '../../site/index.js';
import {
  describeError,
  quarantineReasonOf,
  type SubmissionMeta,
  type SubmissionService,
} from '../../submissions/index.js';
import { clientAddress } from '../client-address.js';
import { crossSiteProblem } from '../cross-site.js';
import { limitSubmission } from '../rate-limit.js';
import { queryParam, sendHtml, type SiteRoutesContext } from './replies.js';

/** A form's body checked against its API operation's schema; when valid, how to store it. */
type CheckedSubmission =
  | { ok: false; problems: FieldProblem[] }
  | { ok: true; accept(meta: SubmissionMeta): Promise<{ provider: string }> };

/**
 * What the server does with each form's post: the same validation, rate limit and service call
 * as its API operation (the limit and the service keep the contract's word for a demo request).
 */
function operationOf(form: FormDescriptor): {
  limit: 'leads' | 'suggestions';
  check(service: SubmissionService, body: unknown): CheckedSubmission;
} {
  const { definition } = form;
  const validate = createValidator(form.schema);
  return {
    limit: definition.delivery,
    check(service, body) {
      const result = validate(body);
      if (!result.ok) return result;
      const value = result.value as FormRequest;
      if (definition === REQUEST_DEMO)
        return { ok: true, accept: (meta) => service.acceptLead(value as LeadRequest, meta) };
      if (definition === SUGGEST_DOCUMENT)
        return { ok: true, accept: (meta) => service.acceptSuggestion(value as SuggestionRequest, meta) };
      return { ok: true, accept: (meta) => service.acceptForm(definition, value, meta) };
    },
  };
}

/** The longest value a link may fill into a form's field: the contract's bound on it. */
function prefillMaxLength(form: FormDescriptor, field: string): number {
  const maxLength = form.schema.properties[field]?.maxLength;
  return typeof maxLength === 'number' ? maxLength : Infinity;
}

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
export function registerFormRoutes(app: FastifyInstance, { context, view, forms }: SiteRoutesContext): void {
  const operations = new Map([...forms.values()].map((form) => [form, operationOf(form)]));
  /** The page a form is re-rendered on: the page it was sent from when that page carries it. */
  const formPageFor = (form: FormDescriptor, values: Record<string, string>): Page | null => {
    const from = values.sourcePage ? context.site.byUrl.get(values.sourcePage) : undefined;
    if (from?.form === form.kind) return from;
    if (form.followsAudience) {
      const companyType = values.companyType as SuggestionCompanyType | undefined;
      const audiencePath =
        companyType !== undefined && Object.hasOwn(SOLUTION_PAGE_BY_COMPANY_TYPE, companyType)
          ? SOLUTION_PAGE_BY_COMPANY_TYPE[companyType]
          : undefined;
      const audiencePage = audiencePath ? context.site.byUrl.get(audiencePath) : undefined;
      if (audiencePage?.form === form.kind) return audiencePage;
    }
    return context.site.pages.find((page) => page.form === form.kind) ?? null;
  };

  /** The catalogue of the page a form is shown again on: its language, else the site's. */
  const wordsFor = (form: FormDescriptor, values: Record<string, string>): Messages =>
    messagesFor(formPageFor(form, values)?.lang ?? context.site.info.language);

  const renderFormPage = (form: FormDescriptor, state: FormState): string => {
    const page = formPageFor(form, { ...state.values });
    if (page) return renderContentPage(view(), page, state);
    return renderFormFallbackPage(view(), form, form.action, state);
  };

  const handleForm = async (form: FormDescriptor, request: FastifyRequest, reply: FastifyReply) => {
    const operation = operations.get(form)!;
    const values = formValues(request.body);
    const crossSite = crossSiteProblem(request.headers, context.config.publicBaseUrl);
    if (crossSite)
      return sendHtml(
        reply,
        403,
        renderErrorPage(view(), form.action, 403, {
          ok: false,
          error: 'Forbidden',
          code: 'VALIDATION_ERROR',
          message: `The form was sent from another site: Origin ${crossSite.message}.`,
          resolution: `Open the form on this site and ${crossSite.fix}.`,
        }),
      );
    const trap = withoutHoneypot(request.body);
    const checked = operation.check(context.submissions, trap.body);
    if (!checked.ok)
      return sendHtml(reply, 400, renderFormPage(form, { values, problems: checked.problems }));
    // The same per-client limit as the API operation: the HTML form is no way around it.
    const refused = await limitSubmission(context, request, reply, operation.limit);
    if (refused) {
      const { quota, windowSeconds } = refused.decision.policy;
      return sendHtml(
        reply,
        429,
        renderFormPage(form, {
          values,
          problems: [],
          formError: formatMessage(wordsFor(form, values).formTooMany, {
            quota,
            seconds: windowSeconds,
            wait: refused.decision.resetSeconds,
          }),
        }),
      );
    }
    let provider: string;
    try {
      ({ provider } = await checked.accept(metaOf(request, trap.honeypotFilled)));
    } catch (error) {
      request.log.error(describeError(error), 'form submission not stored');
      reply.header('retry-after', String(SUBMISSION_RETRY_AFTER_SECONDS));
      const email = context.site.info.salesEmail;
      const words = wordsFor(form, values);
      return sendHtml(
        reply,
        500,
        renderFormPage(form, {
          values,
          problems: [],
          formError: formatMessage(email ? words.formNotStoredWriteTo : words.formNotStored, {
            reference: request.id,
            email,
          }),
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
      .header('location', `${form.action}/sent${search}`)
      .send();
  };

  for (const form of forms.values()) {
    app.post(form.action, (request, reply) => handleForm(form, request, reply));

    // A GET on a form's address (a bookmarked or reloaded result) goes to the page with the form.
    app.get(form.action, (request, reply) => {
      // A link may open a form with a field filled in; nothing is sent until the visitor submits it.
      const field = form.prefillField;
      const prefilled = field ? queryParam(request, field).trim() : '';
      if (field && prefilled !== '')
        return sendHtml(
          reply,
          200,
          renderFormPage(form, {
            values: { [field]: Array.from(prefilled).slice(0, prefillMaxLength(form, field)).join('') },
            problems: [],
          }),
        );
      const page = formPageFor(form, {})?.url ?? form.builtInPage?.path;
      const target = page ? `${encodePagePath(page)}#${form.anchor}` : '/';
      return reply.code(303).header('location', target).send();
    });
    app.get(`${form.action}/sent`, (request, reply) => {
      const from = context.site.byUrl.get(queryParam(request, 'from')) ?? null;
      // Shown in the language of the page the form was sent from, else the site's.
      const html = renderConfirmationPage(view(), form, `${form.action}/sent`, {
        mailto: queryParam(request, 'via') === 'mailto',
        from,
      });
      return sendHtml(reply, 200, html);
    });
  }
}
