import { Type, type Static, type TSchema, type TUnsafe } from '@sinclair/typebox';
import {
  COMPANY_TYPES,
  LEAD_PERSONAS,
  PERSONAS_BY_COMPANY_TYPE,
  SOLUTION_PAGE_BY_COMPANY_TYPE,
  SUGGESTION_COMPANY_TYPES,
  SUGGESTION_PERSONAS,
  personaTableMarkdown,
} from './personas.js';

/**
 * The request and answer shapes of the marketing operations (spec parts 2.1-2.5). These objects
 * are the one source of truth: Ajv validates with them, TypeScript types come from them and
 * /openapi.json publishes them as named component schemas.
 */

/** A string enum as a plain `{type: string, enum: [...]}` (clearer in OpenAPI than anyOf-of-const). */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: Record<string, unknown> = {},
): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

export const MAX_QUERY_LENGTH = 1000;

/** Identical content within this window is one submission (a double click, a resent form). */
export const DUPLICATE_WINDOW_MS = 10 * 60 * 1000;

export const CompanyTypeSchema = StringEnum(COMPANY_TYPES, {
  description: 'Audience category used to tailor the demo.',
});

const personaRule = (companyTypes: readonly (keyof typeof PERSONAS_BY_COMPANY_TYPE)[]) =>
  companyTypes.map((companyType) => ({
    if: { properties: { companyType: { const: companyType } }, required: ['companyType'] },
    then: { properties: { persona: { enum: [...PERSONAS_BY_COMPANY_TYPE[companyType]] } } },
  }));

/** At least one visible character: a value of only spaces does not count as supplied. */
const VISIBLE = '\\S';

export const LeadRequestSchema = Type.Object(
  {
    name: Type.Optional(
      Type.String({
        maxLength: 200,
        description: 'Full contact name. Required unless both firstName and lastName are supplied.',
      }),
    ),
    firstName: Type.Optional(
      Type.String({ maxLength: 100, description: 'Supply together with lastName when name is omitted.' }),
    ),
    lastName: Type.Optional(
      Type.String({ maxLength: 100, description: 'Supply together with firstName when name is omitted.' }),
    ),
    email: Type.String({ format: 'email', maxLength: 200, description: 'Work email for the reply.' }),
    company: Type.Optional(Type.String({ maxLength: 200, description: 'Company or organization name.' })),
    role: Type.Optional(Type.String({ maxLength: 100, description: 'Job role or title.' })),
    message: Type.Optional(
      Type.String({ maxLength: 4000, description: 'What the contact wants to evaluate or solve.' }),
    ),
    teamSize: Type.Optional(Type.String({ maxLength: 50, description: 'Approximate team size.' })),
    timeline: Type.Optional(
      Type.String({ maxLength: 100, description: 'Expected evaluation or buying timeline.' }),
    ),
    companyType: Type.Optional(CompanyTypeSchema),
    persona: Type.Optional(
      StringEnum(LEAD_PERSONAS, {
        description:
          'Role slug; must belong to the supplied companyType (table in the operation description). ' +
          'Without a companyType any listed persona is accepted.',
      }),
    ),
    sourcePage: Type.Optional(
      Type.String({
        maxLength: 300,
        pattern: '^/',
        description: 'Same-site path where the request originated (starts with a slash).',
      }),
    ),
  },
  {
    additionalProperties: false,
    title: 'LeadRequest',
    description:
      'A demo request. `name` is required unless both `firstName` and `lastName` are supplied; a value ' +
      'of only white space does not count as supplied. `persona` must belong to `companyType`:\n\n' +
      personaTableMarkdown(),
    anyOf: [
      { required: ['name'], properties: { name: { pattern: VISIBLE } } },
      {
        required: ['firstName', 'lastName'],
        properties: { firstName: { pattern: VISIBLE }, lastName: { pattern: VISIBLE } },
      },
    ],
    allOf: personaRule(COMPANY_TYPES),
  },
);
export type LeadRequest = Static<typeof LeadRequestSchema>;

export const SuggestionRequestSchema = Type.Object(
  {
    companyType: StringEnum(SUGGESTION_COMPANY_TYPES, {
      description: 'Audience category eligible to suggest.',
    }),
    persona: StringEnum(SUGGESTION_PERSONAS, {
      description: 'Role slug belonging to the supplied companyType (table in the operation description).',
    }),
    suggestion: Type.String({
      minLength: 2,
      maxLength: 1000,
      pattern: VISIBLE,
      description:
        'The protocol-derived document or workflow output requested (2 to 1000 characters, not only white space).',
    }),
    email: Type.Optional(
      Type.String({ format: 'email', maxLength: 200, description: 'Work email for follow-up.' }),
    ),
    sourcePage: Type.Optional(
      Type.String({
        maxLength: 300,
        pattern: '^/solutions/',
        description: 'Solution page where the suggestion originated.',
      }),
    ),
  },
  {
    additionalProperties: false,
    title: 'SuggestionRequest',
    description:
      'A document suggestion from a CRO or a research site. `persona` must belong to `companyType`:\n\n' +
      personaTableMarkdown(SUGGESTION_COMPANY_TYPES),
    allOf: personaRule(SUGGESTION_COMPANY_TYPES),
  },
);
export type SuggestionRequest = Static<typeof SuggestionRequestSchema>;

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
