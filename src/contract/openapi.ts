/**
 * The published /openapi.json, path by path, built from the contract's TypeBox schemas. More than
 * 500 lines on purpose: it is one document, and written in one place it reads as what it publishes.
 */
import type { TSchema } from '@sinclair/typebox';
import {
  DUPLICATE_WINDOW_MS,
  ErrorSchema,
  successSchemaOf,
  MAX_FORM_FIELDS,
  MAX_QUERY_LENGTH,
  SHUTDOWN_RETRY_AFTER_SECONDS,
  SINGLE_LINE,
} from './schemas.js';
import { MAX_REPORTED_PROBLEMS } from './validation.js';
import { MAX_ECHOED_CHARACTERS } from './echo.js';
import {
  ASK_STREAM_DEFAULTS,
  DEFAULT_MAX_RESULTS,
  MAX_SCOPE_LENGTH,
  MAX_SECTIONS_PER_PAGE,
  SCOPE_DESCRIPTION,
  ACCEPT_LANGUAGE_DESCRIPTION,
  LANG_DESCRIPTION,
  MAX_LANG_LENGTH,
  MAX_CONVERSATION_ID_LENGTH,
  MAX_RESULTS_LIMIT,
  NLWEB_COMPONENTS,
  NLWEB_VERSION,
  ONE_LINE_PARAMETER,
} from './nlweb.js';
import { HEALTH_COMPONENTS, READINESS_CACHE_MS, READINESS_STORE_TIMEOUT_MS } from './health.js';
import { DEFAULT_FORMS, SUGGEST_DOCUMENT } from './default-forms.js';
import {
  dependencyTableMarkdown,
  dependentFields,
  requestSchemaOf,
  successStatusOf,
  type FormDefinition,
} from './form-definition.js';
import { SUBMISSION_RETRY_AFTER_SECONDS } from './errors.js';

export interface OpenApiOptions {
  publicBaseUrl: string;
  bodyLimitBytes: number;
  /** Site or company name shown in the document title. */
  siteName: string;
  contactEmail?: string;
  /** CORS_ORIGINS: origins whose pages may call the form operations from the browser. */
  corsOrigins?: readonly string[];
  /** The site's forms (default: the seed's two): one POST operation each. */
  forms?: readonly FormDefinition[];
}

/**
 * Whether calling an operation has consequences the user must approve, on the operation itself.
 * It is the extension ChatGPT actions read, so importers of /openapi.json get the same answer as
 * this site's agent documents (discovery/ derives those from it). Safe methods (GET, HEAD) never
 * carry `true`; a POST that only reads says `false`.
 */
export const CONSEQUENTIAL = 'x-openai-isConsequential';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const jsonError = (description: string, example: Record<string, unknown>) => ({
  description,
  content: { 'application/json': { schema: ref('Error'), example } },
});

const FORM_AND_JSON = ['application/json', 'application/x-www-form-urlencoded'] as const;

const APPROVAL =
  'Creates a real follow-up request or internal submission. Agents and clients must have the user’s explicit ' +
  'approval for the exact data submitted before calling this operation.';

const SSE_FRAMING =
  'With streaming, the answer is `text/event-stream; charset=utf-8` (with `Cache-Control: no-cache` and ' +
  '`X-Accel-Buffering: no`): unnamed events, each one `data: ` line holding one JSON object on one line, ' +
  'then a blank line. The first event is `{"_meta": {...}}` alone; the next is `{"content": [<the text ' +
  'item>]}`; each following event is `{"content": [...]}` with up to ' +
  String(ASK_STREAM_DEFAULTS.batchSize) +
  ' resource items; the last event is `{"message_type":"complete"}` (the end marker NLWeb’s chat UI closes ' +
  'its EventSource on), and then the server closes the stream: a stream that ends without it was cut off, ' +
  'so ask again. Lines starting with `:` (`: keep-alive`, at least ' +
  `every ${ASK_STREAM_DEFAULTS.heartbeatMs / 1000} s while the stream is open) are heartbeat comments. ` +
  'Merging every `_meta` (first value wins) and concatenating every `content` array in order gives exactly ' +
  'the JSON answer of the same request with streaming off (apart from `request_id`); the end marker has ' +
  'neither, so it changes nothing.';

