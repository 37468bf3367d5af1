/**
 * The last stage of the ranking, "page": from ranked passages to ranked pages, one result per page
 * (and per group of copies), each with its best sections. It runs after the passage stages
 * (stages.ts) and in its own named steps, in order (PAGE_STEPS): group, score, order, copies,
 * sections. The numbers that tune it are in tuning.ts.
 *
 * Pages are the caller's (the ask service's): the stage knows a page only as a PageSlot, which
 * it writes its grouping into, and by the names `namesOf` gives it.
 */

import { analyzeTokens, QUESTION_WORDS, STOP_WORDS } from './analyzer.js';
import type { SearchIndex } from './build.js';
import { roundScore, type SearchResult } from './results.js';
import { searchWithPlan, type SearchOutcome } from './search.js';
import {
  FIRST_PASSAGES,
  FIRST_PASSAGES_PER_PAGE,
  NAME_MATCH_BOOST,
  SECTION_SHARE,
  SECTION_SUPPORT,
} from './tuning.js';
import { compareCodePoints as compareKeys } from '../unicode/index.js';

/** What the page stage reads and writes of a page. */
export interface PageSlot {
  /** The page's key (its URL): the last tie-break, in code point order. */
  readonly key: string;
  /** Its place in its group of copies' preference order (0 = preferred, or no copies). */
  readonly preference: number;
  /** Its group of copies (the same array for every member), or undefined when it has none. */
  readonly copies: readonly string[] | undefined;
  /**
   * The hits of the ranking in progress that are on this page, valid while `hitsOf` is that
   * ranking's number: grouping by a field of the page, not by a map, saved a hash look-up per
   * passage found (rankings are synchronous, one at a time).
   */
  hits: SearchResult[];
  hitsOf: number;
}

/** A slot's `hits` when it holds none (they are not kept past a ranking). */
export const NO_HITS: SearchResult[] = [];

export interface PageRankingContext<P extends PageSlot> {
  index: SearchIndex;
  /** The page of each passage, by document number. */
  pageOf: readonly P[];
  /** The ways the page is named (title, aliases, keywords), as index terms. */
  namesOf: (page: P) => string[][];
  /** The terms of the site's own name: not a subject when a query has other words. */
  siteNameTerms: ReadonlySet<string>;
  /** Only passages marked 1 here count (a scope, a language), or undefined for all. */
  allow: Uint8Array | undefined;
  /** The query's language (primary subtag), or null: English rules. */
  lang: string | null;
  /** Sections listed per page at most. */
  sectionsPerPage: number;
  /**
   * The page and its translations (the same array for every member), or an empty list when it has
   * none: a page and its translations are one result, as a group of copies is.
   */
  translationsOf?: (page: P) => readonly unknown[];
}

/** A result: a page (the preferred of its copies that matched), its score and best sections. */
export interface RankedPage<P extends PageSlot> {
  page: P;
  score: number;
  /** Its best passages, best first (at most `sectionsPerPage`). */
  hits: SearchResult[];
  /** Share of the query's words (by weight) that the page matched, 0 … 1. */
  coverage: number;
}

export interface PageRanking<P extends PageSlot> {
  pages: RankedPage<P>[];
  /** The passage search the pages were taken from. */
  outcome: SearchOutcome;
}

/**
 * Passages the page stage first asks the passage ranking for, to find `maxResults` pages (it asks
 * for twice as many while too few pages are found).
 */
export function passagesFirstAskedFor(maxResults: number): number {
  return Math.max(FIRST_PASSAGES, maxResults * FIRST_PASSAGES_PER_PAGE);
}

/**
 * How fully the terms the page's hits matched name the page, 0 … 1: for its best name, (share of
 * the name's terms matched × share of the query's words that are in the name)². The hits are read
 * as they are (a page has a few, each with a few terms): a set of their terms, made for each of the
 * ~80 pages a ranking groups, cost more than the look-ups.
 */
