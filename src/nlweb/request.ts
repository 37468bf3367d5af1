import { languageTag } from '../language/index.js';
import {
  AskPostBodySchema,
  createValidator,
  DEFAULT_MAX_RESULTS,
  describeFixes,
  describeProblems,
  MAX_CONVERSATION_ID_LENGTH,
  MAX_QUERY_LENGTH,
  MAX_RESULTS_LIMIT,
  MAX_SCOPE_LENGTH,
  quoted,
  singleLineProblem,
  type FieldProblem,
} from '../contract/index.js';

/** A valid /ask request, reduced to what the answer depends on. */
export interface AskQuery {
  /** The question as sent (not blank, at most 1000 characters). */
  text: string;
  /** 1 … 50. */
  maxResults: number;
  conversationId: string | null;
  /**
   * Only pages in this scope: `/path/` prefix, `tag:name`, or a section name (GET `scope`, POST
   * `query.scope`). Absent or null: the whole site.
   */
  scope?: string | null;
  /**
   * The asker's language, a BCP 47 tag (GET `lang`, POST `query.lang`): the query is analysed by
   * its rules and pages in it are preferred. Absent: told from the query's text.
   */
  lang?: string | null;
  /**
   * Without `lang`: the first language of the request's `Accept-Language` that the site has
   * pages in (a primary subtag, see AskService.withAcceptLanguage). The answer prefers pages in
   * it, and falls back to every page when none of them matches. Absent: no preference.
   */
  preferredLang?: string | null;
}

/** What the caller asked about the answer's form, apart from its content. */
export interface AskDelivery {
  /** true / false when the request says so; null leaves it to the Accept header. */
  streaming: boolean | null;
}

export type ParsedAsk =
  | { ok: true; query: AskQuery; delivery: AskDelivery }
  | {
      ok: false;
      /** `missing` = no usable query at all (answered with an Elicitation asking for one). */
      reason: 'missing' | 'invalid';
      text: string;
    };

/** Collapses white space and control characters and trims, in NFC: the form the answer quotes. */
export function normaliseQuery(text: string): string {
  return text
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\s]+/gu, ' ')
    .trim();
}

/** Length as JSON Schema counts it (Unicode code points), so GET and POST share one bound. */
function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

const MISSING_QUERY_TEXT =
  'What would you like to search for? The query is missing or blank. Send your question as ' +
  '`?query=your+question` (GET /ask) or as {"query": {"text": "your question"}} (POST /ask).';

function tooLongText(field: string, length: number): string {
  return (
    `The query is too long: ${field} has ${length} characters and at most ${MAX_QUERY_LENGTH} are allowed. ` +
    'Shorten the question to its key words and send it again.'
  );
}

function invalid(problems: FieldProblem[]): ParsedAsk {
  return {
    ok: false,
    reason: 'invalid',
    text: `Invalid request: ${describeProblems(problems)}. To fix it: ${describeFixes(problems)}.`,
  };
}

/** Query-string values arrive as a string, or as an array when the name is repeated. */
type QueryValue = string | string[] | undefined;

function single(name: string, value: QueryValue): { value: string | undefined; problem?: FieldProblem } {
  if (Array.isArray(value))
    return {
      value: undefined,
      problem: { field: name, message: 'was sent more than once', fix: `send ${name} once` },
    };
  return { value };
}

/** `streaming`: true/false in any case, or 1/0. */
export function parseBooleanParam(raw: string): boolean | null {
  const value = raw.toLowerCase();
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return null;
}

function parseMaxResults(raw: string): number | null {
  if (!/^\d{1,9}$/.test(raw)) return null;
  const value = Number(raw);
  if (value < 1) return null;
  return Math.min(value, MAX_RESULTS_LIMIT);
}

/**
 * GET /ask query string. Recognised: query, streaming, max_results, mode, conversation_id, scope, site
 * (accepted, ignored: the service searches its own site). Other parameters NLWeb clients send
 * (prev, query_id, last_ans, generate_mode, …) are ignored.
 */
