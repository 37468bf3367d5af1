import type { TSchema } from '@sinclair/typebox';
import { MARKETING_COMPONENTS, MAX_QUERY_LENGTH } from './schemas.js';
import { NLWEB_COMPONENTS, NLWEB_VERSION } from './nlweb.js';
import { personaTableMarkdown, SUGGESTION_COMPANY_TYPES } from './personas.js';

export interface OpenApiOptions {
  publicBaseUrl: string;
  bodyLimitBytes: number;
  /** Site or company name shown in the document title. */
  siteName: string;
  contactEmail?: string;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const jsonError = (description: string, example: Record<string, unknown>) => ({
  description,
  content: { 'application/json': { schema: ref('Error'), example } },
});

const nlwebBody = (description: string) => ({
  description,
  content: { 'application/json': { schema: ref('NlWebResponse') } },
});

const FORM_AND_JSON = ['application/json', 'application/x-www-form-urlencoded'] as const;

const APPROVAL =
  'Creates a real follow-up request or internal submission. Agents and clients must have the user’s explicit ' +
  'approval for the exact data submitted before calling this operation.';

const SSE_FRAMING =
  'With streaming, the answer is `text/event-stream`: unnamed events whose `data:` line holds one JSON object ' +
  '(one line). The first event is `{"_meta": {...}}` alone; each following event is `{"content": [...]}` with ' +
  'one or more content items; the server then closes the stream. Lines starting with `:` are heartbeat ' +
  'comments. Merging every `_meta` (first value wins) and concatenating every `content` array in order gives ' +
  'exactly the JSON answer of the same request with streaming off (apart from `request_id`).';

function bodyLimitNote(limit: number): string {
  return (
    `Bodies larger than ${limit} bytes are refused with 413 PAYLOAD_TOO_LARGE. In a form-encoded body an empty ` +
    'field counts as not supplied, and a repeated field is refused. Any other content type is refused with ' +
    '400 VALIDATION_ERROR.'
  );
}

function marketingErrors(limit: number) {
  return {
    '400': jsonError(
      'VALIDATION_ERROR when a field fails validation (every failing field is named in `message`, with the ' +
        'fix in `resolution`) or the content type is not accepted; INVALID_JSON when the body is not valid JSON.',
      {
        ok: false,
        error: 'Validation failed',
        code: 'VALIDATION_ERROR',
        message: 'Invalid request: email is not a valid e-mail address.',
        resolution: 'Correct the request and send it again. email: give an address such as name@company.com.',
      },
    ),
    '413': jsonError(`PAYLOAD_TOO_LARGE: the body exceeds ${limit} bytes.`, {
      ok: false,
      error: 'Payload too large',
      code: 'PAYLOAD_TOO_LARGE',
      message: `The request body is larger than the limit of ${limit} bytes.`,
      resolution: `Send a body of at most ${limit} bytes; every field's own length limit is in /openapi.json.`,
    }),
    '500': jsonError('INTERNAL_ERROR: the submission could not be stored; nothing was kept. Retry later.', {
      ok: false,
      error: 'Internal error',
      code: 'INTERNAL_ERROR',
      message: 'The request could not be completed (reference 5f0c…).',
      resolution: 'Nothing was stored. Try again in a moment; if it keeps failing, contact the site owner.',
    }),
  };
}

const requestBody = (schemaName: string, example: Record<string, unknown>) => ({
  required: true,
  content: Object.fromEntries(FORM_AND_JSON.map((type) => [type, { schema: ref(schemaName), example }])),
});

/**
 * Builds the OpenAPI 3.1.0 document from the contract schemas. It is the authoritative contract
 * the server publishes at /openapi.json, so every decision the spec leaves open is written here.
 */
export function buildOpenApiDocument(options: OpenApiOptions): Record<string, unknown> {
  const limit = options.bodyLimitBytes;
  const components: Record<string, TSchema> = { ...MARKETING_COMPONENTS, ...NLWEB_COMPONENTS };
  return {
    openapi: '3.1.0',
    info: {
      title: `${options.siteName} public website API`,
      version: '1.0.0',
      description:
        'Read-only, deterministic lexical search over the public pages (NLWeb ' +
        `${NLWEB_VERSION}), a demo request, and a document suggestion. No operation takes credentials. ` +
        'The two POST operations under /api create real submissions: agents must obtain the user’s explicit ' +
        'approval of the exact data before calling them.\n\n' +
        'Errors of the /api operations use the `Error` envelope. Status codes: INVALID_JSON 400, ' +
        'VALIDATION_ERROR 400, PAYLOAD_TOO_LARGE 413, INTERNAL_ERROR 500, ENDPOINT_NOT_FOUND 404 for an unknown ' +
        'path and 405 (with an `Allow` header) for a known path with another method. /ask answers its errors ' +
        'with an NLWeb response whose text item says what to fix.\n\n' +
        'A 2xx from a submission means it is durably stored; `delivered` says whether the configured provider ' +
        'already confirmed delivery, and undelivered submissions are retried with exponential backoff.',
      ...(options.contactEmail ? { contact: { email: options.contactEmail } } : {}),
    },
    servers: [{ url: options.publicBaseUrl }],
    security: [],
    tags: [
      { name: 'Discovery', description: 'Read-only NLWeb search over the public pages and documentation.' },
      { name: 'Contact', description: 'Demo requests and document suggestions (side-effecting).' },
    ],
    paths: {
      '/api/leads': {
        post: {
          operationId: 'requestDemo',
          tags: ['Contact'],
          summary: 'Request a demo',
          description:
            `Validates the contact data, stores it durably and sends it for follow-up. ${APPROVAL}\n\n` +
            `Which persona belongs to which companyType:\n\n${personaTableMarkdown()}\n\n${bodyLimitNote(limit)}`,
          security: [],
          requestBody: requestBody('LeadRequest', {
            name: 'Dana Reyes',
            email: 'dana.reyes@sponsor.example',
            company: 'Example Therapeutics',
            companyType: 'sponsor',
            persona: 'medical-writing',
            message: 'We want to generate ICF drafts from structured protocols.',
            sourcePage: '/demo',
          }),
          responses: {
            '200': {
              description: 'Demo request accepted for delivery.',
              content: {
                'application/json': {
                  schema: ref('LeadSuccess'),
                  example: { ok: true, provider: 'log', delivered: true },
                },
              },
            },
            ...marketingErrors(limit),
          },
        },
      },
      '/api/document-suggestions': {
        post: {
          operationId: 'suggestDocument',
          tags: ['Contact'],
          summary: 'Suggest a protocol-derived document type',
          description:
            `Stores the suggestion durably and submits it for product review. ${APPROVAL}\n\n` +
            `Which persona belongs to which companyType:\n\n${personaTableMarkdown(SUGGESTION_COMPANY_TYPES)}\n\n` +
            bodyLimitNote(limit),
          security: [],
          requestBody: requestBody('SuggestionRequest', {
            companyType: 'cro',
            persona: 'study-start-up',
            suggestion: 'A site activation checklist generated from the protocol.',
            sourcePage: '/solutions/cros',
          }),
          responses: {
            '201': {
              description: 'Suggestion accepted for review.',
              content: {
                'application/json': {
                  schema: ref('SuggestionSuccess'),
                  example: { ok: true, provider: 'log', delivered: true, sourcePage: '/solutions/cros' },
                },
              },
            },
            ...marketingErrors(limit),
          },
        },
      },
      '/ask': {
        get: {
          operationId: 'searchPublicContent',
          tags: ['Discovery'],
          summary: 'Search the public pages (NLWeb)',
          description:
            'Deterministic, read-only lexical retrieval over the public pages and documentation. ' +
            `Streaming is chosen by \`streaming=true\`, or by an Accept header preferring text/event-stream ` +
            `(what a browser EventSource sends) unless \`streaming=false\` is given. ${SSE_FRAMING}`,
          security: [],
          parameters: [
            {
              name: 'query',
              in: 'query',
              required: true,
              description: 'Natural-language question.',
              schema: { type: 'string', maxLength: MAX_QUERY_LENGTH },
            },
            {
              name: 'streaming',
              in: 'query',
              required: false,
              description: 'When true, the response is delivered as Server-Sent Events.',
              schema: { type: 'boolean', default: false },
            },
          ],
          responses: {
            '200': {
              description: 'NLWeb answer.',
              content: {
                'application/json': { schema: ref('NlWebResponse') },
                'text/event-stream': { schema: { type: 'string', description: SSE_FRAMING } },
              },
            },
            '400': nlwebBody('The query is missing or longer than 1000 characters.'),
          },
        },
        post: {
          operationId: 'queryPublicContent',
          tags: ['Discovery'],
          summary: 'Query the public pages (NLWeb request body)',
          description: `Read-only; returns grounded public-page matches. ${SSE_FRAMING}`,
          security: [],
          requestBody: { required: true, content: { 'application/json': { schema: ref('AskRequest') } } },
          responses: {
            '200': {
              description: 'NLWeb answer.',
              content: {
                'application/json': { schema: ref('NlWebResponse') },
                'text/event-stream': { schema: { type: 'string', description: SSE_FRAMING } },
              },
            },
            '400': nlwebBody('The query is missing or longer than 1000 characters, or the body is invalid.'),
          },
        },
      },
    },
    components: { schemas: components },
  };
}
