import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { MAX_QUERY_LENGTH, SINGLE_LINE, StringEnum } from './schemas.js';

/** NLWeb 0.55 shapes (spec 2.6 and 4.3-4.4), published in /openapi.json from these objects. */

export const NLWEB_VERSION = '0.55';

/** Results per answer when the caller does not say (`max_results` / `prefer.max_results`). */
export const DEFAULT_MAX_RESULTS = 10;
/** Most results one answer carries; a larger `max_results` is treated as this. */
export const MAX_RESULTS_LIMIT = 50;
/** Sections listed inside one page's result (its best matching ones). */
export const MAX_SECTIONS_PER_PAGE = 3;
/** Copies of a page (other versions or platforms) listed in its result. */
export const MAX_COPIES_LISTED = 20;
/** Translations of a page (the same page in other languages) listed in its result. */
export const MAX_TRANSLATIONS_LISTED = 50;
/** Longest `scope` (GET parameter, POST `query.scope`). */
export const MAX_SCOPE_LENGTH = 200;
/** Longest `description` snippet of a result. */
export const SNIPPET_LENGTH = 240;

/**
 * The last event of every streamed answer: `{"message_type":"complete"}`. NLWeb's chat UI
 * (nlweb-ai/NLWeb, static/managed-event-source.js) closes its EventSource when it reads this
 * message type, and clients built on it wait for it; without it a finished answer and a dropped
 * connection look the same. It has neither `_meta` nor `content`, so NLWeb's reassembly rule
 * (merge `_meta`, concatenate `content`) passes over it and the answer stays the JSON body.
 */
export const STREAM_COMPLETE = { message_type: 'complete' } as const;

/** How /ask streams (fixed in production; tests shorten the timings). */
export const ASK_STREAM_DEFAULTS = {
  /** Interval of `: keep-alive` comments while a stream is open (at most 15 s). */
  heartbeatMs: 15_000,
  /** Resource items per `{"content": [...]}` event after the summary text. */
  batchSize: 5,
  /** A client that reads nothing for this long has its stream closed. */
  drainTimeoutMs: 30_000,
  /** Open streams in total; over it, answers go out as JSON. */
  maxStreams: 500,
  /** Open streams per client address (IPv6: per /64). */
  maxStreamsPerClient: 10,
} as const;

/** Longest `lang` (GET parameter, POST `query.lang`). */
export const MAX_LANG_LENGTH = 35;
/** What `lang` (GET parameter, POST `query.lang`) does. */
export const LANG_DESCRIPTION =
  'The asker’s language, a BCP 47 tag (`en`, `de`, `ja`, `pt-BR`): the query’s words are analysed by that ' +
  'language’s rules (stemming, stop words, segmentation) and, when the site has pages in it, only those are ' +
  'searched. Absent: told from the query’s script, then the request’s `Accept-Language`, then its words, among ' +
  'the site’s languages. Not a tag: 400. The answer’s text (the correction, "Showing results for", the line ' +
  'that goes with the results, or that nothing matched, or that the query has no word to search) is in this ' +
  'language when Frontdoor has words for it (de, en, es, fr, ja, zh), else in English.';

/** What the `Accept-Language` header of an /ask request does. */
export const ACCEPT_LANGUAGE_DESCRIPTION =
  'The asker’s languages, most wanted first (RFC 9110 12.5.4: `de-CH, de;q=0.9, en;q=0.5`). Without `lang`, ' +
  'and unless the query’s script tells its language (Han, kana, Hangul, Thai), the first of these languages ' +
  'the site has pages in is preferred: the query is read by its rules and only its pages are searched; ' +
  'when none of them matches, every page is. Ignored on a site in one language.';

/** Longest `conversation_id` echoed back. */
export const MAX_CONVERSATION_ID_LENGTH = 200;

/** What `scope` (GET parameter, POST `query.scope`) selects. */
export const SCOPE_DESCRIPTION =
  'Only pages in this scope: a path prefix starting with `/` (`/docs/`, `/7.4/`), `tag:name` (pages with ' +
  'that tag or keyword), or a section name (`docs` = pages under `/docs/`). Absent or blank: the whole site. ' +
  'A scope with no pages gives an answer with no results.';

/** The single-line rule (SINGLE_LINE) in words, for `scope` and `conversation_id` in GET and POST. */
export const ONE_LINE_PARAMETER = 'One line: control characters (tab, line breaks, NUL) are a 400.';

/** At least one character that is not white space. */
const NOT_BLANK = '\\S';

export const NlWebMetaSchema = Type.Object(
  {
    response_type: StringEnum(['Answer', 'Elicitation'] as const, {
      description:
        '`Answer` for a search result (also when nothing matched). `Elicitation` when the caller must supply ' +
        'something first: with status 200 for a query that has nothing searchable in it (only stop words or ' +
        'punctuation), with status 400/413 for a request that must be corrected (missing, blank or too long ' +
        'query, invalid body).',
    }),
    version: Type.Literal(NLWEB_VERSION),
    conversation_id: Type.Optional(
      Type.String({
        description:
          'Echoed from the request (GET `conversation_id`, POST `meta.conversation_id`) when given.',
      }),
    ),
    request_id: Type.Optional(
      Type.String({ description: 'Unique id of this answer (a UUID), also written to the server log.' }),
    ),
  },
  { additionalProperties: true, title: 'NlWebMeta' },
);

