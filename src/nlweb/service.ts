/**
 * The ask service: one closure over a site's passage index, its pages and the answer caches, whose
 * members (outcome, answer, summary, the Accept-Language preference, streams) share that state.
 * More than 500 lines on purpose: split, each part would take the same dozen values; the ranking
 * itself is in src/search/ (stages.ts, page-stage.ts).
 */
import {
  acceptedLanguages,
  detectLanguageAmong,
  formatMessage,
  messagesFor,
  primaryLanguage,
  scriptLanguageAmong,
} from '../language/index.js';
import type { AskResult, AskSection, NlWebContentItem, NlWebMeta, NlWebResponse } from '../contract/index.js';
import {
  ASK_STREAM_DEFAULTS,
  MAX_COPIES_LISTED,
  MAX_SECTIONS_PER_PAGE,
  MAX_TRANSLATIONS_LISTED,
  NLWEB_VERSION,
  SNIPPET_LENGTH,
} from '../contract/index.js';
import type { Page, Passage, Site } from '../content/index.js';
import { encodePagePath, translationsOf } from '../content/index.js';
import {
  analyzeQuery,
  analyzeTokens,
  NO_HITS,
  prepareSnippetText,
  QUESTION_WORDS,
  quoteSnippet,
  rankPages,
  STOP_WORDS,
  type PageRanking,
  type PageRankingContext,
  type PageSlot,
  type PreparedText,
  type RankedPage,
  type SearchIndex,
  type SearchResult,
} from '../search/index.js';
import { LruCache } from '../cache/index.js';
import { utf8Bytes } from '../unicode/index.js';
import { findCopies, inScope, type CopyGroups, nameTerms, pageNames } from './page-traits.js';
import { buildPassageIndex, headingsBelowTitle } from './passage-index.js';
import { normaliseQuery, type AskQuery } from './request.js';
import { StreamRegistry, type StreamLimits } from './stream-registry.js';

/** See ASK_STREAM_DEFAULTS for the meaning and production value of each. */
export interface StreamingOptions extends StreamLimits {
  heartbeatMs: number;
  batchSize: number;
  drainTimeoutMs: number;
}

export const DEFAULT_STREAMING: StreamingOptions = { ...ASK_STREAM_DEFAULTS };

export interface AskServiceOptions {
  streaming?: Partial<StreamingOptions>;
  /**
   * Distinct queries whose answers are kept (least recently used dropped first); 0 disables. An
   * answer is kept from its second ask (see ANSWER_DOORKEEPER_SIZE).
   */
  cacheSize?: number;
  /**
   * The index of this site's passages when it is already built (read from a snapshot): it must
   * be `buildIndex` of these passages with this engine version. By default it is built here.
   */
  index?: SearchIndex;
  /**
   * The groups of copies among the site's pages (`findCopies(site.pages)`) when already found (read
   * from a snapshot with the index: finding them analyses the text of every candidate page, ~0.1 s
   * of a warm start on a large site). By default they are found here.
   */
  copies?: CopyGroups;
  /** The open-stream registry to share (a reloaded site keeps counting the streams already open). */
  streams?: StreamRegistry;
}

/** Enough for the popular questions of a busy site at a few MB; each answer is ~10 KB. */
export const DEFAULT_ANSWER_CACHE_SIZE = 500;

/**
 * Queries asked once, remembered so that an answer enters the cache on its second ask (the
 * "doorkeeper" of TinyLFU): most of a site's questions are asked once, and caching each of them
 * pushed the answers asked again and again out of the cache and kept ~500 × 10–20 KB of one-off
 * answers alive (with the heap fragmentation of their churn). Cleared whole when full; keys only.
 */
export const ANSWER_DOORKEEPER_SIZE = 4 * DEFAULT_ANSWER_CACHE_SIZE;

