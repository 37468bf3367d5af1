/**
 * Query planning: what each query word matches in this index. A word matches its own term and,
 * scored below it, the words people meant: the completions of the last word while it is still
 * being typed, the nearest vocabulary words of a misspelt word, the parts of a word written
 * together ("part11" → part 11) and the joined form of words written apart ("child item" →
 * childitem). Deterministic: the same index and text give the same plan.
 */

import { analyzeTokens, termOf, type AnalyzedToken } from './analyzer.js';
import { CJK_OR_THAI_RE, cjkQueryWeights } from './cjk.js';
import { compoundLinking, splitCompound } from './compounds.js';
import { languageProfile, type LanguageProfile } from './languages.js';
import type { IndexCore } from './build.js';
import { compareCodePoints as compareKeys } from '../unicode/index.js';
import {
  FRAME_WEIGHT,
  MAX_CORRECTIONS,
  MAX_PREFIX_TERMS,
  PREFIX_WEIGHT,
  SPLIT_WEIGHT,
  TYPO_WEIGHT,
} from './tuning.js';
import { corrections, lookupWord, prefixRange, wordIndex } from './vocabulary.js';

/**
 * Words that give a question its frame rather than its subject ("how long does it take", "how do
 * you handle"); in a question, each counts FRAME_WEIGHT of a subject word.
 */
export const QUESTION_FRAME_WORDS: ReadonlySet<string> = new Set([
  'long',
  'take',
  'takes',
  'taking',
  'handle',
  'handled',
  'handling',
  'get',
  'gets',
  'go',
  'know',
  'tell',
  'need',
  'needs',
  'want',
  'way',
  'ways',
  'able',
  'possible',
  'much',
  'many',
  'often',
  'happen',
  'happens',
  'exactly',
  'actually',
  'really',
  'also',
  'still',
]);

export interface PlannedAlternative {
  id: number;
  term: string;
  /** Share of an exact match's score, 0 … 1. */
  factor: number;
  /** Scored with the idf of this term instead of its own (a joined form stands in for its parts). */
  idfOf?: number;
  /**
   * Scored with the idf of this document frequency instead of its own: a word's completions share
   * the idf of the whole prefix, so a rare completion does not outrank the likely one on rarity.
   */
  idfDf?: number;
}

/** One query word (or a word's part): its alternatives combine by their best, not their sum. */
export interface PlannedWord {
  /** Query-term frequency times the question-frame weight. */
  weight: number;
  /** The exact term first when the index has it. */
  alternatives: PlannedAlternative[];
}

export interface QueryCorrection {
  /** The word as typed. */
  from: string;
  /** What was searched instead. */
  to: string;
}

export interface QueryPlan {
  words: PlannedWord[];
  /** Misspelt or run-together words and what was searched for them, in query order. */
  corrections: QueryCorrection[];
  /** The query with the corrections applied (equal to the query when there are none). */
  correctedText: string;
  /** Weights of the query words that match nothing in the index. */
  unmatched: number[];
}

export interface PlanOptions {
  /** Drop question-form words when other words remain (default true). */
  dropQuestionWords?: boolean;
  /** Match the last word as a prefix when the text ends inside it (default true). */
  prefix?: boolean;
  /** Correct misspelt words and split run-together ones (default true). */
  typos?: boolean;
  /**
   * The query's language (a BCP 47 tag): its words are analysed by that language's rules, and a
   * misspelt word is corrected only to a word of that language. Absent: English.
   */
  lang?: string;
}

const WORD_END_RE = /[\p{L}\p{N}]$/u;
const QUESTION_START_RE =
  /^\s*(?:what|which|who|when|where|why|how|does|do|did|is|are|can|could|should|would|will)\b/i;
const DIGIT_RE = /[0-9]/;

/** A word of capital letters only (digits allowed after the first): "AD", "SSO", "M11". */
const ACRONYM_RE = /^\p{Lu}[\p{Lu}\p{N}]+$/u;
const LOWER_RE = /\p{Ll}/u;

