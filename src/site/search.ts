import { MAX_QUERY_LENGTH, type NlWebResponse } from '../contract/index.js';
import {
  correctedQueryOf,
  formatMessage,
  languageTag,
  messagesFor,
  saysWeakMatch,
} from '../language/index.js';
import { normaliseQuery, type AnswerSummary, type AskQuery, type AskService } from '../nlweb/index.js';
import type { SearchHit, SearchOutcome } from './search-and-error-pages.js';

/** Results on the server-rendered search page. */
export const SEARCH_PAGE_RESULTS = 20;

function codePointLength(text: string): number {
  let length = 0;
  for (const _ of text) length++;
  return length;
}

/** A site path for links to this site (so they work on any host the site is reached at). */
function linkOf(url: string, publicBaseUrl: string): { href: string; display: string } | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
  const base = new URL(`${publicBaseUrl}/`);
  if (parsed.origin === base.origin && parsed.pathname.startsWith(base.pathname)) {
    const path = `/${parsed.pathname.slice(base.pathname.length)}${parsed.search}${parsed.hash}`;
    let display = path;
    try {
      display = decodeURI(path);
    } catch {
      display = path;
    }
    return { href: path, display };
  }
  return { href: parsed.href, display: parsed.href };
}

function highlightsOf(value: unknown, snippet: string): SearchHit['highlights'] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (range): range is { start: number; end: number } =>
      typeof range === 'object' &&
      range !== null &&
      Number.isInteger((range as { start: unknown }).start) &&
      Number.isInteger((range as { end: unknown }).end) &&
      (range as { start: number }).start >= 0 &&
      (range as { end: number }).end <= snippet.length,
  );
}

/**
 * The search page's results, from the NLWeb answer: one entry per page, its other sections inside;
 * its own words in `lang` (the search page's language).
 */
export function outcomeOf(
  query: string,
  answer: NlWebResponse,
  publicBaseUrl: string,
  lang: string | null = null,
): SearchOutcome {
  const words = messagesFor(lang);
  let status = '';
  const hits: SearchHit[] = [];
  for (const item of answer.content) {
    if (item.type === 'text') {
      if (status === '') status = item.text;
      continue;
    }
    const data = item.resource.data;
    for (const result of Array.isArray(data) ? data : [data]) {
      const record = result as Record<string, unknown>;
      if (typeof record.url !== 'string') continue;
      const link = linkOf(record.url, publicBaseUrl);
      if (!link) continue;
      const snippet = typeof record.description === 'string' ? record.description : '';
      const sections = (Array.isArray(record.sections) ? record.sections : []).flatMap((value: unknown) => {
        const section = value as Record<string, unknown>;
        const sectionLink = typeof section.url === 'string' ? linkOf(section.url, publicBaseUrl) : null;
        if (!sectionLink || typeof section.name !== 'string') return [];
        const text = typeof section.description === 'string' ? section.description : '';
        return [
          {
            title: section.name,
            href: sectionLink.href,
            snippet: text,
            highlights: highlightsOf(section.highlights, text),
          },
        ];
      });
      hits.push({
        title: typeof record.name === 'string' ? record.name : link.display,
        // The best section's anchor (the page itself when that is the top of the page).
        href: sections[0]?.href ?? link.href,
        displayUrl: link.display,
        snippet,
        highlights: highlightsOf(record.highlights, snippet),
        sections: sections.slice(1),
      });
    }
  }
  // The answer says its correction, and that the match is weak, in the asker's language, whichever
  // that is.
  const corrected = correctedQueryOf(status);
  const weak = saysWeakMatch(status);
  // The answer's own text repeats the top URL, as agents want it; people get a count, for
  // the corrected query when there is one (never the misspelling beside "Showing results for").
  const shown = corrected ? corrected.query : query;
  if (hits.length > 0)
    status = weak
      ? formatMessage(words.noPageMatches, { query: shown })
      : formatMessage(hits.length === 1 ? words.oneResultFor : words.resultsFor, {
          count: hits.length,
          query: shown,
        });
  return {
    query,
    status,
    ...(corrected ? { correction: formatMessage(words.showingResultsFor, { query: corrected.query }) } : {}),
    hits,
    ...(lang !== null ? { lang } : {}),
  };
}