export function nameMatch(
  names: readonly string[][],
  hits: readonly { readonly matchedTerms: readonly string[] }[],
  queryWords: number,
): number {
  let best = 0;
  for (const name of names) {
    let hit = 0;
    for (const t of name) if (hits.some((h) => h.matchedTerms.includes(t))) hit++;
    if (hit === 0) continue;
    // Squared: a full match counts, a partial one ("Acme for medical writing" for "does
    // Acme write the protocol") hardly.
    const share = ((hit / name.length) * Math.min(1, hit / Math.max(1, queryWords))) ** 2;
    if (share > best) best = share;
  }
  return best;
}

/** A page grouped by a ranking, scored, before the pages to list are chosen. */
interface Candidate<P extends PageSlot> {
  page: P;
  /** All its hits in this ranking, best first. */
  hits: SearchResult[];
  score: number;
}

/** One round of the page stage: a passage search and what the steps make of it. */
export interface PageRound<P extends PageSlot> {
  readonly ctx: PageRankingContext<P>;
  readonly text: string;
  readonly maxResults: number;
  readonly outcome: SearchOutcome;
  /** The pages the passages are on, in the order of their best passage. */
  grouped: P[];
  candidates: Candidate<P>[];
  kept: RankedPage<P>[];
}

export interface PageStep {
  readonly name: string;
  readonly run: <P extends PageSlot>(round: PageRound<P>) => void;
}

/** Numbers the rankings, for PageSlot.hitsOf. */
let rankings = 0;

/** The page stage's steps, in the order they run. */
export const PAGE_STEPS: readonly PageStep[] = [
  {
    // The passages found, by page, best first (a page's first hit is its best passage).
    name: 'group',
    run(round) {
      const ranking = ++rankings;
      const { pageOf } = round.ctx;
      for (const hit of round.outcome.results) {
        const page = pageOf[hit.doc]!;
        if (page.hitsOf === ranking) page.hits.push(hit);
        else {
          page.hitsOf = ranking;
          page.hits = [hit];
          round.grouped.push(page);
        }
      }
    },
  },
  {
    // A page's score: its best passage's, plus SECTION_SUPPORT of its next best sections', raised
    // by up to NAME_MATCH_BOOST times by how fully the query names the page.
    name: 'score',
    run(round) {
      const { ctx, outcome } = round;
      // How many words the query's subject has: the site's own name is none of it when other words
      // are there (it is on every page), so "how much does Acme cost" names "Pricing" (cost)
      // as fully as "how much does it cost".
      // Only a query that names the whole site: on a site called "OWASP Cheat Sheet Series" every
      // title's "Cheat Sheet" is part of its subject.
      const namesSite =
        ctx.siteNameTerms.size > 0 &&
        [...ctx.siteNameTerms].every((t) => outcome.queryWords.some((w) => w.terms.includes(t)));
      const siteWords = namesSite
        ? outcome.queryWords.filter((w) => w.terms.some((t) => ctx.siteNameTerms.has(t))).length
        : 0;
      const subjectWords =
        siteWords > 0 && siteWords < outcome.queryWords.length
          ? outcome.queryWords.length - siteWords
          : outcome.queryWords.length;
      // A query of question and common words only ("who are you"): it names no subject.
      const frameOnly = analyzeTokens(round.text).every(
        (token) => QUESTION_WORDS.has(token.folded) || STOP_WORDS.has(token.folded),
      );
      for (const page of round.grouped) {
        const { hits } = page;
        const named = nameMatch(ctx.namesOf(page), hits, subjectWords);
        const best = hits[0]!.score;
        // A page that answers in several sections is a little stronger than one with a single
        // mention; but repeating a question's frame words is no answer: for "who are you", a
        // glossary's many definitions that each say "who" would outweigh the one section of
        // "About" that answers it.
        let support = 0;
        if (!frameOnly)
          for (let i = 1; i < Math.min(hits.length, ctx.sectionsPerPage); i++) support += hits[i]!.score;
        round.candidates.push({
          page,
          hits,
          score: roundScore((best + SECTION_SUPPORT * support) * (1 + NAME_MATCH_BOOST * named)),
        });
      }
      // Not kept past the ranking: a page's last hits would otherwise stay in memory.
      for (const page of round.grouped) page.hits = NO_HITS;
    },
  },
  {
    // Score descending, then the preferred copy, then the key.
    name: 'order',
    run(round) {
      round.candidates.sort(
        (a, b) =>
          b.score - a.score || a.page.preference - b.page.preference || compareKeys(a.page.key, b.page.key),
      );
    },
  },
  {
    // One result per group of copies and per page with its translations (the best-placed member
    // stands for the others, which its result lists), until `maxResults`; each with its sections
    // and coverage (only the pages kept: ~10 of the ~80 a ranking groups on a large site).
    name: 'copies',
    run(round) {
      const { outcome, kept } = round;
      const totalWeight = outcome.queryWords.reduce((a, w) => a + w.weight, 0);
      const wordsOf = queryWordsOfTerms(outcome.queryWords);
      const groupsSeen = new Set<readonly unknown[]>();
      const { translationsOf } = round.ctx;
      for (const { page, hits, score } of round.candidates) {
        const group = page.copies;
        if (group) {
          if (groupsSeen.has(group)) continue;
          groupsSeen.add(group);
        }
        const translations = translationsOf?.(page);
        if (translations !== undefined && translations.length > 0) {
          if (groupsSeen.has(translations)) continue;
          groupsSeen.add(translations);
        }
        const covered = coveredWeight(outcome.queryWords, wordsOf, hits);
        kept.push({ page, score, hits, coverage: totalWeight > 0 ? covered / totalWeight : 0 });
        if (kept.length === round.maxResults) break;
      }
    },
  },
  {
    // The sections listed: the best, and the next ones that score at least SECTION_SHARE of it.
    name: 'sections',
    run(round) {
      const { sectionsPerPage } = round.ctx;
      for (const ranked of round.kept) {
        const best = ranked.hits[0]!.score;
        ranked.hits = ranked.hits
          .filter((h, i) => i === 0 || h.score >= best * SECTION_SHARE)
          .slice(0, sectionsPerPage);
      }
    },
  },
];