/** Every folded word the text is made of, with its place (stop words included). */
function queryTokens(text: string, profile: LanguageProfile): AnalyzedToken[] {
  return analyzeTokens(text, true, profile);
}

export function planQuery(core: IndexCore, text: string, options: PlanOptions = {}): QueryPlan {
  const dropQuestionWords = options.dropQuestionWords ?? true;
  const prefixOn = options.prefix ?? true;
  const typosOn = options.typos ?? true;
  const profile = languageProfile(options.lang);
  const tokens = queryTokens(text, profile);
  const empty: QueryPlan = { words: [], corrections: [], correctedText: text, unmatched: [] };
  if (tokens.length === 0) return empty;

  // The word being typed: the one the text ends in, when it ends in a letter or digit.
  const lastEnd = WORD_END_RE.test(text) ? (tokens[tokens.length - 1] as AnalyzedToken).end : -1;
  const isQuestion = QUESTION_START_RE.test(text) || text.trimEnd().endsWith('?');
  // A word written in capitals among lower-case words ("SSO with Azure AD") is an acronym written
  // in full, not the start of a longer word: "AD" does not conclude "address" or "administration".
  const acronym = (t: AnalyzedToken): boolean =>
    ACRONYM_RE.test(text.slice(t.start, t.end)) && LOWER_RE.test(text);
  const typing = (t: AnalyzedToken): boolean =>
    prefixOn && t.end === lastEnd && t.folded.length >= 2 && !acronym(t);

  const stop = (t: AnalyzedToken): boolean => t.primary && t.profile.stop.has(t.folded);
  const question = (t: AnalyzedToken): boolean => t.profile.question.has(t.folded);
  // Question words are dropped when other words remain ("how" alone still searches for "how").
  const dropQuestions = dropQuestionWords && tokens.some((t) => !stop(t) && !question(t));
  // ... except the word being typed at the end of a query not phrased as a question ("bun i",
  // "docker do"): there it is as likely a name or the start of one.
  const lastTyped = (t: AnalyzedToken): boolean => prefixOn && !isQuestion && t.end === lastEnd;
  const dropped = (t: AnalyzedToken): boolean => stop(t) || (dropQuestions && question(t) && !lastTyped(t));
  // Chinese bigrams: weighed by Intl.Segmenter's words, question words dropped.
  const cjkWeights = CJK_OR_THAI_RE.test(text) ? cjkQueryWeights(text, tokens) : null;
  const kept = tokens.filter((t) => (!dropped(t) || typing(t)) && cjkWeights?.get(t) !== 0);

  const words: PlannedWord[] = [];
  const byTerm = new Map<string, PlannedWord>();
  const wordOf = new Map<AnalyzedToken, PlannedWord>();
  const fixes: { token: AnalyzedToken; to: string }[] = [];
  const unmatched: number[] = [];
  const v = core.vocabulary;

  for (const t of kept) {
    const frame = isQuestion && QUESTION_FRAME_WORDS.has(t.folded) && kept.length > 1 ? FRAME_WEIGHT : 1;
    const weight = frame * (cjkWeights?.get(t) ?? 1);
    const known = byTerm.get(t.term);
    if (known && !typing(t)) {
      known.weight += weight;
      wordOf.set(t, known);
      continue;
    }
    const alternatives: PlannedAlternative[] = [];
    const exact = core.termIds.get(t.term);
    // A stop or question word still being typed only stands for its completions.
    if (exact !== undefined && !dropped(t)) alternatives.push({ id: exact, term: t.term, factor: 1 });
    let completions = 0;
    if (typing(t)) completions = addCompletions(core, t.folded, alternatives);
    // A compound of German, Dutch, a Nordic language or Finnish that the site does not have
    // whole is searched as the parts it does have (compounds.ts): not a typo, so no correction
    // is shown for it.
    const parts = exact === undefined && completions === 0 && t.primary ? compoundParts(core, t) : null;
    if (parts) {
      for (const part of parts) {
        const same = byTerm.get(part.term);
        if (same) same.weight += weight;
        else {
          const word: PlannedWord = { weight, alternatives: [{ ...part, factor: 1 }] };
          words.push(word);
          byTerm.set(part.term, word);
        }
      }
      continue;
    }
    // Chinese, Japanese, Korean and Thai words are neither corrected nor split: one character
    // changed is another word, not a typo.
    if (exact === undefined && completions === 0 && typosOn && t.primary && !CJK_OR_THAI_RE.test(t.folded)) {
      // One edit is likelier than a missing space; a missing space than two edits. Words with
      // digits (versions, part numbers) are split, never corrected; a word is corrected only to a
      // word of the query's language.
      const found = DIGIT_RE.test(t.folded)
        ? []
        : corrections(v, t.folded, core.df, MAX_CORRECTIONS, (1 << t.profile.id) >>> 0);
      const split = found.length > 0 && found[0]!.distance === 1 ? null : splitWord(core, t.folded);
      if (split) {
        for (const part of split) {
          const id = lookupWord(v, part);
          const word: PlannedWord = {
            weight: weight * SPLIT_WEIGHT,
            alternatives: [{ id, term: core.terms[id] as string, factor: 1 }],
          };
          words.push(word);
        }
        fixes.push({ token: t, to: split.join(' ') });
        continue;
      }
      for (const c of found) {
        const id = v.term[c.word] as number;
        if (alternatives.some((a) => a.id === id)) continue;
        alternatives.push({ id, term: core.terms[id] as string, factor: TYPO_WEIGHT[c.distance] ?? 0.5 });
      }
      if (found.length > 0) fixes.push({ token: t, to: v.words[found[0]!.word] as string });
    }
    if (alternatives.length === 0) {
      unmatched.push(weight);
      continue;
    }
    const word: PlannedWord = { weight, alternatives };
    words.push(word);
    wordOf.set(t, word);
    if (!known) byTerm.set(t.term, word);
  }

  addJoinedForms(core, kept, wordOf);

  if (fixes.length === 0) return { words, corrections: [], correctedText: text, unmatched };
  let correctedText = '';
  let at = 0;
  for (const { token, to } of fixes) {
    correctedText += text.slice(at, token.start) + to;
    at = token.end;
  }
  correctedText += text.slice(at);
  return {
    words,
    corrections: fixes.map(({ token, to }) => ({ from: text.slice(token.start, token.end), to })),
    correctedText,
    unmatched,
  };
}

