import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { REQUEST_DEMO, SUGGEST_DOCUMENT } from './default-forms.js';
import { requestSchemaOf, StringEnum, type FormDefinition, type RequestSchema } from './form-definition.js';
import { SOLUTION_PAGE_BY_COMPANY_TYPE, type SuggestionCompanyType } from './personas.js';

export { NOT_A_PATH, OneLineString, SINGLE_LINE, StringEnum, VISIBLE } from './form-definition.js';

/**
 * The request and answer shapes of the marketing operations (spec parts 2.1-2.5). These objects
 * are the one source of truth: Ajv validates with them, TypeScript types come from them and
 * /openapi.json publishes them as named component schemas.
 */

export const MAX_QUERY_LENGTH = 1000;

/**
 * Most fields a form body may carry. The largest form has a dozen fields; the cap stops a body of
 * thousands of tiny fields before any work per field is done beyond counting them.
 */
export const MAX_FORM_FIELDS = 64;

/** Seconds a client is asked to wait when this instance is shutting down (another one answers). */
export const SHUTDOWN_RETRY_AFTER_SECONDS = 5;

/** Identical content within this window is one submission (a double click, a resent form). */
export const DUPLICATE_WINDOW_MS = 10 * 60 * 1000;

/**
 * The seed forms' request schemas, derived from their data description (default-forms.ts) like
 * any configured form's.
 */
/** A validated body of any form: its fields as strings (a checkbox sends `yes`). */
export type FormRequest = Readonly<Record<string, string | undefined>>;
export type LeadRequest = FormRequest & { email: string };
export type SuggestionRequest = FormRequest & {
  companyType: SuggestionCompanyType;
  persona: string;
  suggestion: string;
};
/** A form's request schema, whose validated value has the type `T`. */
export type FormRequestSchema<T extends FormRequest> = RequestSchema & { static: T };

export const LeadRequestSchema = requestSchemaOf(REQUEST_DEMO) as unknown as FormRequestSchema<LeadRequest>;
export const SuggestionRequestSchema = requestSchemaOf(
  SUGGEST_DOCUMENT,
) as unknown as FormRequestSchema<SuggestionRequest>;

export const LEAD_PROVIDERS = ['mailto', 'log', 'crm', 'email-service'] as const;
export type LeadProvider = (typeof LEAD_PROVIDERS)[number];
export const SUGGESTION_PROVIDERS = ['server-log', 'log', 'crm', 'email-service'] as const;
export type SuggestionProvider = (typeof SUGGESTION_PROVIDERS)[number];

const PROVIDER_MEANINGS =
  '`log`: written as a structured line to the server log, which the operator has chosen as the destination ' +
  '(delivered once written). `email-service`: sent by SMTP to the configured recipients (delivered once the ' +
  'relay accepted the message). `crm`: POSTed as a signed JSON webhook (delivered once the receiver answered ' +
  '2xx).';

export const LeadSuccessSchema = Type.Object(
  {
    ok: Type.Literal(true),
    provider: StringEnum(LEAD_PROVIDERS, {
      description:
        `${PROVIDER_MEANINGS} \`mailto\`: no delivery is configured (LEAD_DELIVERY=none); the request is ` +
        'stored for the operator and the visitor is offered the sales mailbox as a mailto: link; ' +
        '`delivered` is then always false.',
    }),
    delivered: Type.Boolean({
      description:
        'True when the provider confirmed delivery within the request. False means the request is stored ' +
        'durably and will be delivered by the retry worker (or, with `mailto`, read by the operator).',
    }),
  },
  { additionalProperties: false, title: 'LeadSuccess', description: 'Demo request accepted for delivery.' },
);
export type LeadSuccess = Static<typeof LeadSuccessSchema>;

export const SuggestionSuccessSchema = Type.Object(
  {
    ok: Type.Literal(true),
    provider: StringEnum(SUGGESTION_PROVIDERS, {
      description:
        `${PROVIDER_MEANINGS} \`server-log\`: no delivery is configured (SUGGESTION_DELIVERY=none); the ` +
        'suggestion is stored and its arrival noted in the server log (without personal data) for the ' +
        'product team to read with the operator CLI; `delivered` is then always false.',
    }),
    delivered: Type.Boolean({
      description:
        'True when the provider confirmed delivery within the request. False means the suggestion is stored ' +
        'durably and will be delivered by the retry worker (or, with `server-log`, read by the operator).',
    }),
    sourcePage: Type.String({
      maxLength: 300,
      pattern: '^/solutions/',
      description:
        'The solution page associated with the suggestion: the request’s `sourcePage`, or when it had none the ' +
        `audience page of its companyType (${Object.entries(SOLUTION_PAGE_BY_COMPANY_TYPE)
          .map(([type, page]) => `\`${type}\` → \`${page}\``)
          .join(', ')}).`,
    }),
  },
  {
    additionalProperties: false,
    title: 'SuggestionSuccess',
    description: 'Suggestion accepted for product review.',
  },
);
export type SuggestionSuccess = Static<typeof SuggestionSuccessSchema>;

/**
 * A form's answer schema: the seed's own for the seed's forms; for a configured form, the answer
 * of its delivery route's seed form without the suggestion's `sourcePage`.
 */
export function successSchemaOf(form: FormDefinition): TSchema {
  if (form === REQUEST_DEMO) return LeadSuccessSchema;
  if (form === SUGGEST_DOCUMENT) return SuggestionSuccessSchema;
  const like = form.delivery === 'leads' ? LeadSuccessSchema : SuggestionSuccessSchema;
  return Type.Object(
    { ok: like.properties.ok, provider: like.properties.provider, delivered: like.properties.delivered },
    { additionalProperties: false, title: `${form.schemaName}Success`, description: form.successDescription },
  );
}

export const ERROR_CODES = [
  'INVALID_JSON',
  'PAYLOAD_TOO_LARGE',
  'VALIDATION_ERROR',
  'ENDPOINT_NOT_FOUND',
  'INTERNAL_ERROR',
  'RATE_LIMITED',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const ErrorSchema = Type.Object(
  {
    ok: Type.Literal(false),
    error: Type.String({ description: 'Human-readable error text kept for backward compatibility.' }),
    code: StringEnum(ERROR_CODES),
    message: Type.String({ description: 'Human-readable explanation naming every failing field.' }),
    resolution: Type.String({ description: 'Guidance for correcting or recovering.' }),
  },
  { additionalProperties: false, title: 'Error' },
);
export type ErrorBody = Static<typeof ErrorSchema>;

/** Named component schemas published in /openapi.json, by component name. */
export const MARKETING_COMPONENTS: Record<string, TSchema> = {
  LeadRequest: LeadRequestSchema,
  LeadSuccess: LeadSuccessSchema,
  SuggestionRequest: SuggestionRequestSchema,
  SuggestionSuccess: SuggestionSuccessSchema,
  Error: ErrorSchema,
};
