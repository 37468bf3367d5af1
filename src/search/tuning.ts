/**
 * Every number that tunes the ranking, in one place, each with the reason for its value. The
 * stages that read them are listed in order in stages.ts (passages) and page-stage.ts (pages).
 * Changing one changes answers: record the question set's answers before and compare after
 * (test/questions), and see bench/README.md for what each adds on the judged collections.
 */

import type { RankingOptions } from './options.js';

// ---- Stage "words" (BM25F), "feedback" and "proximity": the index's ranking options.

/**
 * Defaults, each for a stated reason rather than for a benchmark score:
 * - k1 = 1.2, body b = 0.75: the textbook BM25 values (Robertson & Zaragoza).
 * - Titles and heading paths are short and say what a passage is about: a word there counts
 *   more (weights 2 and 1.5, a common BM25F choice) and their length matters less (b 0.5).
 * - Question-form words are dropped from queries that have other words (questions are the
 *   expected input of /ask).
 * - RM3 with Anserini's defaults (10 documents, 10 terms, λ 0.5), feedback documents weighted
 *   by exp(score) as in RM1, new terms limited to those in at most 10% of documents.
 * - Feedback on a short query (two words or fewer, as searched) lifts a document by at most 20% of
 *   its first-pass score and adds no document of its own: the expansion terms are drawn from a few
 *   documents, and with one or two query words they outweighed what the query named ("how do I
 *   export to word": the ICH M11 export how-to, whose output formats include Word, above the
 *   sections about Word itself). 20% keeps feedback's tie-breaking among pages that match alike.
 * - BM25TP proximity with the paper's window of 5 and weight 1, re-scoring the best 30
 *   documents (three pages of ten; on Cranfield 30, 50 and 100 give the same quality).
 * bench/README.md has what each adds on Cranfield and on the docs corpus.
 */
export const DEFAULT_RANKING: RankingOptions = {
  k1: 1.2,
  fields: {
    title: { weight: 2, b: 0.5 },
    headings: { weight: 1.5, b: 0.5 },
    body: { weight: 1, b: 0.75 },
  },
  dropQuestionWords: true,
  proximity: { enabled: true, window: 5, depth: 30, weight: 1, pairs: 'all' },
  feedback: {
    enabled: true,
    docs: 10,
    terms: 10,
    originalWeight: 0.5,
    maxDocFrequency: 0.1,
    docWeighting: 'exp',
    shortQueryWords: 2,
    shortQueryLift: 0.2,
  },
};

// ---- Stage "query": what each query word matches, and how much each alternative counts.

/** Queries are cut to this many distinct terms (a 1000-character query has fewer). */
export const MAX_QUERY_TERMS = 256;
/** Completions of the last word kept (the most common terms first): bounds a two-letter prefix. */
export const MAX_PREFIX_TERMS = 30;
/** Corrections kept per misspelt word. */
export const MAX_CORRECTIONS = 4;
/** A completion of a prefix of p letters to a word of w letters scores PREFIX_WEIGHT · √(p / w). */
export const PREFIX_WEIGHT = 0.8;
/** A correction at edit distance d scores TYPO_WEIGHT[d] of an exact match. */
export const TYPO_WEIGHT: readonly number[] = [1, 0.7, 0.5];
/** A split word's parts each score this share of an exact match. */
export const SPLIT_WEIGHT = 0.8;
/**
 * Words that give a question its frame rather than its subject ("how long does it take", "how do
 * you handle", QUESTION_FRAME_WORDS in query.ts); in a question, each counts this share of a
 * subject word.
 */
export const FRAME_WEIGHT = 0.25;

// ---- Document boosts, set when the index is built.

/** Score share of a link-list section ("Related", "See also", a list of links to other pages). */
export const LINK_LIST_BOOST = 0.25;

// ---- Stage "page": a page's score from its passages.

/**
 * Passages the page stage first asks the passage ranking for, at least this many and this many
 * per page wanted (it asks for twice as many while too few pages are found): several passages of
 * one page, and copies, share a result. At least 100, what the default ten results ask for: a
 * page's support from its next sections is read from the passages fetched, and with 50 for five
 * results or fewer the first page could differ from the default answer's ("export to word").
 */
export const FIRST_PASSAGES = 100;
export const FIRST_PASSAGES_PER_PAGE = 10;
/** A page named by the query (title or alias) scores up to 1 + this times more: the page itself lands first. */
export const NAME_MATCH_BOOST = 4;
/** Share of the page's 2nd and 3rd best sections' scores added to its best. */
export const SECTION_SUPPORT = 0.3;
/** Sections below this share of the page's best passage score are not listed. */
export const SECTION_SHARE = 0.3;