export interface AskService {
  readonly pageCount: number;
  readonly passageCount: number;
  readonly siteName: string;
  readonly streaming: Readonly<StreamingOptions>;
  /** Open event streams (for limits and for tests that check streams end). */
  readonly streams: StreamRegistry;
  /** The search index over the site's passages (to keep in a snapshot). */
  readonly index: SearchIndex;
  /** The groups of copies among the site's pages (to keep in a snapshot). */
  readonly copies: CopyGroups;
  /**
   * The answer to a valid query: same site and query give the same bytes, apart from
   * `_meta.request_id`.
   */
  answer(query: AskQuery, requestId: string): NlWebResponse;
  /** `answer`, for an example inside a document the server publishes: not counted in `counts`. */
  exampleAnswer(query: AskQuery, requestId: string): NlWebResponse;
  /**
   * What the answer to a valid query holds apart from its ids: the same object again while it is
   * cached (a writer may keep the answer's bytes beside it, see src/http/ask-answer.ts). Counted
   * in `counts` like `answer`.
   */
  outcome(query: AskQuery): AskOutcome;
  /** Answers currently held by the cache (for monitoring and tests). */
  readonly cachedAnswerCount: number;
  /**
   * The query as asked with this `Accept-Language` header: with `preferredLang`, the first of the
   * header's languages the site has pages in, when the query has no `lang` and the site more than
   * one language; else the same query object (so a query parsed once stays one cache key).
   */
  withAcceptLanguage(query: AskQuery, header: string | undefined): AskQuery;
  /**
   * The languages `Accept-Language` chooses among (primary subtags the site declares pages in,
   * sorted): empty unless the site has two or more, so a single-language site's answers and pages
   * never depend on the header (and need no `Vary: Accept-Language`).
   */
  readonly askerLanguages: readonly string[];
  /** The first of this `Accept-Language` header's languages among `askerLanguages`, or null. */
  preferredLanguage(header: string | undefined): string | null;
  /**
   * The asker's language as the answer to this query reads it (a primary subtag: `lang`, else the
   * query's script, the Accept-Language preference, its words), or null when none tells one; kept
   * when no page in it matched and every page was searched. From the same cached answer as
   * `answer` (not counted in `counts`): the site's own words for the asker (the search page, the
   * 404 page) follow it.
   */
  languageOf(query: AskQuery): string | null;
  /** Whether the answer to this query is in the cache now. */
  isCached(query: AskQuery): boolean;
  /** What the answer to this query found (the same cached answer; not counted in `counts`): call it after answering. */
  summary(query: AskQuery): AnswerSummary;
  /** Running totals since start (for the metrics): plain counters, cheap on the hot path. */
  readonly counts: Readonly<AskCounts>;
  /**
   * Analyses, for about `budgetMs`, the snippet texts of passages no answer has quoted yet (what an
   * answer would otherwise do the first time it quotes each); true once every passage's is done.
   * For a server's idle time after start-up and reloads: a new question then costs what it costs
   * on a server that has answered for hours (docs corpus: ~0.5 s of CPU in all).
   */
  analyseSnippetTexts(budgetMs: number): boolean;
}

export interface AskCounts {
  /** Answers built or taken from the cache (JSON, streamed, HEAD). */
  answers: number;
  /** Answers that list no result: no passage matched, or the question had no searchable word. */
  zeroResults: number;
  /** Answers taken from memory: the answer cache, or the same question's answer just computed. */
  cacheHits: number;
}

/** What an answer found, in numbers: the same for every request with the same query. */
export interface AnswerSummary {
  /** Results (pages) in the answer (0 for an answer that found nothing and for an elicitation). */
  resultCount: number;
  /** Distinct search terms the query analysed to (0: only stop words or punctuation). */
  queryTermCount: number;
  /** The answer says it is a weak match: its best page matches at most WEAK_COVERAGE of the query. */
  weak: boolean;
  /** Score of the top result (0 without results). */
  topScore: number;
}

/**
 * The part of an answer that depends only on the site and the query (not on ids): the same for
 * every request with the same query. Frozen, because it is shared by every request that asks it.
 *
 * The content items are kept as their JSON (UTF-8), not as objects: that is what the HTTP layer
 * sends, as it is, and a cached answer takes about half the memory (500 answers on the docs corpus:
 * ~6.5 MB instead of ~15 MB). `contentOf` gives the items back as objects.
 */
export interface AskOutcome {
  readonly responseType: 'Answer' | 'Elicitation';
  /** The asker's language (see AskService.languageOf). */
  readonly lang: string | null;
  /** `JSON.stringify(content)` as UTF-8: the value of the answer's `content` member. */
  readonly contentJson: Buffer;
  readonly summary: AnswerSummary;
}