function bodyLimitNote(limit: number): string {
  return (
    `Bodies larger than ${limit} bytes are refused with 413 PAYLOAD_TOO_LARGE. In a form-encoded body an empty ` +
    `field counts as not supplied, and a repeated field, or more than ${MAX_FORM_FIELDS} fields, is refused. ` +
    'Any other content type, a `charset` other than UTF-8, `charset` given twice or in the extended form ' +
    '`charset*=` is refused with 400 VALIDATION_ERROR naming `Content-Type` (not 415: the operation answers ' +
    `every malformed request with 400). An error names at most ${MAX_REPORTED_PROBLEMS} problems and says how ` +
    `many more there are, and repeats at most ${MAX_ECHOED_CHARACTERS} characters of any value it quotes.`
  );
}

/** The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers) and Retry-After. */
const RATE_LIMIT_STATE_HEADERS = {
  'RateLimit-Policy': {
    description:
      'The client\'s quota for this operation: `"<name>";q=<requests>;w=<window in seconds>` (IETF RateLimit ' +
      'fields draft). Sent while the operator has a limit on.',
    schema: { type: 'string' },
    example: '"leads";q=5;w=600',
  },
  RateLimit: {
    description:
      'What is left of the quota: `"<name>";r=<remaining>;t=<seconds until the window ends>`. The window opens ' +
      'with the first counted request.',
    schema: { type: 'string' },
    example: '"leads";r=4;t=600',
  },
};

const RETRY_AFTER_HEADER = {
  'Retry-After': {
    description: 'Seconds to wait before sending again.',
    schema: { type: 'integer', minimum: 1 },
    example: 423,
  },
};

/** What the 429 answers share, per operation. */
const RATE_LIMIT_RULES =
  'Limits: requests are counted per client address (an IPv6 address by its /64 network; behind the ' +
  "operator's proxies, the address they forwarded) in fixed windows shared by every server instance. Over " +
  'the quota the answer is 429 with `Retry-After` and the `RateLimit` / `RateLimit-Policy` fields; the ' +
  'quota and window are configured by the operator and given in `RateLimit-Policy`.';

const SUBMISSION_LIMIT_NOTE = `${RATE_LIMIT_RULES} Only valid submissions are counted; a refused one is not stored.`;

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
    '429': {
      ...jsonError(
        'RATE_LIMITED: too many submissions from this client address within the window; nothing was stored. ' +
          'Wait the `Retry-After` seconds.',
        {
          ok: false,
          error: 'Too many requests',
          code: 'RATE_LIMITED',
          message: 'Too many demo requests from your address: at most 5 every 600 seconds are accepted.',
          resolution: 'Wait 423 seconds (see the Retry-After header) and send it again; nothing was stored.',
        },
      ),
      headers: { ...RETRY_AFTER_HEADER, ...RATE_LIMIT_STATE_HEADERS },
    },
    '500': {
      ...jsonError(
        'INTERNAL_ERROR: the database did not confirm the submission (it is down, does not answer within its ' +
          'timeout, or the connection was cut), so it is not acknowledged. The answer comes within a few ' +
          'seconds, never after the client has given up. Send the same request again after `Retry-After` ' +
          'seconds: a repeat of a submission that was stored after all is recognised (same content within the ' +
          'duplicate window, or the same Idempotency-Key) and not stored twice.',
        {
          ok: false,
          error: 'Internal error',
          code: 'INTERNAL_ERROR',
          message: 'The submission could not be stored just now (reference 5f0c…).',
          resolution: `Send the same request again in ${SUBMISSION_RETRY_AFTER_SECONDS} seconds (see Retry-After); a repeat is never stored twice. If it keeps failing, contact the site owner with the reference.`,
        },
      ),
      headers: {
        'Retry-After': {
          description: 'Seconds to wait before sending the request again.',
          schema: { type: 'integer', const: SUBMISSION_RETRY_AFTER_SECONDS },
        },
      },
    },
    '503': {
      ...jsonError(
        'INTERNAL_ERROR: this instance is shutting down; nothing was stored. Retry after `Retry-After`.',
        {
          ok: false,
          error: 'Service unavailable',
          code: 'INTERNAL_ERROR',
          message: 'This server is shutting down and did not handle the request; nothing was stored.',
          resolution: `Send the request again in ${SHUTDOWN_RETRY_AFTER_SECONDS} seconds.`,
        },
      ),
      headers: {
        'Retry-After': {
          description: 'Seconds to wait before sending the request again.',
          schema: { type: 'integer', minimum: 1 },
        },
      },
    },
  };
}

