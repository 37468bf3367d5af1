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

/**
 * Most fields a form body may carry. The largest form has a dozen fields; the cap stops a body of
 * thousands of tiny fields before any work per field is done beyond counting them.
 */
export const MAX_FORM_FIELDS = 64;

/** Seconds a client is asked to wait when this instance is shutting down (another one answers). */
export const SHUTDOWN_RETRY_AFTER_SECONDS = 5;

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

/**
 * At least one letter or digit that shows: a value of only spaces, punctuation or invisible
 * characters (zero-width spaces, bidi marks, and the Hangul fillers U+3164, U+115F, U+1160 and
 * U+FFA0, which are letters that render as nothing) does not count as supplied. Unicode's
 * Default_Ignorable_Code_Point property names every character a renderer may show as nothing.
 */
export const VISIBLE = '(?!\\p{Default_Ignorable_Code_Point})[\\p{L}\\p{N}]';

/**
 * The one rule for every single-line and path-like text field: no control characters (C0 with
 * NUL, tab, CR and LF; DEL; C1 with NEL and CSI) and no line or paragraph separators. A tab or a
 * line break in a path is dropped by URL parsers (`/\t/evil.example` becomes `//evil.example`,
 * another site), and in a name it could start a forged header or log line.
 */
export const SINGLE_LINE = '^[^\\p{Cc}\\u2028\\u2029]*$';

/** Protocol-relative (`//host`) and backslash (`/\\host`) forms, which start with a slash but leave the site. */
export const NOT_A_PATH = '^/[/\\\\]';

/** What every single-line field's description says, so /openapi.json states the rule in words too. */
const ONE_LINE_NOTE = 'One line: control characters (tab, line breaks, NUL) are refused.';

/**
 * A single-line text field: the SINGLE_LINE rule, plus `shape` (a pattern of its own, such as a
 * path prefix) when given. JSON Schema allows one `pattern` per schema, so the shape goes in `allOf`.
 */
function OneLineString(
  options: { maxLength: number; description: string; shape?: string } & Record<string, unknown>,
) {
  const { shape, description, ...rest } = options;
  return Type.String({
    ...rest,
    pattern: SINGLE_LINE,
    ...(shape === undefined ? {} : { allOf: [{ pattern: shape }] }),
    description: `${description} ${ONE_LINE_NOTE}`,
  });
}

export const LeadRequestSchema = Type.Object(
  {
    name: Type.Optional(
      OneLineString({
        maxLength: 200,
        description: 'Full contact name. Required unless both firstName and lastName are supplied.',
      }),
    ),
    firstName: Type.Optional(
      OneLineString({ maxLength: 100, description: 'Supply together with lastName when name is omitted.' }),
    ),
    lastName: Type.Optional(
      OneLineString({ maxLength: 100, description: 'Supply together with firstName when name is omitted.' }),
    ),
    email: Type.String({ format: 'email', maxLength: 200, description: 'Work email for the reply.' }),
    company: Type.Optional(OneLineString({ maxLength: 200, description: 'Company or organization name.' })),
    role: Type.Optional(OneLineString({ maxLength: 100, description: 'Job role or title.' })),
    message: Type.Optional(
      Type.String({ maxLength: 4000, description: 'What the contact wants to evaluate or solve.' }),
    ),
    teamSize: Type.Optional(OneLineString({ maxLength: 50, description: 'Approximate team size.' })),
    timeline: Type.Optional(
      OneLineString({ maxLength: 100, description: 'Expected evaluation or buying timeline.' }),
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
      OneLineString({
        maxLength: 300,
        shape: '^/',
        // Browsers read `//host/x` and `/\\host` as another site: a path, not an address.
        not: { pattern: NOT_A_PATH },
        description:
          'Same-site path where the request originated (starts with a slash). A second slash or a ' +
          'backslash after the first (`//host/x`, `/\\host`) is refused: browsers read those as another site.',
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
        'The protocol-derived document or workflow output requested (2 to 1000 characters, with at least one letter or digit).',
    }),
    email: Type.Optional(
      Type.String({ format: 'email', maxLength: 200, description: 'Work email for follow-up.' }),
    ),
    sourcePage: Type.Optional(
      OneLineString({
        maxLength: 300,
        shape: '^/solutions/',
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