/** What tells the asker's language to a page the site writes for them (the search page, the 404 page). */
export interface AskerLanguageHints {
  /** The request's `lang` parameter as given (ignored when it is not a BCP 47 tag). */
  lang?: string | null;
  /** The request's `Accept-Language` header. */
  acceptLanguage?: string | undefined;
}

/** The `lang` a query asks with: the hint's tag when it is one. */
export function askedLanguage(hints: AskerLanguageHints): string | null {
  return hints.lang ? languageTag(hints.lang) : null;
}

/**
 * The language of the site's own words on a page written for this asker, as /ask reads it: with
 * an answered `query` (made with `withAcceptLanguage`), the language the answer was read in
 * (`lang`, the query's script, Accept-Language, its words); without one, the `lang` asked for,
 * else the Accept-Language preference among the site's languages. Null when nothing tells one
 * (the caller then uses the site's language).
 */
export function askerLanguage(
  ask: AskService,
  hints: AskerLanguageHints,
  answered: AskQuery | null = null,
): string | null {
  if (answered !== null) return ask.languageOf(answered);
  return askedLanguage(hints) ?? ask.preferredLanguage(hints.acceptLanguage);
}

/**
 * The Vary a page written in the asker's language needs: Accept-Language can change it only on a
 * site with two or more languages (a single-language site's pages never depend on it).
 */
export function askerLanguageVary(ask: AskService): Record<string, string> {
  return ask.askerLanguages.length > 0 ? { vary: 'Accept-Language' } : {};
}

/** A search the client's limit refuses: at most `quota` every `windowSeconds`, again in `resetSeconds`. */
export interface SearchRefusal {
  quota: number;
  windowSeconds: number;
  resetSeconds: number;
}

/**
 * Runs a search-page query through the ask service directly (the same answer GET /ask gives).
 * `status` is 400 for a query over the contract's length limit; `summary` is what the search found
 * (null when no search ran).
 */
export async function searchForPage(
  ask: AskService,
  rawQuery: string,
  publicBaseUrl: string,
  requestId: string,
  /**
   * Asked right before the search runs (not for an empty or too long one): the limit the client is
   * over (RATE_LIMIT_ASK, shared with /ask), told in the asker's language, else null.
   */
  refusal: () => SearchRefusal | null | Promise<SearchRefusal | null> = () => null,
  /** The asker's language: the page's `lang` parameter and Accept-Language (askerLanguage). */
  hints: AskerLanguageHints = {},
): Promise<{ status: number; outcome: SearchOutcome; summary: AnswerSummary | null }> {
  const query = normaliseQuery(rawQuery);
  const asked = askedLanguage(hints);
  // Without an answer (nothing asked, too long, refused) the page still speaks the asker's language.
  const lang = askerLanguage(ask, hints);
  if (query === '')
    return {
      status: 200,
      outcome: { query: '', status: messagesFor(lang).searchPrompt, hits: [], lang },
      summary: null,
    };
  const length = codePointLength(query);
  if (length > MAX_QUERY_LENGTH)
    return {
      status: 400,
      outcome: {
        query: Array.from(query).slice(0, MAX_QUERY_LENGTH).join(''),
        status: formatMessage(messagesFor(lang).searchTooLong, { length, max: MAX_QUERY_LENGTH }),
        hits: [],
        lang,
      },
      summary: null,
    };
  const refused = await refusal();
  if (refused !== null) {
    const status = formatMessage(messagesFor(lang).searchTooMany, {
      quota: refused.quota,
      seconds: refused.windowSeconds,
      wait: refused.resetSeconds,
    });
    return { status: 429, outcome: { query, status, hits: [], lang }, summary: null };
  }
  const question = ask.withAcceptLanguage(
    {
      text: query,
      maxResults: SEARCH_PAGE_RESULTS,
      conversationId: null,
      ...(asked !== null ? { lang: asked } : {}),
    },
    hints.acceptLanguage,
  );
  const answer = ask.answer(question, requestId);
  const answeredIn = askerLanguage(ask, hints, question);
  return {
    status: 200,
    outcome: outcomeOf(query, answer, publicBaseUrl, answeredIn),
    summary: ask.summary(question),
  };
}