/**
 * Pages in score order, one result per page (and per group of copies), each with its best
 * sections. Asks the passage ranking for more passages until enough pages are found or the index
 * has no more.
 */
export function rankPages<P extends PageSlot>(
  ctx: PageRankingContext<P>,
  text: string,
  maxResults: number,
): PageRanking<P> {
  const passageCount = ctx.index.core.docCount;
  let limit = Math.min(passageCount, passagesFirstAskedFor(maxResults));
  for (;;) {
    const outcome = searchWithPlan(ctx.index, text, {
      limit,
      ...(ctx.allow ? { allow: ctx.allow } : {}),
      ...(ctx.lang ? { lang: ctx.lang } : {}),
    });
    const round: PageRound<P> = { ctx, text, maxResults, outcome, grouped: [], candidates: [], kept: [] };
    for (const step of PAGE_STEPS) step.run(round);
    const { kept } = round;
    if (kept.length === maxResults || outcome.results.length < limit || limit >= passageCount)
      return { pages: kept, outcome };
    limit = Math.min(passageCount, limit * 2);
  }
}

/** The weight of the query words these hits matched, by the words each matched term counts for. */
function coveredWeight(
  words: SearchOutcome['queryWords'],
  wordsOf: ReadonlyMap<string, number[]>,
  hits: readonly { readonly matchedTerms: readonly string[] }[],
): number {
  const coveredWords = new Set<number>();
  for (const h of hits)
    for (const t of h.matchedTerms) for (const w of wordsOf.get(t) ?? []) coveredWords.add(w);
  let covered = 0;
  for (const w of coveredWords) covered += words[w]!.weight;
  return covered;
}

/**
 * Term → the query words (their places) it counts for: a page's coverage is then read from its few
 * matched terms, where testing every word's terms (a word being typed has up to 30 completions)
 * against every page cost more than the ranking's own grouping.
 */
function queryWordsOfTerms(words: SearchOutcome['queryWords']): Map<string, number[]> {
  const out = new Map<string, number[]>();
  words.forEach((w, i) => {
    for (const t of w.terms) {
      const list = out.get(t);
      if (list === undefined) out.set(t, [i]);
      else if (list.at(-1) !== i) list.push(i);
    }
  });
  return out;
}
