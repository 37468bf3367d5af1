/**
 * Chinese, Japanese and Korean text has no spaces between words (Korean has them, but particles
 * attach to the noun), so a run of letters would be one token and only the whole run or its
 * beginning could be found. A CJK run becomes its overlapping character bigrams ("压缩方法" →
 * 压缩 缩方 方法), as Lucene's CJK analyzer does: any phrase of two characters or more inside a
 * sentence is found, the bigrams next to each other stay next to each other for proximity, and a
 * common single character (法, の) matches nothing by itself. A run of one character is a term of
 * its own. Adding Intl.Segmenter's dictionary words at the same place was measured on the
 * javascript.info questions and found no more (one Japanese question fewer; docs/multilingual.md),
 * so bigrams alone are indexed (and, for Korean, each syllable too: see `bigrams`). Thai, written without spaces and not in character pairs, is cut
 * into Intl.Segmenter's words. No stemming and no stop words here.
 */

import { ENGLISH } from './languages.js';
import type { AnalyzedToken, WordSink } from './analyzer.js';

/** Characters cut into bigrams: Han, kana (with the prolonged sound mark and 々), Hangul. */
const CJK_CHAR_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc\u3005]/u;
const THAI_CHAR_RE = /\p{Script=Thai}/u;
const HANGUL_RE = /\p{Script=Hangul}/u;
const MARK_RE = /\p{M}/u;
/** A token with any of these is cut here rather than analysed as a word. */
export const CJK_OR_THAI_RE =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\u30fc\u3005]/u;

const segmenters = new Map<string, Intl.Segmenter>();
function segmenter(locale: string): Intl.Segmenter {
  let s = segmenters.get(locale);
  if (!s) {
    s = new Intl.Segmenter(locale, { granularity: 'word' });
    segmenters.set(locale, s);
  }
  return s;
}

type Script = 'cjk' | 'thai' | 'other';
function scriptOf(ch: string, previous: Script): Script {
  if (CJK_CHAR_RE.test(ch)) return 'cjk';
  if (THAI_CHAR_RE.test(ch)) return 'thai';
  // A combining mark (a separate dakuten, a Thai vowel) belongs to the run it follows.
  if (MARK_RE.test(ch)) return previous;
  return 'other';
}

