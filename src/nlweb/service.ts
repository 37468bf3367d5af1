import type { AskResult, NlWebContentItem, NlWebMeta, NlWebResponse } from '../contract/index.js';
import {
  ASK_STREAM_DEFAULTS,
  MAX_PASSAGES_PER_PAGE,
  NLWEB_VERSION,
  SNIPPET_LENGTH,
} from '../contract/index.js';
import type { Page, Passage, Site } from '../content/index.js';
import {
  analyzeQuery,
  buildIndex,
  makeSnippet,
  prepareSnippetText,
  search,
  type PreparedText,
  type SearchDocument,
  type SearchIndex,
  type SearchResult,
} from '../search/index.js';
import { LruCache } from './lru.js';
import { normaliseQuery, type AskQuery } from './request.js';
import { StreamRegistry, type StreamLimits } from './streams.js';

/** See ASK_STREAM_DEFAULTS for the meaning and production value of each. */
export interface StreamingOptions extends StreamLimits {
  heartbeatMs: number;
  batchSize: number;
  drainTimeoutMs: number;
}

export const DEFAULT_STREAMING: StreamingOptions = { ...ASK_STREAM_DEFAULTS };

export interface AskServiceOptions {
  streaming?: Partial<StreamingOptions>;
  /** Distinct queries whose answers are kept (least recently used dropped first); 0 disables. */
  cacheSize?: number;
  /**
   * The index of this site's passages when it is already built (read from a snapshot): it must
   * be `buildIndex` of these passages with this engine version. By default it is built here.
   */
  index?: SearchIndex;
  /** The open-stream registry to share (a reloaded site keeps counting the streams already open). */
  streams?: StreamRegistry;
}

/** Enough for the popular questions of a busy site at a few MB; each answer is ~10 KB. */
export const DEFAULT_ANSWER_CACHE_SIZE = 500;

export interface AskService {
  readonly pageCount: number;
  readonly passageCount: number;
  readonly siteName: string;
  readonly streaming: Readonly<StreamingOptions>;
  /** Open event streams (for limits and for tests that check streams end). */
  readonly streams: StreamRegistry;
  /** The search index over the site's passages (to keep in a snapshot). */
  readonly index: SearchIndex;
  /**
   * The answer to a valid query: same site and query give the same bytes, apart from
   * `_meta.request_id`.
   */
  answer(query: AskQuery, requestId: string): NlWebResponse;
  /** `answer`, for an example inside a document the server publishes: not counted in `counts`. */
  exampleAnswer(query: AskQuery, requestId: string): NlWebResponse;
  /**
   * The same answer as UTF-8 JSON bytes, equal to `JSON.stringify(answer(query, requestId))`.
   * Bytes, because sending a cached Buffer is about twice as fast as sending a string with
   * non-ASCII characters (the answers quote with “ ” and join names with —).
   */
  answerBody(query: AskQuery, requestId: string): Buffer;
  /**
   * `answerBody` in two pieces, for a writer that sends them without copying the cached part: the
   * per-request head (`{"_meta":…,"content":`) as a string, then the cached rest as bytes.
   */
  answerParts(query: AskQuery, requestId: string): AnswerParts;
  /** Answers currently held by the cache (for monitoring and tests). */
  readonly cachedAnswerCount: number;
  /** Whether the answer to this query is in the cache now. */
  isCached(query: AskQuery): boolean;
  /** What the answer to this query found (the same cached answer; not counted in `counts`): call it after answering. */
  summary(query: AskQuery): AnswerSummary;
  /** Running totals since start (for the metrics): plain counters, cheap on the hot path. */
  readonly counts: Readonly<AskCounts>;
}

export interface AskCounts {
  /** Answers built or taken from the cache (JSON, streamed, HEAD). */
  answers: number;
  /** Answers that list no result: no passage matched, or the question had no searchable word. */
  zeroResults: number;
  /** Answers taken from the answer cache. */
  cacheHits: number;
}

