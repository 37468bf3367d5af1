/** English: Lucene's stop words, the words that frame a question, Porter2 with a cache. */

import { stemEnglish } from './stemmer.js';

/** Lucene's English stop words (EnglishAnalyzer.ENGLISH_STOP_WORDS_SET), 33 words. */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'but',
  'by',
  'for',
  'if',
  'in',
  'into',
  'is',
  'it',
  'no',
  'not',
  'of',
  'on',
  'or',
  'such',
  'that',
  'the',
  'their',
  'then',
  'there',
  'these',
  'they',
  'this',
  'to',
  'was',
  'will',
  'with',
]);

/**
 * Words that carry the form of a question rather than its topic ("what", "how", "does", "can",
 * "you"...). A query drops them when it has at least one other term, so "how do I rotate keys?"
 * searches for "rotate keys" while "how" alone still searches for "how". Documents keep them.
 * Matched on the folded word, before stemming.
 */
export const QUESTION_WORDS: ReadonlySet<string> = new Set([
  'what',
  'which',
  'who',
  'whom',
  'whose',
  'when',
  'where',
  'why',
  'how',
  'whether',
  'do',
  'does',
  'did',
  'done',
  'doing',
  'can',
  'could',
  'should',
  'would',
  'shall',
  'may',
  'might',
  'must',
  'has',
  'have',
  'had',
  'having',
  'been',
  'being',
  'were',
  'am',
  'i',
  'me',
  'my',
  'we',
  'us',
  'our',
  'you',
  'your',
  'its',
  'any',
  'some',
  'so',
  'than',
  'about',
  'from',
  'please',
]);

const ASCII_LETTERS_RE = /^[a-z]+$/;

// A bounded cache of word → term; analysis is pure, so the cache only saves time.
const STEM_CACHE = new Map<string, string>();
const STEM_CACHE_LIMIT = 200_000;

/**
 * Stem a folded word: ASCII-letter words through Porter2, anything else unchanged. Only stemmed
 * words are cached: numbers and other words come back as they are, and caching them filled the
 * cache (and ~10 MB of a server's memory) with every number ever asked.
 */
export function stemWord(folded: string): string {
  if (!ASCII_LETTERS_RE.test(folded)) return folded;
  const cached = STEM_CACHE.get(folded);
  if (cached !== undefined) return cached;
  const term = stemEnglish(folded);
  if (STEM_CACHE.size >= STEM_CACHE_LIMIT) STEM_CACHE.clear();
  STEM_CACHE.set(folded, term);
  return term;
}