/** The outcome's content items, as new objects (a caller may change them). */
export const contentOf = (outcome: AskOutcome): NlWebContentItem[] =>
  JSON.parse(outcome.contentJson.toString('utf8')) as NlWebContentItem[];

const NOTHING_FOUND: AnswerSummary = Object.freeze({
  resultCount: 0,
  queryTermCount: 0,
  weak: false,
  topScore: 0,
});

const outcomeOf = (
  responseType: AskOutcome['responseType'],
  lang: string | null,
  content: NlWebContentItem[],
  summary: AnswerSummary,
): AskOutcome =>
  Object.freeze({
    responseType,
    lang,
    contentJson: utf8Bytes(JSON.stringify(content)),
    summary: Object.freeze(summary),
  });

/** A page as the search's page stage ranks it, and what results say of it, made when an answer first lists it. */
interface PageRecord extends PageSlot {
  readonly page: Page;
  /** Its absolute URL. */
  url?: string;
  /** The ways it is named (title, aliases), as index terms. */
  names?: string[][];
  /** The page and its translations (translationsOf), found when a ranking first groups it. */
  translations?: readonly Page[];
}

interface Entry {
  page: Page;
  record: PageRecord;
  passage: Passage;
  /** Absolute URL of the passage (page URL + anchor), made when a result first quotes it. */
  url?: string;
  /**
   * The text its snippets quote, analysed when a result first quotes it and then kept: analysing
   * a passage was most of the cost of a new answer on a large site, and kept as term numbers and
   * offsets (6 bytes a word where they fit in 16 bits) every passage of the 7,544-page docs corpus
   * fits in ~5 MB.
   */
  quoted?: PreparedText;
}

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
    // Encoded segment by segment: a page named "%" or "a?b" must stay one path.
    const url = new URL(base.pathname.replace(/\/$/, '') + encodePagePath(page.url), base);
    if (anchor) url.hash = anchor;
    return url.href;
  };

  // What a result says of a page or passage (URL, names) is made when an answer first lists it,
  // and kept: parsing a URL per result was a tenth of a new answer's cost, and making them all
  // at start-up was a third of a warm start on a large site.
  const records = new Map<Page, PageRecord>();
  const entryOfKey = new Map<string, Entry>();
  const copies = options.copies ?? findCopies(site.pages);
  for (const page of site.pages) {
    const record: PageRecord = {
      page,
      key: page.url,
      preference: copies.preference.get(page.url) ?? 0,
      copies: copies.groups.get(page.url),
      hits: NO_HITS,
      hitsOf: -1,
    };
    records.set(page, record);
    for (const passage of page.passages) entryOfKey.set(passage.key, { page, record, passage });
  }
  const pageUrl = (record: PageRecord): string => (record.url ??= pageLink(record.page, null));
  const passageCount = entryOfKey.size;
  const index = options.index ?? buildPassageIndex(site.pages);
  // By document number, the number a result carries: a lookup by key was the ranking's largest
  // single cost on a large site (a string compared in a map of ~10,000 keys per passage found).
  const entries: Entry[] = index.core.keys.map((key) => entryOfKey.get(key)!);
  const pagesByUrl = new Map(site.pages.map((p) => [p.url, p]));
  const namesOf = (record: PageRecord): string[][] => (record.names ??= pageNames(record.page));
  // The site's own name in a question ("how much does Acme cost") names no page's subject.
  const siteNameTerms = new Set(nameTerms(siteName));
  const translationsOfRecord = (record: PageRecord): readonly Page[] =>
    (record.translations ??= translationsOf(site, record.page));
  const pageOf = entries.map((entry) => entry.record);
  /** `filterBy`: the language whose pages alone are searched (when the site declares it), or null. */
  const rankingContext = (
    scope: string | null,
    lang: string | null,
    filterBy: string | null = lang,
  ): PageRankingContext<PageRecord> => ({
    index,
    pageOf,
    namesOf,
    siteNameTerms,
    translationsOf: translationsOfRecord,
    allow: allowFor(scope, filterBy),
    lang,
    sectionsPerPage: MAX_SECTIONS_PER_PAGE,
  });

  // Scopes are few (a version, a section): their masks over the index's documents are kept.
  const scopes = new LruCache<string, Uint8Array>(64);
  const scopeMask = (scope: string): Uint8Array =>
    scopes.getOrSet(scope, () => {
      const mask = new Uint8Array(index.core.docCount);
      entries.forEach((entry, d) => {
        if (inScope(entry.page, scope)) mask[d] = 1;
      });
      return mask;
    });

  // The site's languages (primary subtags) and, per language, the passages of its pages: a query
  // in a language the site has searches that language's pages; in another, every page.
  // A language counts when at least 5% of the pages are in it: a page or two detected wrongly
  // (Russian as Bulgarian) do not make the site bilingual.
  const pagesIn = new Map<string, number>();
  for (const page of site.pages) {
    const code = primaryLanguage(page.lang);
    pagesIn.set(code, (pagesIn.get(code) ?? 0) + 1);
  }
  const siteLanguages = [...pagesIn]
    .filter(([, count]) => count >= site.pages.length * 0.05)
    .map(([code]) => code)
    .sort();
  // Languages the content declares (front matter, folders, _site.yaml): only these filter pages.
  const isDeclared = (page: Page): boolean => page.detectedLang === null || site.info.language !== null;
  const declared = new Set(site.pages.filter(isDeclared).map((page) => primaryLanguage(page.lang)));
  const languageMasks = new Map<string, Uint8Array>();
  const languageMask = (code: string): Uint8Array | undefined => {
    if (siteLanguages.length < 2 || !declared.has(code)) return undefined;
    let mask = languageMasks.get(code);
    if (!mask) {
      mask = new Uint8Array(index.core.docCount);
      entries.forEach((entry, d) => {
        // A page whose language was only detected is never left out: detection can be wrong.
        if (!isDeclared(entry.page) || primaryLanguage(entry.page.lang) === code) mask![d] = 1;
      });
      languageMasks.set(code, mask);
    }
    return mask;
  };
  const allowFor = (scope: string | null, lang: string | null): Uint8Array | undefined => {
    const byScope = scope === null ? undefined : scopeMask(scope);
    const byLang = lang === null ? undefined : languageMask(lang);
    if (!byLang) return byScope;
    if (!byScope) return byLang;
    return byScope.map((v, d) => v & (byLang[d] as number));
  };
  /**
   * The query's language: the one asked for; else the one its script alone tells; else the one
   * the request's Accept-Language prefers (an asker's own word is better evidence than a detector
   * reading a few words); else told from its words among the site's.
   */
  const queryLanguage = (text: string, asked: string | null, preferred: string | null): string | null => {
    if (asked !== null) return primaryLanguage(asked);
    return scriptLanguageAmong(text, siteLanguages) ?? preferred ?? detectLanguageAmong(text, siteLanguages);
  };
  // Languages Accept-Language can prefer: those the site declares pages in, when it has several.
  const preferable = siteLanguages.filter((code) => declared.has(code));
  const askerLanguages = preferable.length >= 2 ? preferable : [];
  const preferredByHeader = new LruCache<string, string | null>(256);
  const preferredLanguage = (header: string | undefined): string | null =>
    header === undefined || askerLanguages.length === 0
      ? null
      : preferredByHeader.getOrSet(header, () => {
          for (const tag of acceptedLanguages(header)) {
            const code = primaryLanguage(tag);
            if (preferable.includes(code)) return code;
          }
          return null;
        });
  const withPreference = new WeakMap<AskQuery, Map<string, AskQuery>>();

  const termIds = index.core.termIds;
  /** The text a passage's snippet quotes (its own text, or its page's description), analysed once. */
  const snippetSource = (entry: Entry): PreparedText =>
    (entry.quoted ??= prepareSnippetText(
      entry.passage.text.trim() !== '' ? entry.passage.text : entry.page.description,
      termIds,
      entry.page.lang,
    ));

  /** Passages before this one (by document number) have been given to snippetSource by analyseSnippetTexts. */
  let nextToAnalyse = 0;

  const section = (hit: SearchResult): AskSection => {
    const entry = entries[hit.doc]!;
    const wanted: number[] = [];
    for (const term of hit.matchedTerms) {
      const id = termIds.get(term);
      if (id !== undefined) wanted.push(id);
    }
    const snippet = quoteSnippet(snippetSource(entry), wanted, { maxLength: SNIPPET_LENGTH });
    return {
      name: headingsBelowTitle(entry.page, entry.passage).at(-1) ?? entry.page.title,
      url: (entry.url ??= pageLink(entry.page, entry.passage.anchor)),
      description: snippet.text,
      score: hit.score,
      matchedTerms: hit.matchedTerms,
      matchedWords: snippet.matchedWords,
      highlights: snippet.highlights,
    };
  };

  const toResource = (ranked: RankedPage<PageRecord>): NlWebContentItem => {
    const { page: record, hits, score } = ranked;
    const { page } = record;
    const sections = hits.map(section);
    const best = sections[0] as AskSection;
    const url = pageUrl(record);
    const translations = translationsOfRecord(record)
      .filter((copy) => copy !== page)
      .slice(0, MAX_TRANSLATIONS_LISTED)
      .map((copy) => ({ url: pageUrl(records.get(copy)!), lang: copy.lang }));
    const others = (copies.groups.get(page.url) ?? [])
      .filter((u) => u !== page.url)
      .slice(0, MAX_COPIES_LISTED)
      .map((u) => {
        const copy = pagesByUrl.get(u)!;
        return { url: pageUrl(records.get(copy)!), name: copy.title };
      });
    const data: AskResult = {
      '@type': isDocumentation(page.url) ? 'TechArticle' : 'WebPage',
      url,
      name: page.title,
      description: best.description,
      site: siteHost,
      score,
      ...(page.date ? { datePublished: page.date } : {}),
      dateModified: page.lastModified,
      inLanguage: page.lang,
      ...(page.tags.length > 0 ? { keywords: [...page.tags] } : {}),
      matchedTerms: best.matchedTerms,
      matchedWords: best.matchedWords,
      highlights: best.highlights,
      sections,
      ...(page.schemaOrg ? { schema_object: page.schemaOrg } : {}),
      ...(others.length > 0 ? { otherCopies: others } : {}),
      ...(translations.length > 0 ? { translations } : {}),
    };
    return { type: 'resource', resource: { uri: url, mimeType: 'text/html', data } };
  };

  const compute = (
    text: string,
    maxResults: number,
    scope: string | null,
    asked: string | null,
    preferred: string | null,
  ): AskOutcome => {
    // The asker's language: the site's own words for them follow it (languageOf), even when the
    // search below falls back to reading the query in the language of its words.
    const askerLang = queryLanguage(text, asked, preferred);
    let lang = askerLang;
    let ranked = rankPages(rankingContext(scope, lang), text, maxResults);
    // Only the asker's preference (not a `lang` they gave) kept every other page out: when none of
    // the preferred language's pages matches, every page is searched, the query read in the
    // language its own words tell.
    if (ranked.pages.length === 0 && asked === null && lang !== null && lang === preferred) {
      const told = scriptLanguageAmong(text, siteLanguages) ?? detectLanguageAmong(text, siteLanguages);
      const fallback = rankPages(rankingContext(scope, told, null), text, maxResults);
      if (fallback.pages.length > 0) {
        lang = told;
        ranked = fallback;
      }
    }
    const queryTermCount = analyzeQuery(text).length;
    if (!ranked.outcome.matchedAny && queryTermCount === 0) {
      return outcomeOf(
        'Elicitation',
        askerLang,
        [{ type: 'text', text: elicitationText(text, siteName, askerLang) }],
        NOTHING_FOUND,
      );
    }
    const resources = ranked.pages.map(toResource);
    const best = ranked.pages[0];
    const failed = best === undefined || best.coverage <= WEAK_COVERAGE;
    const typing =
      failed &&
      failureIsTheWordBeingTyped(
        text,
        (finished) => rankPages(rankingContext(scope, lang), finished, 1).pages[0],
      );
    return outcomeOf(
      'Answer',
      askerLang,
      [
        {
          type: 'text',
          text: summaryText(text, siteName, best ? pageUrl(best.page) : '', ranked, scope, typing, askerLang),
        },
        ...resources,
      ],
      {
        resultCount: ranked.pages.length,
        queryTermCount,
        weak: best !== undefined && best.coverage <= WEAK_COVERAGE,
        topScore: best?.score ?? 0,
      },
    );
  };

  // Answers are pure functions of (site, query), so repeated questions are served from memory.
  const cache = new LruCache<string, AskOutcome>(options.cacheSize ?? DEFAULT_ANSWER_CACHE_SIZE);
  // A caller that asks with the same query object again (the fast path keeps parsed URLs) skips
  // normalising its text again; the key is reused only while text and maxResults are unchanged.
  const keys = new WeakMap<
    AskQuery,
    {
      text: string;
      maxResults: number;
      scope: string | null;
      lang: string | null;
      preferred: string | null;
      key: string;
    }
  >();
  const scopeOf = (query: AskQuery): string | null => normaliseScope(query.scope);
  const cacheKey = (query: AskQuery): string => {
    const known = keys.get(query);
    const scope = scopeOf(query);
    const lang = query.lang ?? null;
    const preferred = lang === null ? (query.preferredLang ?? null) : null;
    if (
      known &&
      known.text === query.text &&
      known.maxResults === query.maxResults &&
      known.scope === scope &&
      known.lang === lang &&
      known.preferred === preferred
    )
      return known.key;
    const key = `${query.maxResults}\u0000${scope ?? ''}\u0000${lang ?? ''}\u0000${preferred ?? ''}\u0000${normaliseQuery(query.text)}`;
    keys.set(query, { text: query.text, maxResults: query.maxResults, scope, lang, preferred, key });
    return key;
  };
  const computeFor = (query: AskQuery): AskOutcome =>
    compute(
      normaliseQuery(query.text),
      query.maxResults,
      scopeOf(query),
      query.lang ?? null,
      query.lang ? null : (query.preferredLang ?? null),
    );
  const counts: AskCounts = { answers: 0, zeroResults: 0, cacheHits: 0 };
  const askedOnce = new Set<string>();
  // The answer computed last, cached or not: the summary asked for right after answering, and a
  // question asked twice in a row, are not computed again.
  let lastKey = '';
  let lastAnswer: AskOutcome | undefined;
  const lookup = (query: AskQuery, counted = true): AskOutcome => {
    let answer: AskOutcome | undefined;
    if (cache.capacity === 0) answer = computeFor(query);
    else {
      const key = cacheKey(query);
      answer = cache.get(key);
      if (answer !== undefined) {
        if (counted) counts.cacheHits++;
      } else {
        const again = key === lastKey;
        answer = again ? lastAnswer! : computeFor(query);
        if (counted) {
          if (again) counts.cacheHits++;
          // Its second ask: kept from now on.
          if (askedOnce.delete(key)) cache.set(key, answer);
          else {
            if (askedOnce.size >= ANSWER_DOORKEEPER_SIZE) askedOnce.clear();
            askedOnce.add(key);
          }
        }
      }
      lastKey = key;
      lastAnswer = answer;
    }
    if (counted) {
      counts.answers++;
      if (answer.summary.resultCount === 0) counts.zeroResults++;
    }
    return answer;
  };

  return {
    pageCount: site.pages.length,
    passageCount,
    siteName,
    streaming,
    streams: options.streams ?? new StreamRegistry(streaming),
    index,
    copies,
    answer(query, requestId) {
      const outcome = lookup(query);
      // New objects, so a caller that changes its answer cannot change the cached one.
      return { _meta: answerMeta(query, outcome.responseType, requestId), content: contentOf(outcome) };
    },
    exampleAnswer(query, requestId) {
      const outcome = lookup(query, false);
      return { _meta: answerMeta(query, outcome.responseType, requestId), content: contentOf(outcome) };
    },
    outcome: (query) => lookup(query),
    get cachedAnswerCount() {
      return cache.size;
    },
    isCached: (query) => cache.has(cacheKey(query)),
    askerLanguages,
    preferredLanguage,
    languageOf: (query) => lookup(query, false).lang,
    withAcceptLanguage(query, header) {
      if (query.lang) return query;
      const preferred = preferredLanguage(header);
      if (preferred === null) return query;
      let byLanguage = withPreference.get(query);
      if (!byLanguage) withPreference.set(query, (byLanguage = new Map()));
      let preferring = byLanguage.get(preferred);
      if (!preferring) byLanguage.set(preferred, (preferring = { ...query, preferredLang: preferred }));
      return preferring;
    },
    summary: (query) => lookup(query, false).summary,
    counts,
    analyseSnippetTexts(budgetMs) {
      const deadline = performance.now() + budgetMs;
      while (nextToAnalyse < entries.length) {
        snippetSource(entries[nextToAnalyse++]!);
        // The clock is read every 32 passages (~1.5 ms of work on the docs corpus).
        if ((nextToAnalyse & 31) === 0 && performance.now() >= deadline) break;
      }
      return nextToAnalyse >= entries.length;
    },
  };
}