/** An answer's JSON as `head + rest`: `head` holds the request's ids, `rest` is shared. */
export interface AnswerParts {
  head: string;
  rest: Buffer;
  summary: AnswerSummary;
}

/** What an answer found, in numbers: the same for every request with the same query. */
export interface AnswerSummary {
  /** Results in the answer (0 for an answer that found nothing and for an elicitation). */
  resultCount: number;
  /** Distinct search terms the query analysed to (0: only stop words or punctuation). */
  queryTermCount: number;
  /** Distinct query terms the top result matched (0 without results). */
  topMatchedTermCount: number;
  /** BM25F score of the top result (0 without results). */
  topScore: number;
}

/** The part of an answer that depends only on the site and the query (not on ids). */
interface CachedAnswer {
  responseType: 'Answer' | 'Elicitation';
  content: NlWebContentItem[];
  /** `JSON.stringify(content)` and the answer's closing brace, as UTF-8. */
  rest: Buffer;
  summary: AnswerSummary;
}

const NOTHING_FOUND: AnswerSummary = Object.freeze({
  resultCount: 0,
  queryTermCount: 0,
  topMatchedTermCount: 0,
  topScore: 0,
});

const cachedAnswer = (
  responseType: CachedAnswer['responseType'],
  content: NlWebContentItem[],
  summary: AnswerSummary,
): CachedAnswer => ({
  responseType,
  content,
  rest: Buffer.from(`${JSON.stringify(content)}}`),
  summary: Object.freeze(summary),
});

interface Entry {
  page: Page;
  passage: Passage;
  /** Absolute URL of the passage (page URL + anchor). */
  url: string;
}

/**
 * Passages whose snippet analysis is kept (least recently used dropped first): analysing a
 * passage's text was most of the cost of a new answer. A few MB at most.
 */
export const PREPARED_PASSAGE_CACHE_SIZE = 4000;

/**
 * Builds the ask service: one search index over every passage of the site (title = page title,
 * headings = heading path below the title, body = passage text), built once.
 */