/**
 * The index terms of the parts of a compound query word (splitCompound against the words the site
 * has in the query word's language; the last part may also be another form of a word the site
 * has, "Festplattennutzungen" → festplatte, nutzung, as its stem is an index term), or null when
 * its language does not compound or no split fits.
 */
function compoundParts(core: IndexCore, t: AnalyzedToken): { id: number; term: string }[] | null {
  const linking = compoundLinking(t.profile.code);
  if (!linking) return null;
  const v = core.vocabulary;
  const langBit = (1 << t.profile.id) >>> 0;
  const siteWord = (part: string): boolean => {
    const i = wordIndex(v, part);
    return i >= 0 && ((v.langs[i] as number) & langBit) !== 0;
  };
  const isPart = (part: string, last: boolean): boolean =>
    siteWord(part) || (last && core.termIds.has(termOf(part, t.profile)));
  const parts = splitCompound(t.folded, isPart, linking);
  if (!parts) return null;
  return parts.map((part) => {
    const id = siteWord(part) ? lookupWord(v, part) : (core.termIds.get(termOf(part, t.profile)) as number);
    return { id, term: core.terms[id] as string };
  });
}

/**
 * Adds the terms of the vocabulary words that start with `prefix` (other than the exact term),
 * the MAX_PREFIX_TERMS most common ones; returns how many words had the prefix.
 */