export const NlWebTextItemSchema = Type.Object(
  { type: Type.Literal('text'), text: Type.String() },
  { additionalProperties: false, title: 'NlWebTextItem' },
);

export const NlWebResourceItemSchema = Type.Object(
  {
    type: Type.Literal('resource'),
    resource: Type.Object(
      {
        data: Type.Union(
          [
            Type.Object({}, { additionalProperties: true }),
            Type.Array(Type.Object({}, { additionalProperties: true })),
          ],
          { description: 'This server always sends one object per resource, shaped as `AskResult`.' },
        ),
        uri: Type.Optional(Type.String({ format: 'uri' })),
        mimeType: Type.Optional(Type.String()),
      },
      { additionalProperties: true },
    ),
  },
  { additionalProperties: true, title: 'NlWebResourceItem' },
);

export const NlWebContentItemSchema = Type.Union([NlWebTextItemSchema, NlWebResourceItemSchema]);

export const NlWebResponseSchema = Type.Object(
  {
    _meta: NlWebMetaSchema,
    content: Type.Array(NlWebContentItemSchema, {
      minItems: 1,
      description:
        'Always starts with one `text` item that summarises the answer (or says what to fix), followed by ' +
        'one `resource` item per result, best first.',
    }),
  },
  { additionalProperties: false, title: 'NlWebResponse' },
);
export type NlWebResponse = Static<typeof NlWebResponseSchema>;
export type NlWebContentItem = Static<typeof NlWebContentItemSchema>;
export type NlWebMeta = Static<typeof NlWebMetaSchema>;

const HighlightsSchema = Type.Array(
  Type.Object(
    { start: Type.Integer({ minimum: 0 }), end: Type.Integer({ minimum: 0 }) },
    { additionalProperties: false },
  ),
  {
    description:
      'Matched words in `description` as [start, end) offsets in UTF-16 code units (JavaScript string ' +
      'indices), in order, not overlapping.',
  },
);

/** One matching section of a page, inside its result. */
export const AskSectionSchema = Type.Object(
  {
    name: Type.String({
      description: 'The section heading (the page title for the text before the first heading).',
    }),
    url: Type.String({
      format: 'uri',
      description: 'Absolute URL of the section: the page URL with its `#anchor`.',
    }),
    description: Type.String({
      description: 'Deterministic snippet of the section (at most 240 characters, "…" where cut).',
    }),
    score: Type.Number({ description: 'Relevance of the section alone, rounded to 6 decimals.' }),
    matchedTerms: Type.Array(Type.String(), {
      description: 'The index terms (lower-cased word stems) of the query found in this section.',
    }),
    matchedWords: Type.Array(Type.String(), {
      description: 'The words of `description` that matched, as written there.',
    }),
    highlights: HighlightsSchema,
  },
  { additionalProperties: false, title: 'AskSection' },
);
export type AskSection = Static<typeof AskSectionSchema>;

/**
 * What this server puts in `resource.data`: one schema.org-style object per result. Published so
 * integrators know the keys; NLWeb clients read `name`, `url`, `site`, `description` and `score`.
 */