export function parseAskQueryString(params: Record<string, QueryValue>): ParsedAsk {
  const problems: FieldProblem[] = [];
  const take = (name: string): string | undefined => {
    const { value, problem } = single(name, params[name]);
    if (problem) problems.push(problem);
    return value;
  };

  const text = take('query');
  const streamingRaw = take('streaming');
  const maxRaw = take('max_results');
  const mode = take('mode');
  const conversationId = take('conversation_id');
  const scope = take('scope');
  const lang = take('lang');

  let streaming: boolean | null = null;
  if (streamingRaw !== undefined) {
    streaming = parseBooleanParam(streamingRaw);
    if (streaming === null)
      problems.push({
        field: 'streaming',
        message: `${quoted(streamingRaw)} is not a boolean`,
        fix: 'send streaming=true or streaming=false (1 and 0 are accepted too)',
      });
  }
  let maxResults = DEFAULT_MAX_RESULTS;
  if (maxRaw !== undefined) {
    const parsed = parseMaxResults(maxRaw);
    if (parsed === null)
      problems.push({
        field: 'max_results',
        message: `${quoted(maxRaw)} is not a whole number of at least 1`,
        fix: `send a whole number from 1 to ${MAX_RESULTS_LIMIT} (larger values count as ${MAX_RESULTS_LIMIT})`,
      });
    else maxResults = parsed;
  }
  if (mode !== undefined && mode !== 'list')
    problems.push({
      field: 'mode',
      message: `${quoted(mode)} is not supported (this service returns ranked results, it does not summarise or generate)`,
      fix: 'send mode=list or leave mode out',
    });
  if (conversationId !== undefined && conversationId.length > MAX_CONVERSATION_ID_LENGTH)
    problems.push({
      field: 'conversation_id',
      message: `is longer than ${MAX_CONVERSATION_ID_LENGTH} characters`,
      fix: `shorten it to at most ${MAX_CONVERSATION_ID_LENGTH} characters`,
    });

  // The contract's one rule for single-line values, as the POST schema applies it.
  for (const [name, value] of [
    ['conversation_id', conversationId],
    ['scope', scope],
  ] as const) {
    const problem = value === undefined ? null : singleLineProblem(name, value);
    if (problem) problems.push(problem);
  }
  if (scope !== undefined && codePointLength(scope) > MAX_SCOPE_LENGTH)
    problems.push({
      field: 'scope',
      message: `is longer than ${MAX_SCOPE_LENGTH} characters`,
      fix: 'send a path prefix such as /docs/, a section name or tag:name',
    });
  const langTag = lang === undefined || lang.trim() === '' ? null : languageTag(lang);
  if (lang !== undefined && lang.trim() !== '' && langTag === null) problems.push(langProblem('lang', lang));
  if (text !== undefined && codePointLength(text) > MAX_QUERY_LENGTH)
    return { ok: false, reason: 'invalid', text: tooLongText('query', codePointLength(text)) };
  if (problems.length > 0) return invalid(problems);
  if (text === undefined || normaliseQuery(text) === '')
    return { ok: false, reason: 'missing', text: MISSING_QUERY_TEXT };
  return {
    ok: true,
    query: {
      text,
      maxResults,
      conversationId: conversationId ?? null,
      ...(scope !== undefined && scope.trim() !== '' ? { scope } : {}),
      ...(langTag !== null ? { lang: langTag } : {}),
    },
    delivery: { streaming },
  };
}

const validatePostBody = createValidator(AskPostBodySchema, 'body');

/** POST /ask JSON body, validated against AskRequest. */
export function parseAskBody(body: unknown): ParsedAsk {
  const result = validatePostBody(body);
  if (!result.ok) {
    const queryText = queryTextOf(body);
    if (typeof queryText === 'string' && codePointLength(queryText) > MAX_QUERY_LENGTH)
      return { ok: false, reason: 'invalid', text: tooLongText('query.text', codePointLength(queryText)) };
    const missing = result.problems.every(
      (p) =>
        (p.field === 'query' || p.field === 'query.text') &&
        (p.message === 'is required' || p.message.startsWith('must not be empty')),
    );
    if (missing) return { ok: false, reason: 'missing', text: MISSING_QUERY_TEXT };
    return invalid(result.problems);
  }
  const { query, prefer, meta } = result.value;
  // Control characters alone pass the schema's "not blank" pattern but leave nothing to search.
  if (normaliseQuery(query.text) === '') return { ok: false, reason: 'missing', text: MISSING_QUERY_TEXT };
  const langTag = typeof query.lang === 'string' && query.lang.trim() !== '' ? languageTag(query.lang) : null;
  if (typeof query.lang === 'string' && query.lang.trim() !== '' && langTag === null)
    return invalid([langProblem('query.lang', query.lang)]);
  return {
    ok: true,
    query: {
      text: query.text,
      maxResults: Math.min(prefer?.max_results ?? DEFAULT_MAX_RESULTS, MAX_RESULTS_LIMIT),
      conversationId: meta?.conversation_id ?? null,
      ...(typeof query.scope === 'string' && query.scope.trim() !== '' ? { scope: query.scope } : {}),
      ...(langTag !== null ? { lang: langTag } : {}),
    },
    delivery: { streaming: prefer?.streaming ?? null },
  };
}

function langProblem(field: string, value: string): FieldProblem {
  return {
    field,
    message: `"${value.slice(0, 40)}" is not a BCP 47 language tag`,
    fix: 'send a language tag such as en, de, ja or pt-BR, or leave it out to have the language told from the query',
  };
}

function queryTextOf(body: unknown): unknown {
  if (body === null || typeof body !== 'object') return undefined;
  const query = (body as Record<string, unknown>).query;
  if (query === null || typeof query !== 'object') return undefined;
  return Object.prototype.hasOwnProperty.call(query, 'text')
    ? (query as Record<string, unknown>).text
    : undefined;
}
