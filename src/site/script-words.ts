/**
 * The words the site's browser scripts say (src/site/assets/), from the message catalogue: a page
 * carries those of the scripts it loads, in its language, as a JSON data block that words.js reads
 * (`say(key)`); the embed on another site's page asks /embed/words.json for them. A data block
 * is not executed, so a strict Content-Security-Policy leaves it alone.
 */

import {
  messagesFor,
  SHOWING_RESULTS_TEMPLATES,
  WEAK_MATCH_ENDS,
  type MessageKey,
} from '../language/index.js';
import { jsonForScript } from '../text/index.js';

/** live-search.js: the header box, the search page and the embed's box. */
const LIVE_SEARCH_WORDS: readonly MessageKey[] = [
  'searching',
  'liveSearchUnavailable',
  'noPageMatches',
  'oneResultFor',
  'resultsFor',
  'noPagesMatched',
  'showingResultsFor',
  'searchResults',
  'seeAllResults',
];

/** form-enhance.js: the site's forms and the embed's. */
const FORM_WORDS: readonly MessageKey[] = [
  'checkTheForm',
  'fieldProblem',
  'nameField',
  'fieldRequired',
  'fieldTooShort',
  'fieldTooLong',
  'fieldNotEmail',
  'enterFullName',
  'chooseMatchingArea',
  'formNotSent',
  'serverAnswered',
  'tryAgain',
];

/** The words of each script a page loads (by its file name), with those of the modules it imports. */
export const SCRIPT_WORDS: Readonly<Record<string, readonly MessageKey[]>> = {
  'search.js': [...LIVE_SEARCH_WORDS, 'searchTitle'],
  'forms.js': FORM_WORDS,
  'frontdoor.js': [
    ...LIVE_SEARCH_WORDS,
    ...FORM_WORDS,
    'searchThisSite',
    'searchPlaceholder',
    'search',
    'formLoading',
    'formNotLoaded',
  ],
};

/**
 * What words.js reads: the scripts' words in `lang` (English without a catalogue for it), and, for
 * the live search, every language's correction line and the fixed start and end of every
 * language's weak-match line (an answer is in the asker's language, which need not be the page's).
 */
export function scriptWords(
  scripts: readonly string[],
  lang: string | null,
): {
  say: Record<string, string>;
  corrections: readonly string[];
  weakMatches: readonly { start: string; end: string }[];
} {
  const messages = messagesFor(lang);
  const say: Record<string, string> = {};
  for (const script of scripts) for (const key of SCRIPT_WORDS[script] ?? []) say[key] = messages[key];
  const live = scripts.some((script) => (SCRIPT_WORDS[script] ?? []).includes('showingResultsFor'));
  return {
    say,
    corrections: live ? SHOWING_RESULTS_TEMPLATES : [],
    weakMatches: live ? WEAK_MATCH_ENDS : [],
  };
}

/** The data block of a page that loads `scripts`, in `lang`; empty when they say nothing. */
export function scriptWordsBlock(scripts: readonly string[], lang: string): string {
  const words = scriptWords(scripts, lang);
  if (Object.keys(words.say).length === 0) return '';
  return `<script type="application/json" id="frontdoor-words">${jsonForScript(words)}</script>`;
}