export function createAskService(
  site: Site,
  publicBaseUrl: string,
  options: AskServiceOptions = {},
): AskService {
  const streaming: StreamingOptions = { ...DEFAULT_STREAMING, ...options.streaming };
  if (!(streaming.heartbeatMs > 0 && streaming.heartbeatMs <= 15_000))
    throw new RangeError('streaming.heartbeatMs must be in 1 … 15000');
  if (!(Number.isInteger(streaming.batchSize) && streaming.batchSize >= 1))
    throw new RangeError('streaming.batchSize must be a whole number ≥ 1');

  const base = new URL(publicBaseUrl);
  const siteHost = base.host;
  const siteName = site.info.name || siteHost;
  const pageLink = (page: Page, anchor: string | null): string => {
    const url = new URL(base.pathname.replace(/\/$/, '') + page.url, base);
    if (anchor) url.hash = anchor;
    return url.href;
  };

  const entries = new Map<string, Entry>();
  for (const page of site.pages)
    for (const passage of page.passages)
      entries.set(passage.key, { page, passage, url: pageLink(page, passage.anchor) });
  const passageCount = entries.size;
  // The documents are needed only to build the index (not kept: ~1 MB of joined headings on a large site).
  const index =
    options.index ??
    buildIndex(site.pages.flatMap((page) => page.passages.map((passage) => passageDocument(page, passage))));

  const prepared = new LruCache<string, PreparedText>(PREPARED_PASSAGE_CACHE_SIZE);
  /** The text a passage's snippet quotes (its own text, or its page's description), analysed once. */
  const snippetSource = ({ page, passage }: Entry): PreparedText =>
    prepared.getOrSet(passage.key, () =>
      prepareSnippetText(passage.text.trim() !== '' ? passage.text : page.description),
    );

  const toResource = (hit: SearchResult): NlWebContentItem => {
    const entry = entries.get(hit.key)!;
    const { page, passage, url } = entry;
    const heading = headingsBelowTitle(page, passage).at(-1);
    const snippet = makeSnippet(snippetSource(entry), hit.matchedTerms, { maxLength: SNIPPET_LENGTH });
    const data: AskResult = {
      '@type': isDocumentation(page.url) ? 'TechArticle' : 'WebPage',
      url,
      name: heading ? `${page.title} — ${heading}` : page.title,
      description: snippet.text,
      site: siteHost,
      score: hit.score,
      ...(page.date ? { datePublished: page.date } : {}),
      dateModified: page.lastModified,
      ...(page.tags.length > 0 ? { keywords: [...page.tags] } : {}),
      matchedTerms: hit.matchedTerms,
      matchedWords: snippet.matchedWords,
      highlights: snippet.highlights.map((h) => ({ start: h.start, end: h.end })),
    };
    return { type: 'resource', resource: { uri: url, mimeType: 'text/html', data } };
  };

  const compute = (text: string, maxResults: number): CachedAnswer => {
    const queryTermCount = analyzeQuery(text).length;
    if (queryTermCount === 0) {
      return cachedAnswer(
        'Elicitation',
        [{ type: 'text', text: elicitationText(text, siteName) }],
        NOTHING_FOUND,
      );
    }
    const hits = rankPassages(index, entries, text, maxResults, passageCount);
    const resources = hits.map(toResource);
    const top = hits[0];
    return cachedAnswer(
      'Answer',
      [{ type: 'text', text: summaryText(text, siteName, resources) }, ...resources],
      {
        resultCount: hits.length,
        queryTermCount,
        topMatchedTermCount: top ? Math.min(new Set(top.matchedTerms).size, queryTermCount) : 0,
        topScore: top?.score ?? 0,
      },
    );
  };

  // Answers are pure functions of (site, query), so repeated questions are served from memory.
  const cache = new LruCache<string, CachedAnswer>(options.cacheSize ?? DEFAULT_ANSWER_CACHE_SIZE);
  // A caller that asks with the same query object again (the fast path keeps parsed URLs) skips
  // normalising its text again; the key is reused only while text and maxResults are unchanged.
  const keys = new WeakMap<AskQuery, { text: string; maxResults: number; key: string }>();
  const cacheKey = (query: AskQuery): string => {
    const known = keys.get(query);
    if (known && known.text === query.text && known.maxResults === query.maxResults) return known.key;
    const key = `${query.maxResults}\u0000${normaliseQuery(query.text)}`;
    keys.set(query, { text: query.text, maxResults: query.maxResults, key });
    return key;
  };
  const counts: AskCounts = { answers: 0, zeroResults: 0, cacheHits: 0 };
  const lookup = (query: AskQuery, counted = true): CachedAnswer => {
    let answer: CachedAnswer | undefined;
    if (cache.capacity === 0) answer = compute(normaliseQuery(query.text), query.maxResults);
    else {
      const key = cacheKey(query);
      answer = cache.get(key);
      if (answer === undefined) {
        answer = compute(normaliseQuery(query.text), query.maxResults);
        cache.set(key, answer);
      } else if (counted) counts.cacheHits++;
    }
    if (counted) {
      counts.answers++;
      if (answer.summary.resultCount === 0) counts.zeroResults++;
    }
    return answer;
  };

  const metaOf = (
    query: AskQuery,
    responseType: CachedAnswer['responseType'],
    requestId: string,
  ): NlWebMeta => ({
    response_type: responseType,
    version: NLWEB_VERSION,
    ...(query.conversationId !== null ? { conversation_id: query.conversationId } : {}),
    request_id: requestId,
  });

  // `JSON.stringify` of metaOf's object, written out: the members in the same order.
  const headStart = (responseType: CachedAnswer['responseType']) =>
    `{"_meta":{"response_type":"${responseType}","version":${JSON.stringify(NLWEB_VERSION)},`;
  const HEAD_START = { Answer: headStart('Answer'), Elicitation: headStart('Elicitation') };
  const answerParts = (query: AskQuery, requestId: string): AnswerParts => {
    const cached = lookup(query);
    const conversation =
      query.conversationId !== null ? `"conversation_id":${JSON.stringify(query.conversationId)},` : '';
    const head = `${HEAD_START[cached.responseType]}${conversation}"request_id":${JSON.stringify(requestId)}},"content":`;
    return { head, rest: cached.rest, summary: cached.summary };
  };

  return {
    pageCount: site.pages.length,
    passageCount,
    siteName,
    streaming,
    streams: options.streams ?? new StreamRegistry(streaming),
    index,
    answer(query, requestId) {
      const cached = lookup(query);
      // A fresh array, so a caller that changes its answer cannot change the cached one.
      return { _meta: metaOf(query, cached.responseType, requestId), content: [...cached.content] };
    },
    exampleAnswer(query, requestId) {
      const cached = lookup(query, false);
      return { _meta: metaOf(query, cached.responseType, requestId), content: [...cached.content] };
    },
    get cachedAnswerCount() {
      return cache.size;
    },
    isCached: (query) => cache.has(cacheKey(query)),
    summary: (query) => lookup(query, false).summary,
    counts,
    answerParts,
    answerBody: (query, requestId) => {
      const { head, rest } = answerParts(query, requestId);
      return Buffer.concat([Buffer.from(head), rest]);
    },
  };
}