export const AskResultSchema = Type.Object(
  {
    '@type': StringEnum(['WebPage', 'TechArticle'] as const, {
      description: '`TechArticle` for documentation pages (under /docs), `WebPage` for the others.',
    }),
    url: Type.String({
      format: 'uri',
      description: 'Absolute URL of the page (its sections, with their anchors, are in `sections`).',
    }),
    name: Type.String({ description: 'Page title.' }),
    description: Type.String({
      description:
        'Deterministic snippet of the best matching section (at most 240 characters, "…" where cut); the ' +
        'page description when that section has no text.',
    }),
    site: Type.String({ description: 'Host name of the site (from the public base URL).' }),
    score: Type.Number({
      description:
        'Relevance of the page, rounded to 6 decimals; higher is better: its best section’s BM25F score, ' +
        'raised when the query names the page (its title or an alias).',
    }),
    datePublished: Type.Optional(Type.String({ description: 'YYYY-MM-DD, when the page gives one.' })),
    dateModified: Type.String({ description: 'YYYY-MM-DD of the last change of the page.' }),
    inLanguage: Type.String({
      description:
        'The page’s language, a BCP 47 tag: its front matter `lang`, its language folder (`/de/`), the site’s ' +
        '`language`, else told from its text.',
    }),
    keywords: Type.Optional(Type.Array(Type.String(), { description: 'The page’s tags, when it has any.' })),
    matchedTerms: Type.Array(Type.String(), {
      description: 'The query’s index terms (lower-cased word stems) found in the best matching section.',
    }),
    matchedWords: Type.Array(Type.String(), {
      description: 'The words of `description` that matched, as written there (for highlighting).',
    }),
    highlights: HighlightsSchema,
    sections: Type.Array(AskSectionSchema, {
      minItems: 1,
      maxItems: MAX_SECTIONS_PER_PAGE,
      description: `The page’s best matching sections (at most ${MAX_SECTIONS_PER_PAGE}), best first; the first is the one \`description\` quotes.`,
    }),
    schema_object: Type.Optional(
      Type.Array(Type.Object({}, { additionalProperties: true }), {
        description:
          'The schema.org JSON-LD objects of the page (a built HTML page’s script blocks of type `application/ld+json` ' +
          'that are valid JSON with a schema.org `@context`), as the page carries them; at most 8192 ' +
          'characters of JSON per page. Named as NLWeb names a result’s structured data. Absent when the page has none.',
      }),
    ),
    otherCopies: Type.Optional(
      Type.Array(
        Type.Object(
          {
            url: Type.String({ format: 'uri' }),
            name: Type.String(),
          },
          { additionalProperties: false },
        ),
        {
          maxItems: MAX_COPIES_LISTED,
          description:
            'Other copies of this page (the same page in other versions or platforms: same title, same path ' +
            'apart from one segment, mostly the same words), collapsed into this result. The result is the ' +
            'copy that scored best; on a tie, the copy from the version or platform with the most pages. Ask ' +
            'with `scope` for one version or platform.',
        },
      ),
    ),
    translations: Type.Optional(
      Type.Array(
        Type.Object(
          {
            url: Type.String({ format: 'uri', description: 'Absolute URL of the translation.' }),
            lang: Type.String({ description: 'Its language, a BCP 47 tag.' }),
          },
          { additionalProperties: false },
        ),
        {
          maxItems: MAX_TRANSLATIONS_LISTED,
          description:
            'The same page in other languages (the pages at the same path in the site’s other language ' +
            `folders: \`/guide/tar\`, \`/de/guide/tar\`), ordered by language tag; at most ${MAX_TRANSLATIONS_LISTED}. ` +
            'Translations are one result: the copy in the asker’s language when the site has it (see `lang` ' +
            'and `Accept-Language`), else the one that scored best. Absent when the page has none.',
        },
      ),
    ),
  },
  { additionalProperties: false, title: 'AskResult' },
);
export type AskResult = Static<typeof AskResultSchema>;

export const AskPostBodySchema = Type.Object(
  {
    query: Type.Object(
      {
        text: Type.String({
          maxLength: MAX_QUERY_LENGTH,
          pattern: NOT_BLANK,
          description: 'Natural-language question (at most 1000 characters, not blank).',
        }),
        scope: Type.Optional(
          Type.String({
            maxLength: MAX_SCOPE_LENGTH,
            pattern: SINGLE_LINE,
            description: `${SCOPE_DESCRIPTION} ${ONE_LINE_PARAMETER}`,
          }),
        ),
        lang: Type.Optional(
          Type.String({
            maxLength: MAX_LANG_LENGTH,
            description: LANG_DESCRIPTION,
          }),
        ),
        site: Type.Optional(
          Type.Union([Type.String(), Type.Array(Type.String())], {
            description:
              'Optional site scope (a string in NLWeb 0.55, an array in 0.5.x; both accepted). The public ' +
              'endpoint always searches this service’s own site, whatever is given here.',
          }),
        ),
      },
      { additionalProperties: true, description: 'Extra properties (schema.org-style filters) are allowed.' },
    ),
    context: Type.Optional(
      Type.Object(
        {},
        {
          additionalProperties: true,
          description: 'Conversational context from the caller (e.g. `prev`); accepted and not used.',
        },
      ),
    ),
    prefer: Type.Optional(
      Type.Object(
        {
          streaming: Type.Optional(
            Type.Boolean({
              description:
                'True returns Server-Sent Events; false always returns JSON. When absent, an Accept header ' +
                'that prefers text/event-stream selects streaming.',
            }),
          ),
          mode: Type.Optional(StringEnum(['list'] as const, { description: 'Grounded list retrieval.' })),
          max_results: Type.Optional(
            Type.Integer({
              minimum: 1,
              description: `Most results wanted (default ${DEFAULT_MAX_RESULTS}); values above ${MAX_RESULTS_LIMIT} are treated as ${MAX_RESULTS_LIMIT}.`,
            }),
          ),
        },
        { additionalProperties: true },
      ),
    ),
    meta: Type.Optional(
      Type.Object(
        {
          conversation_id: Type.Optional(
            Type.String({
              maxLength: MAX_CONVERSATION_ID_LENGTH,
              pattern: SINGLE_LINE,
              description: `Echoed in \`_meta.conversation_id\` of the answer. ${ONE_LINE_PARAMETER}`,
            }),
          ),
        },
        { additionalProperties: true, description: 'Request, conversation and protocol metadata.' },
      ),
    ),
  },
  { additionalProperties: false, title: 'AskRequest' },
);
export type AskPostBody = Static<typeof AskPostBodySchema>;

export const NLWEB_COMPONENTS: Record<string, TSchema> = {
  NlWebResponse: NlWebResponseSchema,
  AskRequest: AskPostBodySchema,
  AskResult: AskResultSchema,
};