function addCompletions(core: IndexCore, prefix: string, alternatives: PlannedAlternative[]): number {
  const v = core.vocabulary;
  const [from, to] = prefixRange(v, prefix);
  if (to <= from) return 0;
  // term → best factor (the shortest word of that term is the likeliest completion).
  const best = new Map<number, number>();
  for (let i = from; i < to; i++) {
    const id = v.term[i] as number;
    const factor = PREFIX_WEIGHT * Math.sqrt(prefix.length / (v.words[i] as string).length);
    const prev = best.get(id);
    if (prev === undefined || factor > prev) best.set(id, factor);
  }
  const exact = alternatives[0]?.id;
  const candidates = [...best.entries()].filter(([id]) => id !== exact);
  candidates.sort(([a], [b]) => {
    const da = core.df[a] as number;
    const db = core.df[b] as number;
    return da !== db ? db - da : compareKeys(core.terms[a] as string, core.terms[b] as string);
  });
  const kept = candidates.slice(0, MAX_PREFIX_TERMS);
  let df = exact === undefined ? 0 : (core.df[exact] as number);
  for (const [id] of kept) df += core.df[id] as number;
  df = Math.min(df, core.docCount);
  for (const [id, factor] of kept)
    alternatives.push({ id, term: core.terms[id] as string, factor, idfDf: df });
  // The exact word is also only a guess at what is being typed: it shares the prefix's idf, so a
  // rare two-letter word does not bury the words it begins.
  if (exact !== undefined && kept.length > 0) (alternatives[0] as PlannedAlternative).idfDf = df;
  return to - from;
}

/**
 * Two vocabulary words that `word` is made of ("part11" → part, 11; "loginform" → login, form),
 * both of three characters or more (a number may be shorter); the split whose rarer part is most
 * common wins, then the earliest. Null when there is none.
 */
function splitWord(core: IndexCore, word: string): [string, string] | null {
  const v = core.vocabulary;
  let best: [string, string] | null = null;
  let bestDf = 0;
  for (let i = 1; i < word.length; i++) {
    const a = word.slice(0, i);
    const b = word.slice(i);
    const shortOk = (s: string): boolean => s.length >= 3 || /^[0-9]+$/.test(s);
    if (!shortOk(a) || !shortOk(b)) continue;
    const ta = lookupWord(v, a);
    const tb = lookupWord(v, b);
    if (ta < 0 || tb < 0) continue;
    const df = Math.min(core.df[ta] as number, core.df[tb] as number);
    if (df > bestDf) {
      bestDf = df;
      best = [a, b];
    }
  }
  return best;
}

/**
 * Two or three neighbouring query words that the index has written as one ("child item" →
 * childitem, "Part 11" → part11): the joined term becomes an alternative of each of those words,
 * so a text with "part11" scores as one with "part" and "11", and one with both is not counted twice.
 */
function addJoinedForms(
  core: IndexCore,
  tokens: AnalyzedToken[],
  wordOf: Map<AnalyzedToken, PlannedWord>,
): void {
  const primary = tokens.filter((t) => t.primary);
  for (let i = 0; i + 1 < primary.length; i++) {
    let joined = (primary[i] as AnalyzedToken).folded;
    for (let j = i + 1; j < Math.min(primary.length, i + 3); j++) {
      joined += (primary[j] as AnalyzedToken).folded;
      const id = lookupWord(core.vocabulary, joined);
      if (id < 0) continue;
      for (let k = i; k <= j; k++) {
        const word = wordOf.get(primary[k] as AnalyzedToken);
        const own = word?.alternatives[0];
        if (word && own && !word.alternatives.some((a) => a.id === id))
          word.alternatives.push({ id, term: core.terms[id] as string, factor: 1, idfOf: own.id });
      }
    }
  }
}