/** An answer's `_meta`: the one place its members and their order are written. */
export function answerMeta(
  query: AskQuery,
  responseType: AskOutcome['responseType'],
  requestId: string,
): NlWebMeta {
  return {
    response_type: responseType,
    version: NLWEB_VERSION,
    ...(query.conversationId !== null ? { conversation_id: query.conversationId } : {}),
    request_id: requestId,
  };
}

function isDocumentation(url: string): boolean {
  return url === '/docs' || url.startsWith('/docs/');
}

/** A valid scope, or null for the whole site. */
function normaliseScope(scope: string | null | undefined): string | null {
  if (typeof scope !== 'string') return null;
  const s = scope.trim();
  return s === '' ? null : s;
}

/**
 * At or below this share of the query's words (weighted) matched by the best page, the answer says it
 * is weak: a two-word question of which one word is found nowhere is not answered confidently.
 */
export const WEAK_COVERAGE = 0.5;

/** The word the text ends inside (letters, digits, a hyphen or apostrophe joining them), if any. */
const WORD_BEING_TYPED = /[\p{L}\p{N}][\p{L}\p{N}'’-]*$|[\p{L}\p{N}]+-$/u;

/**
 * Whether an answer that found nothing, or only weak matches, failed because of the word still
 * being typed (a query that ends inside a word: "e-", "how do I e", "part 1"): the words before it
 * are none, or they alone find a page that matches them well. Such an answer is no verdict of
 * failure: the word is not finished. `bestFor` ranks the finished words alone.
 */
function failureIsTheWordBeingTyped(
  text: string,
  bestFor: (finished: string) => RankedPage<PageRecord> | undefined,
): boolean {
  const last = WORD_BEING_TYPED.exec(text);
  if (last === null) return false;
  const finished = text.slice(0, last.index).trim();
  // Only question and stop words before it ("how do I e"): nothing finished to judge.
  if (
    analyzeTokens(finished).every((token) => QUESTION_WORDS.has(token.folded) || STOP_WORDS.has(token.folded))
  )
    return true;
  const best = bestFor(finished);
  return best !== undefined && best.coverage > WEAK_COVERAGE;
}

/**
 * `topUrl`: the URL of the first result (unused when there is none). `typing`: the answer found
 * nothing or little only because its last word is still being typed (failureIsTheWordBeingTyped).
 */
function summaryText(
  query: string,
  siteName: string,
  topUrl: string,
  ranked: PageRanking<PageRecord>,
  scope: string | null,
  typing: boolean,
  lang: string | null,
): string {
  const { outcome } = ranked;
  // The whole text is in the asker's language (the message catalogue); the English catalogue's
  // lines are the ones agents have always read ("Found 3 results for “…” on …. Top result: …").
  const words = messagesFor(lang);
  const where = scope === null ? siteName : formatMessage(words.answerSiteScope, { site: siteName, scope });
  const corrected = outcome.corrections.length > 0;
  const showing = corrected
    ? `${formatMessage(words.showingResultsFor, { query: outcome.correctedText })}. `
    : '';
  // The results are for the corrected words: the count names them, never the misspelling.
  const searched = corrected ? outcome.correctedText : query;
  const best = ranked.pages[0];
  if (best === undefined)
    return (
      showing +
      formatMessage(typing ? words.answerStillTyping : words.answerNothingMatched, {
        query: searched,
        site: where,
      })
    );
  // A good match; a weak one while the last word is still being typed; a weak one. Each with its
  // own line for one result, so that every language can say the count its own way.
  const many = ranked.pages.length !== 1;
  let line: string;
  if (best.coverage > WEAK_COVERAGE) line = many ? words.answerFound : words.answerFoundOne;
  else if (typing) line = many ? words.answerSoFar : words.answerSoFarOne;
  else line = many ? words.answerWeak : words.answerWeakOne;
  return (
    showing +
    formatMessage(line, {
      count: ranked.pages.length,
      query: searched,
      site: where,
      title: best.page.page.title,
      url: topUrl,
    })
  );
}

function elicitationText(query: string, siteName: string, lang: string | null): string {
  return formatMessage(messagesFor(lang).answerNoWords, { query, site: siteName });
}