const ASK_BEHAVIOUR =
  'Each answer is an NLWeb 0.55 response: a `text` item summarising it, then one `resource` item per page ' +
  '(best first; `resource.data` is one `AskResult` object listing the page’s best matching `sections`, at ' +
  'most ' +
  String(MAX_SECTIONS_PER_PAGE) +
  ', each with its anchor URL, snippet and highlights). Copies of a page (the same page in other versions or ' +
  'platforms) are one result that lists them in `otherCopies`. The same content and query always give the ' +
  'same answer, byte for byte, apart from `_meta.request_id`.\n\n' +
  '**Matching as people type and write.** The last word of a query that ends in a letter or digit (a word ' +
  'still being typed) also matches the words it begins (`protoc` → protocol), at most 30 of them, the ' +
  'most common first, each scored below an exact match and less the more letters are missing: results ' +
  'appear from the second letter and stay put as letters are added. A word the site does not use, of 5 ' +
  'letters or more, matches the site’s words within one edit (two from 8 letters; an edit is a letter ' +
  'added, dropped, changed or two neighbours swapped), scored below an exact match; words of up to 4 ' +
  'letters and words with digits are not corrected. A word written together matches its parts written ' +
  'apart and the reverse (`part11` / `Part 11`, `getchilditem` / `Get-ChildItem`, `esignature` / ' +
  '`e-signature`). When a word was corrected or split, the `text` item begins with ' +
  '`Showing results for “…”.` and the corrected query. Question phrasing (“how do I”, “can you”, “how ' +
  'long does it take”) weighs less than the subject; link lists (“Related”, “See also”) weigh little; a ' +
  'page whose title or alias the query names ranks first. When the best result matches at most half of ' +
  'the query’s words, the `text` item says the match is weak (in English it begins `No page on … ' +
  'matches`; the text is in the asker’s language, see `lang`).\n\n' +
  'A query with nothing searchable in it (only very common words or punctuation) is answered 200 with ' +
  '`response_type` `Elicitation` and a text asking what to search for; a query that matches nothing is an ' +
  '`Answer` whose only item is a text suggesting how to rephrase. Readable from any origin: every answer, ' +
  'error and stream carries `Access-Control-Allow-Origin: *`.';

const ASK_STREAMING = (on: string, off: string) =>
  `Streaming is chosen by ${on}, or, when the request does not say, by an Accept header that ranks ` +
  '`text/event-stream` above `application/json` (what a browser EventSource sends); ' +
  `${off} always gives JSON. When too many streams are open (${ASK_STREAM_DEFAULTS.maxStreams} in all, ` +
  `${ASK_STREAM_DEFAULTS.maxStreamsPerClient} per client address or IPv6 /64), the same answer is sent as ` +
  'one JSON body instead.';

const ASK_ERRORS =
  'Errors are NLWeb responses with `response_type` `Elicitation` and one text item saying what to fix: 400 ' +
  'for a missing or blank query, a query over 1000 characters, an invalid parameter or body, or invalid JSON; ' +
  '429 when the client sent too many requests (`Retry-After` says when to ask again). ' +
  RATE_LIMIT_RULES +
  ' ' +
  'CORS preflight: `OPTIONS /ask` answers 204 with `Access-Control-Allow-Methods: GET, POST, OPTIONS`, ' +
  '`Access-Control-Allow-Headers: Content-Type, Accept` and `Access-Control-Max-Age: 86400`; no credentials.';

const CORS_HEADER = {
  'Access-Control-Allow-Origin': { description: 'Always `*`.', schema: { type: 'string', const: '*' } },
};