/**
 * What the index holds for one passage: title = page title, headings = heading path below the
 * title joined with " > ", body = passage text. Exported so the benchmark indexes exactly this.
 */
export function passageDocument(page: Page, passage: Passage): SearchDocument {
  return {
    key: passage.key,
    fields: {
      title: page.title,
      headings: headingsBelowTitle(page, passage).join(' > '),
      body: passage.text,
    },
  };
}

/** The heading path without a leading copy of the page title (the title is its own field). */
function headingsBelowTitle(page: Page, passage: Passage): string[] {
  const path = passage.headingPath;
  return path.length > 0 && path[0] === page.title ? path.slice(1) : [...path];
}

function isDocumentation(url: string): boolean {
  return url === '/docs' || url.startsWith('/docs/');
}

/**
 * Best passages with at most MAX_PASSAGES_PER_PAGE per page, in score order. Asks the index for
 * more candidates until enough survive the per-page cap or the index has no more.
 */
function rankPassages(
  index: SearchIndex,
  entries: Map<string, Entry>,
  text: string,
  maxResults: number,
  passageCount: number,
): SearchResult[] {
  let limit = Math.min(passageCount, maxResults * 3);
  for (;;) {
    const hits = search(index, text, { limit });
    const perPage = new Map<string, number>();
    const kept: SearchResult[] = [];
    for (const hit of hits) {
      const pageUrl = entries.get(hit.key)!.page.url;
      const seen = perPage.get(pageUrl) ?? 0;
      if (seen >= MAX_PASSAGES_PER_PAGE) continue;
      perPage.set(pageUrl, seen + 1);
      kept.push(hit);
      if (kept.length === maxResults) return kept;
    }
    if (hits.length < limit || limit >= passageCount) return kept;
    limit = Math.min(passageCount, limit * 2);
  }
}

function quoted(text: string): string {
  return `“${text}”`;
}

function summaryText(query: string, siteName: string, resources: NlWebContentItem[]): string {
  if (resources.length === 0)
    return (
      `Nothing on ${siteName} matched ${quoted(query)}. Try other words for the same thing, the name of a ` +
      'product, feature or document, or fewer words.'
    );
  const first = resources[0] as Extract<NlWebContentItem, { type: 'resource' }>;
  const top = first.resource.data as AskResult;
  const count = resources.length === 1 ? '1 result' : `${resources.length} results`;
  return `Found ${count} for ${quoted(query)} on ${siteName}. Top result: ${top.name} (${top.url}).`;
}

function elicitationText(query: string, siteName: string): string {
  return (
    `What would you like to find on ${siteName}? ${quoted(query)} has no words to search for (only very ` +
    'common words or punctuation). Ask about a topic, a product, a feature or a document by name.'
  );
}