/** NFKC (full-width and half-width forms meet) and lowercase; Hangul stays composed. */
function foldCjk(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/**
 * Cuts `raw` (one token of the analyzer, starting at `at` in the text) into runs by script: CJK
 * runs into bigrams (and words), Thai runs into words, other runs given to `other` as tokens.
 */
export function scanCjk(
  raw: string,
  at: number,
  sink: WordSink,
  other: (part: string, at: number) => void,
): void {
  let runStart = 0;
  let runScript: Script | null = null;
  let i = 0;
  const flush = (end: number): void => {
    if (runScript === null || end <= runStart) return;
    const part = raw.slice(runStart, end);
    if (runScript === 'cjk') bigrams(part, at + runStart, sink);
    else if (runScript === 'thai') thaiWords(part, at + runStart, sink);
    else other(part, at + runStart);
  };
  while (i < raw.length) {
    const cp = raw.codePointAt(i) as number;
    const ch = String.fromCodePoint(cp);
    const script = scriptOf(ch, runScript ?? 'other');
    if (script !== runScript) {
      flush(i);
      runStart = i;
      runScript = script;
    }
    i += ch.length;
  }
  flush(raw.length);
}

/** A CJK run → its overlapping bigrams (one character → itself). */
function bigrams(run: string, at: number, sink: WordSink): void {
  // Code points with their offsets; a combining mark stays with the character before it.
  const chars: { start: number; end: number }[] = [];
  for (let i = 0; i < run.length;) {
    const ch = String.fromCodePoint(run.codePointAt(i) as number);
    const last = chars[chars.length - 1];
    if (last && MARK_RE.test(ch)) last.end = i + ch.length;
    else chars.push({ start: i, end: i + ch.length });
    i += ch.length;
  }
  if (chars.length === 1) {
    sink.word(foldCjk(run), at, at + run.length, true, ENGLISH);
    return;
  }
  for (let k = 0; k + 1 < chars.length; k++) {
    const from = (chars[k] as { start: number }).start;
    const to = (chars[k + 1] as { end: number }).end;
    sink.word(foldCjk(run.slice(from, to)), at + from, at + to, true, ENGLISH);
  }
  // Korean writes a particle onto its noun ("값을", "값이"): a one-syllable noun would otherwise
  // be found only beside the same particle. Each Hangul syllable is also a term of its own, as
  // Lucene's CJK bigram filter does with `outputUnigrams` (measured on the javascript.info
  // questions: Korean success@3 0.80 → 0.83; Chinese unchanged with Han unigrams, so not for Han).
  for (const { start, end } of chars) {
    const syllable = run.slice(start, end);
    if (HANGUL_RE.test(syllable)) sink.word(foldCjk(syllable), at + start, at + end, false, ENGLISH);
  }
}

/** A Thai run → Intl.Segmenter's words. */
function thaiWords(run: string, at: number, sink: WordSink): void {
  for (const seg of segmenter('th').segment(run)) {
    if (seg.isWordLike)
      sink.word(foldCjk(seg.segment), at + seg.index, at + seg.index + seg.segment.length, true, ENGLISH);
  }
}

/**
 * In a query, a bigram inside one of Intl.Segmenter's words ("作用" of "有什么作用") counts fully and
 * a bigram across two ("有什") this much: the index holds every bigram, so without segmentation the
 * accidental pairs of a question weigh as much as its words, and a page sharing only them can win.
 */
export const CROSS_WORD_BIGRAM_WEIGHT = 0.5;

/**
 * Chinese words that frame a question ("what", "how", "why", the question particles): a query's
 * bigrams that touch one are dropped, as an English question's "how" is, when others remain.
 */
export const CHINESE_QUESTION_WORDS: ReadonlySet<string> = new Set([
  '什么',
  '怎么',
  '怎样',
  '怎么样',
  '如何',
  '为什么',
  '为何',
  '哪',
  '哪个',
  '哪些',
  '哪里',
  '是否',
  '能否',
  '吗',
  '呢',
]);

const HAN_RE = /\p{Script=Han}/u;
const KANA_RE = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;

/**
 * The weight of each Chinese bigram among a query's tokens (the others are left out, weight 1): 1
 * inside one of Intl.Segmenter's words, CROSS_WORD_BIGRAM_WEIGHT across two, 0 when it touches a
 * Chinese question word and some other token is left. A query with kana is Japanese, whose
 * particles the segmenter cuts off the words: weighing its bigrams so was measured on the
 * javascript.info questions and lost two (docs/multilingual.md), so Japanese, and Korean, which is
 * written in words already, keep weight 1.
 */
export function cjkQueryWeights(text: string, tokens: readonly AnalyzedToken[]): Map<AnalyzedToken, number> {
  const weights = new Map<AnalyzedToken, number>();
  if (KANA_RE.test(text)) return weights;
  const bigramTokens = tokens.filter((t) => t.end - t.start >= 2 && HAN_RE.test(t.folded));
  if (bigramTokens.length === 0) return weights;
  const words: { start: number; end: number; question: boolean }[] = [];
  for (const seg of segmenter('zh').segment(text)) {
    if (!seg.isWordLike || !HAN_RE.test(seg.segment)) continue;
    const end = seg.index + seg.segment.length;
    words.push({ start: seg.index, end, question: CHINESE_QUESTION_WORDS.has(seg.segment) });
  }
  for (const t of bigramTokens) {
    const touchesQuestion = words.some((w) => w.question && w.start < t.end && t.start < w.end);
    const inOneWord = words.some((w) => w.start <= t.start && t.end <= w.end);
    weights.set(t, touchesQuestion ? 0 : inOneWord ? 1 : CROSS_WORD_BIGRAM_WEIGHT);
  }
  // A question of question words (and stop words) only, "什么", still searches for them.
  const searchable = (t: AnalyzedToken): boolean => weights.get(t) !== 0 && !t.profile.stop.has(t.folded);
  if (!tokens.some(searchable)) for (const t of bigramTokens) weights.set(t, 1);
  return weights;
}