const nlwebExample = (responseType: 'Answer' | 'Elicitation', text: string) => ({
  _meta: {
    response_type: responseType,
    version: NLWEB_VERSION,
    request_id: '0b6f0c1e-5d4a-4c2e-9a55-2f1d3c4b5a69',
  },
  content: [{ type: 'text', text }],
});

function askResponses(post: boolean, limit = 0) {
  const error = (description: string, example: Record<string, unknown>) => ({
    description,
    headers: CORS_HEADER,
    content: { 'application/json': { schema: ref('NlWebResponse'), example } },
  });
  return {
    '200': {
      description:
        'NLWeb answer (`Answer`, or `Elicitation` when the query has nothing searchable in it), as JSON or as ' +
        'an event stream.',
      headers: CORS_HEADER,
      content: {
        'application/json': {
          schema: ref('NlWebResponse'),
          example: {
            _meta: {
              response_type: 'Answer',
              version: NLWEB_VERSION,
              request_id: '0b6f0c1e-5d4a-4c2e-9a55-2f1d3c4b5a69',
            },
            content: [
              {
                type: 'text',
                text: 'Found 1 result for “data encryption” on Example. Top result: Security — Encryption (https://www.example.com/security#encryption).',
              },
              {
                type: 'resource',
                resource: {
                  uri: 'https://www.example.com/security#encryption',
                  mimeType: 'text/html',
                  data: {
                    '@type': 'WebPage',
                    url: 'https://www.example.com/security#encryption',
                    name: 'Security — Encryption',
                    description: 'Data at rest is encrypted with AES-256…',
                    site: 'www.example.com',
                    score: 7.412093,
                    dateModified: '2025-06-01',
                    keywords: ['security'],
                    matchedTerms: ['data', 'encrypt'],
                    matchedWords: ['Data', 'encrypted'],
                    highlights: [
                      { start: 0, end: 4 },
                      { start: 16, end: 25 },
                    ],
                  },
                },
              },
            ],
          },
        },
        'text/event-stream': { schema: { type: 'string', description: SSE_FRAMING } },
      },
    },
    '400': error(
      post
        ? 'The query is missing, blank or longer than 1000 characters, the body is not valid JSON or does not ' +
            'match AskRequest, or the content type is not application/json.'
        : 'The query is missing, blank or longer than 1000 characters, or a parameter is invalid.',
      nlwebExample(
        'Elicitation',
        'What would you like to search for? The query is missing or blank. Send your question as `?query=your+question` (GET /ask) or as {"query": {"text": "your question"}} (POST /ask).',
      ),
    ),
    '429': {
      ...error(
        'Too many /ask requests from this client address within the window (the limit is generous: it stops ' +
          'floods, not readers). The body is an NLWeb response whose text item says how long to wait.',
        nlwebExample(
          'Elicitation',
          'Too many searches from your address: at most 600 every 60 seconds are answered. Wait 12 seconds (see the Retry-After header) and ask again.',
        ),
      ),
      headers: { ...CORS_HEADER, ...RETRY_AFTER_HEADER, ...RATE_LIMIT_STATE_HEADERS },
    },
    ...(post
      ? {
          '413': error(
            `The body is larger than ${limit} bytes.`,
            nlwebExample(
              'Elicitation',
              `The request body is larger than the limit of ${limit} bytes. Send a body of at most ${limit} bytes; every field's own length limit is in /openapi.json.`,
            ),
          ),
        }
      : {}),
  };
}

/** Any method but GET (and HEAD) on an operator endpoint. */
const OPERATIONS_WRONG_METHOD = (path: string) => ({
  ...jsonError('ENDPOINT_NOT_FOUND for any method other than GET or HEAD, with an `Allow` header.', {
    ok: false,
    error: 'Endpoint not found',
    code: 'ENDPOINT_NOT_FOUND',
    message: `POST is not supported on ${path}.`,
    resolution: `Use GET or HEAD on ${path}; /openapi.json lists every operation.`,
  }),
  headers: { Allow: { description: 'The methods the path supports.', schema: { type: 'string' } } },
});

/** What the two submission operations do beyond their body schema. */
const SUBMISSION_RULES =
  `Repeats: a submission with the same content (same operation, e-mail and fields) arriving again within ` +
  `${DUPLICATE_WINDOW_MS / 60_000} minutes is not stored twice; it gets the original submission's answer. ` +
  'With an `Idempotency-Key` header the same applies for as long as the submission is kept, and the same key ' +
  'with a different body is refused with 400 VALIDATION_ERROR naming `Idempotency-Key`. ' +
  'Cross-site posts: a request whose `Origin` header is not this site’s origin, or that a browser marks ' +
  '`Sec-Fetch-Site: cross-site`, is refused with 400 VALIDATION_ERROR naming `Origin` (another site cannot make ' +
  'its visitors submit here); requests without an `Origin` header, such as those of servers and agents, are ' +
  'accepted.';

/** How long a browser may keep a form operation's preflight answer. */
export const FORM_CORS_MAX_AGE_SECONDS = 86_400;

/** Headers the form operations allow in a CORS request (the server sends this list). */
export const FORM_CORS_REQUEST_HEADERS = 'Content-Type, Accept, Idempotency-Key, Form-Honeypot, Form-Fill-Ms';

/** The cross-site rule with the origins of CORS_ORIGINS, which pass it and may call from the browser. */
function formCorsRules(origins: readonly string[]): string {
  if (origins.length === 0) return '';
  const list = origins.map((origin) => `\`${origin}\``).join(', ');
  return (
    `CORS: pages on ${list} may call this operation from the browser. A request whose \`Origin\` is one of ` +
    'them passes the cross-site rule, and every answer to it (errors included) carries ' +
    '`Access-Control-Allow-Origin` set to that origin (never `*`; no credentials); every answer says ' +
    '`Vary: Origin`. Preflight: `OPTIONS` on the path answers 204, with `Access-Control-Allow-Methods: POST, ' +
    `OPTIONS\`, \`Access-Control-Allow-Headers: ${FORM_CORS_REQUEST_HEADERS}\` and ` +
    `\`Access-Control-Max-Age: ${FORM_CORS_MAX_AGE_SECONDS}\` for those origins and without them for any other.`
  );
}

/** The success answer's headers: the rate-limit state, and CORS when origins are listed. */
function formSuccessHeaders(origins: readonly string[]) {
  if (origins.length === 0) return RATE_LIMIT_STATE_HEADERS;
  return {
    ...RATE_LIMIT_STATE_HEADERS,
    'Access-Control-Allow-Origin': {
      description: 'The request’s `Origin` when it is one of the listed origins; absent otherwise.',
      schema: { type: 'string', enum: [...origins] },
    },
    Vary: { description: 'Always includes `Origin`.', schema: { type: 'string' } },
  };
}

const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Optional key (1 to 255 printable ASCII characters without spaces, optionally in double quotes, e.g. a ' +
    'UUID) that makes a retry safe: the same key with the same body returns the original answer instead of ' +
    'creating a second submission; the same key with another body is a 400 VALIDATION_ERROR.',
  schema: { type: 'string', minLength: 1, maxLength: 257 },
  example: '"8e03978e-40d5-43e8-bc93-6894a57f9324"',
};

/** The asker's languages, for /ask (GET and POST): see ACCEPT_LANGUAGE_DESCRIPTION. */
const ACCEPT_LANGUAGE_PARAMETER = {
  name: 'Accept-Language',
  in: 'header',
  required: false,
  description: ACCEPT_LANGUAGE_DESCRIPTION,
  schema: { type: 'string' },
  example: 'de-CH, de;q=0.9, en;q=0.5',
};

/** What the spam traps do, in the operations' descriptions. */
const FORM_TRAPS =
  'Spam traps of the site’s own forms: the site’s pages, posting here with this site’s `Origin` (or an origin the operator allows, for the embedded forms), also say ' +
  'whether the form’s hidden honeypot field was filled and how long the form was open (the `Form-Honeypot` and ' +
  '`Form-Fill-Ms` headers of the site’s script). A submission whose honeypot was filled, or that was sent sooner ' +
  'than the site’s minimum fill time (3 seconds unless the operator changes it), is stored in quarantine: kept, ' +
  'never dropped, and not delivered until an operator releases it. Its answer is the ordinary success with ' +
  '`delivered: false`, the same as any submission the provider has not yet confirmed. These headers are not ' +
  'parameters of the API: a request without an `Origin` header (agents, servers) is never quarantined, ' +
  'whatever headers it sends. The same submission sent again without a tripped trap (same content within the ' +
  'repeat window, or the same `Idempotency-Key` and body) releases the held one: it is delivered and answered ' +
  'as a new submission would be.';

const NUMBER_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

/** "The two POST operations" / "The POST operation". */
function postOperationsPhrase(count: number): string {
  return count === 1 ? 'The POST operation' : `The ${NUMBER_WORDS[count] ?? String(count)} POST operations`;
}

/** ", a demo request, and a document suggestion" after the search: every operation the site has. */
function listed(phrases: readonly string[]): string {
  if (phrases.length === 1) return `and ${phrases[0]!}`;
  return `${phrases.slice(0, -1).join(', ')}, and ${phrases[phrases.length - 1]!}`;
}

/** The table of a form's dependent choices in its operation description ("Which persona belongs to …"). */
function dependencyNotes(form: FormDefinition): string {
  return dependentFields(form)
    .map(
      ({ field, parent }) =>
        `Which ${field.name} belongs to which ${parent.name}:\n\n${dependencyTableMarkdown(field, parent)}\n\n`,
    )
    .join('');
}

/** A form's POST operation: validation, storage and delivery, with the rules every form shares. */
function formOperation(form: FormDefinition, limit: number, cors: readonly string[]) {
  const status = successStatusOf(form);
  const successExample =
    form === SUGGEST_DOCUMENT
      ? { ok: true, provider: 'log', delivered: true, sourcePage: '/solutions/cros' }
      : { ok: true, provider: 'log', delivered: true };
  return {
    operationId: form.id,
    [CONSEQUENTIAL]: true,
    tags: ['Contact'],
    summary: form.summary,
    description:
      `${form.operationDescription} ${APPROVAL}\n\n${dependencyNotes(form)}${bodyLimitNote(limit)}\n\n` +
      `${[SUBMISSION_RULES, formCorsRules(cors)].join(' ').trim()}\n\n${SUBMISSION_LIMIT_NOTE}\n\n${FORM_TRAPS}`,
    security: [],
    parameters: [IDEMPOTENCY_KEY_PARAMETER],
    requestBody: requestBody(`${form.schemaName}Request`, form.example),
    responses: {
      [String(status)]: {
        description: form.successDescription,
        headers: formSuccessHeaders(cors),
        content: {
          'application/json': { schema: ref(`${form.schemaName}Success`), example: successExample },
        },
      },
      ...marketingErrors(limit),
    },
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
  const cors = options.corsOrigins ?? [];
  const forms = options.forms ?? DEFAULT_FORMS;
  const components: Record<string, TSchema> = {
    ...Object.fromEntries(
      forms.flatMap((form) => [
        [`${form.schemaName}Request`, requestSchemaOf(form)],
        [`${form.schemaName}Success`, successSchemaOf(form)],
      ]),
    ),
    Error: ErrorSchema,
    ...NLWEB_COMPONENTS,
    ...HEALTH_COMPONENTS,
  };
  return {
    openapi: '3.1.0',
    info: {
      title: `${options.siteName} public website API`,
      version: '1.0.0',
      description:
        'Read-only, deterministic lexical search over the public pages (NLWeb ' +
        `${NLWEB_VERSION}), ${listed(forms.map((form) => form.singular))}. No operation takes credentials. ` +
        `${postOperationsPhrase(forms.length)} under /api create${forms.length === 1 ? 's' : ''} real submissions: agents must obtain the user’s explicit ` +
        `approval of the exact data before calling ${forms.length === 1 ? 'it' : 'them'}.\n\n` +
        'Errors of the /api operations use the `Error` envelope. Status codes: INVALID_JSON 400, ' +
        'VALIDATION_ERROR 400, PAYLOAD_TOO_LARGE 413, RATE_LIMITED 429, INTERNAL_ERROR 500, ENDPOINT_NOT_FOUND 404 for an unknown ' +
        'path and 405 (with an `Allow` header) for a known path with another method. A path with a malformed ' +
        'percent-escape, a malformed request, headers that are too large (431) or a request not received in ' +
        'time (408) get the same envelope; during shutdown every path answers 503 with `Retry-After`. ' +
        '/ask answers its errors ' +
        'with an NLWeb response whose text item says what to fix.\n\n' +
        'A 2xx from a submission means it is durably stored; `delivered` says whether the configured provider ' +
        'already confirmed delivery, and undelivered submissions are retried with exponential backoff.\n\n' +
        "Every response carries an `X-Request-Id` header naming the request in the server's logs (quote it when " +
        'reporting a problem); /ask answers carry the same id as `_meta.request_id`. An `X-Request-Id` sent by the ' +
        "operator's trusted proxy (8 to 128 letters, digits or `._:@+=/-`) is kept; one sent by a client directly " +
        'is replaced.\n\n' +
        RATE_LIMIT_RULES,
      ...(options.contactEmail ? { contact: { email: options.contactEmail } } : {}),
    },
    servers: [{ url: options.publicBaseUrl }],
    security: [],
    tags: [
      { name: 'Discovery', description: 'Read-only NLWeb search over the public pages and documentation.' },
      {
        name: 'Contact',
        description: `${forms.map((form, index) => (index === 0 ? form.plural : form.plural.toLowerCase())).join(' and ')} (side-effecting).`,
      },
      { name: 'Operations', description: 'Liveness and readiness for load balancers and orchestrators.' },
    ],
    paths: {
      '/healthz': {
        get: {
          operationId: 'checkHealth',
          tags: ['Operations'],
          summary: 'Liveness: the process is running',
          description:
            'Answers 200 `{"status":"ok"}` whenever the process answers at all, whatever the state of the ' +
            'database: use it to decide whether to restart the process, not whether to send it traffic ' +
            '(that is /readyz). Never cached; not written to the request log.',
          security: [],
          responses: {
            '200': {
              description: 'The process lives.',
              content: { 'application/json': { schema: ref('Health'), example: { status: 'ok' } } },
            },
            '405': OPERATIONS_WRONG_METHOD('/healthz'),
          },
        },
      },
      '/readyz': {
        get: {
          operationId: 'checkReadiness',
          tags: ['Operations'],
          summary: 'Readiness: this instance can serve every operation now',
          description:
            'Answers 200 when the submissions database answers a trivial query within ' +
            `${READINESS_STORE_TIMEOUT_MS / 1000} s and the search index holds the site’s pages; 503 otherwise, ` +
            'with the reasons in words. A load balancer should send traffic only to ready instances. Pages, ' +
            'search and discovery work without the database, so an instance that is not ready still answers ' +
            `them. The result is reused for ${READINESS_CACHE_MS / 1000} s, so frequent polling costs at most one ` +
            'query a second. Never cached; not written to the request log.',
          security: [],
          responses: {
            '200': {
              description: 'Ready.',
              content: {
                'application/json': {
                  schema: ref('Readiness'),
                  example: { status: 'ready', checks: { store: 'ok', index: 'ok' }, reasons: [] },
                },
              },
            },
            '503': {
              description: 'Not ready; `reasons` says why.',
              content: {
                'application/json': {
                  schema: ref('Readiness'),
                  example: {
                    status: 'unavailable',
                    checks: { store: 'failing', index: 'ok' },
                    reasons: [
                      'submissions database: connection refused (nothing listens at the database address) (ECONNREFUSED)',
                    ],
                  },
                },
              },
            },
            '405': OPERATIONS_WRONG_METHOD('/readyz'),
          },
        },
      },
      ...Object.fromEntries(forms.map((form) => [form.path, { post: formOperation(form, limit, cors) }])),
      '/ask': {
        get: {
          operationId: 'searchPublicContent',
          tags: ['Discovery'],
          summary: 'Search the public pages (NLWeb)',
          description: `Deterministic, read-only lexical retrieval over the public pages and documentation. ${ASK_BEHAVIOUR}\n\n${ASK_STREAMING('`streaming=true`', '`streaming=false`')}\n\n${SSE_FRAMING}\n\n${ASK_ERRORS}\n\nOther query parameters NLWeb clients send (\`prev\`, \`query_id\`, \`last_ans\`, \`generate_mode\`, …) are accepted and ignored.`,
          security: [],
          parameters: [
            {
              name: 'query',
              in: 'query',
              required: true,
              description:
                'Natural-language question: at most 1000 characters (Unicode code points), not blank. Sent once.',
              schema: { type: 'string', maxLength: MAX_QUERY_LENGTH, pattern: '\\S' },
              example: 'How is customer data encrypted?',
            },
            {
              name: 'streaming',
              in: 'query',
              required: false,
              description:
                'When true, the response is delivered as Server-Sent Events; false always gives JSON. `true`, ' +
                '`false` (any case), `1` and `0` are accepted; any other value is a 400. When absent, the ' +
                'Accept header decides (see above).',
              schema: { type: 'boolean', default: false },
            },
            {
              name: 'max_results',
              in: 'query',
              required: false,
              description:
                `Most results wanted, a whole number of at least 1 (default ${DEFAULT_MAX_RESULTS}). Values above ` +
                `${MAX_RESULTS_LIMIT} are treated as ${MAX_RESULTS_LIMIT}; 0, negative or non-numeric values are a 400.`,
              schema: { type: 'integer', minimum: 1, default: DEFAULT_MAX_RESULTS },
            },
            {
              name: 'mode',
              in: 'query',
              required: false,
              description: 'Only `list` (ranked results); any other mode is a 400.',
              schema: { type: 'string', enum: ['list'], default: 'list' },
            },
            {
              name: 'site',
              in: 'query',
              required: false,
              description:
                'Site scope, accepted (once or repeated) and ignored: this endpoint searches its own site.',
              schema: { type: 'string' },
            },
            {
              name: 'conversation_id',
              in: 'query',
              required: false,
              description: `Echoed in \`_meta.conversation_id\` of the answer. ${ONE_LINE_PARAMETER}`,
              schema: { type: 'string', maxLength: MAX_CONVERSATION_ID_LENGTH, pattern: SINGLE_LINE },
            },
            {
              name: 'scope',
              in: 'query',
              required: false,
              description: `${SCOPE_DESCRIPTION} Sent once; longer than ${MAX_SCOPE_LENGTH} characters is a 400. ${ONE_LINE_PARAMETER}`,
              schema: { type: 'string', maxLength: MAX_SCOPE_LENGTH, pattern: SINGLE_LINE },
              example: '/docs/',
            },
            {
              name: 'lang',
              in: 'query',
              required: false,
              description: `${LANG_DESCRIPTION} Sent once.`,
              schema: { type: 'string', maxLength: MAX_LANG_LENGTH },
              example: 'de',
            },
            ACCEPT_LANGUAGE_PARAMETER,
          ],
          responses: askResponses(false),
        },
        post: {
          operationId: 'queryPublicContent',
          [CONSEQUENTIAL]: false,
          tags: ['Discovery'],
          summary: 'Query the public pages (NLWeb request body)',
          description: `Read-only; returns grounded public-page matches. No language model, no form submission, no customer data. ${ASK_BEHAVIOUR}\n\n${ASK_STREAMING('`prefer.streaming: true`', '`prefer.streaming: false`')}\n\n${SSE_FRAMING}\n\n${ASK_ERRORS} The body must be \`application/json\` (any other content type is a 400) and at most ${limit} bytes (larger bodies are a 413). \`meta.conversation_id\` is echoed; \`prefer.max_results\` works as GET \`max_results\`; \`query.scope\` works as GET \`scope\`; \`context\` and \`query.site\` are accepted and not used.`,
          security: [],
          parameters: [ACCEPT_LANGUAGE_PARAMETER],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: ref('AskRequest'),
                example: {
                  query: { text: 'How is customer data encrypted?', site: 'www.example.com' },
                  prefer: { streaming: false, mode: 'list', max_results: 5 },
                  meta: { conversation_id: 'conv-42' },
                },
              },
            },
          },
          responses: askResponses(true, limit),
        },
      },
    },
    components: { schemas: components },
  };
}
