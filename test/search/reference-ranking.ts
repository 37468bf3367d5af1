/**
 * A slow, obvious reference of the whole ranking, for property tests of the fast engine in
 * src/search. Plain loops over plain arrays of analysed documents; each stage computes the formula
 * the engine documents, in the order below, and nothing is cached, indexed or skipped:
 *
 * 1. Query planning: which index terms each query word stands for, and at what share of an exact
 *    match (its own term; completions of the word being typed; corrections of a misspelt word;
 *    the parts of a run-together word; the joined form of words written apart).
 * 2. BM25F: a word scores, in each document, its best alternative.
 * 3. RM3 pseudo-relevance feedback: terms of the best documents are added to the query (on a
 *    short query, capped at a share of each document's first-pass score).
 * 4. BM25TP proximity: the best documents gain a bonus for query words close together.
 * 5. Scores are rounded to 6 decimals; ties go to the smaller key (UTF-8 byte order).
 *
 * Only the analyser (text → tokens) is shared with the engine: this checks ranking, not analysis.
 *
 * Two storage details of the engine are reproduced because they change the last bits of a score:
 * a document's saturated term weight and its boost are stored as 32-bit floats (build.ts), so the
 * reference rounds them with Math.fround; and sums are added in the engine's documented order
 * (query words in order, feedback documents best first, words in text order) so that equal
 * inputs give equal doubles and near-ties break the same way.
 */

import type { AnalyzedToken, RankingOptions, SearchDocument } from '../../src/search/index.js';
import {
  analyzeTokens,
  compareKeys,
  FIELD_NAMES,
  QUESTION_FRAME_WORDS,
  QUESTION_WORDS,
  STOP_WORDS,
} from '../../src/search/index.js';

/** A document as the reference sees it: its tokens per field (joined compound forms included). */
export interface ReferenceDocument {
  key: string;
  boost: number;
  /** tokens[f] for field FIELD_NAMES[f]. */
  tokens: AnalyzedToken[][];
  /** Same headings and body as an earlier document (in key order): feedback counts the text once. */
  copyOf: number;
}

export interface ReferenceCorpus {
  docs: ReferenceDocument[];
  /**
   * Index terms in order of first appearance (documents in key order, fields in order, tokens in
   * text order): the engine's term numbers, which break ties between feedback terms.
   */
  terms: string[];
  /** Every folded surface word → the term of its first appearance. */
  vocabulary: Map<string, string>;
  /** Counted once here only to keep the tests quick: documents with the term in any field. */
  df: Map<string, number>;
  /** Mean length of each field over all documents. */
  avgFieldLength: number[];
}

export function referenceCorpus(input: readonly SearchDocument[]): ReferenceCorpus {
  const sorted = [...input].sort((a, b) => compareKeys(a.key, b.key));
  const terms: string[] = [];
  const seen = new Set<string>();
  const vocabulary = new Map<string, string>();
  const docs: ReferenceDocument[] = [];
  for (const doc of sorted) {
    const tokens = FIELD_NAMES.map((f) => analyzeTokens(doc.fields[f]));
    for (const field of tokens)
      for (const t of field) {
        if (!seen.has(t.term)) {
          seen.add(t.term);
          terms.push(t.term);
        }
        if (!vocabulary.has(t.folded)) vocabulary.set(t.folded, t.term);
      }
    const text = `${doc.fields.headings}\u0000${doc.fields.body}`;
    const first = sorted.findIndex((o) => `${o.fields.headings}\u0000${o.fields.body}` === text);
    docs.push({ key: doc.key, boost: doc.boost ?? 1, tokens, copyOf: first });
  }
  const df = new Map<string, number>();
  for (const d of docs)
    for (const term of new Set(d.tokens.flat().map((t) => t.term))) df.set(term, (df.get(term) ?? 0) + 1);
  const avgFieldLength = FIELD_NAMES.map((_, f) =>
    docs.length === 0 ? 0 : docs.reduce((sum, d) => sum + fieldLength(d, f), 0) / docs.length,
  );
  return { docs, terms, vocabulary, df, avgFieldLength };
}

// ---------------------------------------------------------------------------------------------
// Document statistics

/** A field's length: its words, not counting the joined form of a compound ("email" for "e-mail"). */
function fieldLength(doc: ReferenceDocument, f: number): number {
  return doc.tokens[f]!.filter((t) => t.primary).length;
}

function docLength(doc: ReferenceDocument): number {
  let n = 0;
  for (let f = 0; f < FIELD_NAMES.length; f++) n += fieldLength(doc, f);
  return n;
}

function averageFieldLength(corpus: ReferenceCorpus, f: number): number {
  return corpus.avgFieldLength[f]!;
}

/** Occurrences of `term` in field f (joined forms count: they are postings). */
function termFrequency(doc: ReferenceDocument, f: number, term: string): number {
  return doc.tokens[f]!.filter((t) => t.term === term).length;
}

function hasTerm(doc: ReferenceDocument, term: string): boolean {
  return doc.tokens.some((field) => field.some((t) => t.term === term));
}

/** Document frequency: documents with the term in any field. */
function documentFrequency(corpus: ReferenceCorpus, term: string): number {
  return corpus.df.get(term) ?? 0;
}

/** Lucene's BM25 idf: log(1 + (N − df + 0.5) / (df + 0.5)), positive even for common terms. */
function idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/**
 * BM25F's saturated term weight of `term` in `doc`:
 *   tf' = Σ_f weight_f · tf_f / (1 − b_f + b_f · len_f / avgLen_f)
 *   w   = boost · (k1 + 1) · tf' / (k1 + tf')
 * Field frequencies are weighted and length-normalised first, then saturated once, so a word in
 * the title and the body is not counted as two independent matches (Robertson & Zaragoza).
 */
function bm25fWeight(
  corpus: ReferenceCorpus,
  ranking: RankingOptions,
  doc: ReferenceDocument,
  term: string,
): number {
  let tf = 0;
  for (let f = 0; f < FIELD_NAMES.length; f++) {
    const { weight, b } = ranking.fields[FIELD_NAMES[f]!];
    const avg = averageFieldLength(corpus, f);
    const norm = avg > 0 ? weight / (1 - b + (b * fieldLength(doc, f)) / avg) : 0;
    tf += termFrequency(doc, f, term) * norm;
  }
  if (tf <= 0) return 0;
  const k1 = ranking.k1;
  return Math.fround((Math.fround(doc.boost) * (k1 + 1) * tf) / (k1 + tf));
}

// ---------------------------------------------------------------------------------------------
// 1. Query planning

/** One query word's stand-in: an index term, its share of an exact match, the df of its idf. */
export interface ReferenceAlternative {
  term: string;
  factor: number;
  idfDf: number;
}

export interface ReferenceWord {
  /** Times the word occurs in the query, a question's frame words counting 0.25 each. */
  weight: number;
  alternatives: ReferenceAlternative[];
}

/** Optimal string alignment distance: insertions, deletions, substitutions, adjacent swaps. */
export function osaDistance(a: string, b: string): number {
  const d: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    d.push([]);
    for (let j = 0; j <= b.length; j++) {
      if (i === 0 || j === 0) {
        d[i]![j] = i + j;
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/** Vocabulary words in key order (the engine's tie-break between equally common corrections). */
function sortedWords(corpus: ReferenceCorpus): string[] {
  return [...corpus.vocabulary.keys()].sort(compareKeys);
}

/**
 * Corrections of a misspelt word: the vocabulary words at the smallest edit distance found, if
 * it is within what the word's length allows (none up to 4 characters, one from 5, two from 8);
 * most common term first, then key order; at most 4.
 */
function referenceCorrections(corpus: ReferenceCorpus, word: string): { word: string; distance: number }[] {
  const allowed = word.length <= 4 ? 0 : word.length < 8 ? 1 : 2;
  if (allowed === 0) return [];
  const near = sortedWords(corpus)
    .filter((w) => w !== word)
    .map((w) => ({ word: w, distance: osaDistance(word, w) }))
    .filter((c) => c.distance <= allowed);
  if (near.length === 0) return [];
  const nearest = Math.min(...near.map((c) => c.distance));
  const df = (w: string): number => documentFrequency(corpus, corpus.vocabulary.get(w)!);
  return near
    .filter((c) => c.distance === nearest)
    .sort((a, b) => df(b.word) - df(a.word) || compareKeys(a.word, b.word))
    .slice(0, 4);
}

/**
 * A run-together word as two vocabulary words ("part11" → part 11), each of 3 characters or more
 * (or all digits): the split whose rarer part has the highest df wins, then the earliest.
 */
function referenceSplit(corpus: ReferenceCorpus, word: string): [string, string] | null {
  let best: [string, string] | null = null;
  let bestDf = 0;
  const ok = (s: string): boolean => s.length >= 3 || /^[0-9]+$/.test(s);
  for (let i = 1; i < word.length; i++) {
    const a = word.slice(0, i);
    const b = word.slice(i);
    if (!ok(a) || !ok(b) || !corpus.vocabulary.has(a) || !corpus.vocabulary.has(b)) continue;
    const df = Math.min(
      documentFrequency(corpus, corpus.vocabulary.get(a)!),
      documentFrequency(corpus, corpus.vocabulary.get(b)!),
    );
    if (df > bestDf) {
      bestDf = df;
      best = [a, b];
    }
  }
  return best;
}

export function referencePlan(
  corpus: ReferenceCorpus,
  text: string,
  ranking: RankingOptions,
  options: { prefix: boolean; typos: boolean },
): ReferenceWord[] {
  const n = corpus.docs.length;
  const df = (term: string): number => documentFrequency(corpus, term);
  const inIndex = (term: string): boolean => corpus.df.has(term);
  const tokens = analyzeTokens(text, true);
  if (tokens.length === 0) return [];
  // The word being typed is the last one, when the text ends inside it.
  const lastEnd = /[\p{L}\p{N}]$/u.test(text) ? tokens[tokens.length - 1]!.end : -1;
  const question =
    /^\s*(?:what|which|who|when|where|why|how|does|do|did|is|are|can|could|should|would|will)\b/i.test(
      text,
    ) || text.trimEnd().endsWith('?');
  const typing = (t: AnalyzedToken): boolean => options.prefix && t.end === lastEnd && t.folded.length >= 2;
  const stop = (t: AnalyzedToken): boolean => t.primary && STOP_WORDS.has(t.folded);
  // Question words go when other words remain, but not the last word of a query that is not a
  // question, while it is typed ("bun i" may become "bun install").
  const dropQuestions =
    ranking.dropQuestionWords && tokens.some((t) => !stop(t) && !QUESTION_WORDS.has(t.folded));
  const dropped = (t: AnalyzedToken): boolean =>
    stop(t) ||
    (dropQuestions && QUESTION_WORDS.has(t.folded) && !(options.prefix && !question && t.end === lastEnd));
  const kept = tokens.filter((t) => !dropped(t) || typing(t));

  const words: ReferenceWord[] = [];
  const wordOfToken = new Map<AnalyzedToken, ReferenceWord>();
  const wordOfTerm = new Map<string, ReferenceWord>();
  for (const t of kept) {
    const weight = question && QUESTION_FRAME_WORDS.has(t.folded) && kept.length > 1 ? 0.25 : 1;
    const known = wordOfTerm.get(t.term);
    if (known && !typing(t)) {
      // A repeated word weighs more (query term frequency).
      known.weight += weight;
      wordOfToken.set(t, known);
      continue;
    }
    const alternatives: ReferenceAlternative[] = [];
    const exact = inIndex(t.term) && !dropped(t);
    if (exact) alternatives.push({ term: t.term, factor: 1, idfDf: df(t.term) });
    let completing = false;
    if (typing(t)) {
      // Completions: every vocabulary word that starts with the typed letters scores
      // 0.8 · √(typed / word length) (its best word, per term); the 30 most common terms are kept,
      // and all of them, the exact term too, share the idf of the prefix's summed df.
      const withPrefix = sortedWords(corpus).filter((w) => w.startsWith(t.folded));
      completing = withPrefix.length > 0;
      const factor = new Map<string, number>();
      for (const w of withPrefix) {
        const term = corpus.vocabulary.get(w)!;
        const f = 0.8 * Math.sqrt(t.folded.length / w.length);
        if (!factor.has(term) || f > factor.get(term)!) factor.set(term, f);
      }
      const own = alternatives[0]?.term;
      const completions = [...factor.keys()]
        .filter((term) => term !== own)
        .sort((a, b) => df(b) - df(a) || compareKeys(a, b))
        .slice(0, 30);
      let shared = own === undefined ? 0 : df(own);
      for (const term of completions) shared += df(term);
      shared = Math.min(shared, n);
      for (const term of completions) alternatives.push({ term, factor: factor.get(term)!, idfDf: shared });
      if (own !== undefined && completions.length > 0) alternatives[0]!.idfDf = shared;
    }
    if (!inIndex(t.term) && !completing && options.typos && t.primary) {
      // Misspelt: one edit is likelier than a missing space, a missing space than two edits;
      // words with digits are only split.
      const found = /[0-9]/.test(t.folded) ? [] : referenceCorrections(corpus, t.folded);
      const split = found.length > 0 && found[0]!.distance === 1 ? null : referenceSplit(corpus, t.folded);
      if (split) {
        // Each part is a word of its own at 0.8 of the weight.
        for (const part of split) {
          const term = corpus.vocabulary.get(part)!;
          words.push({ weight: weight * 0.8, alternatives: [{ term, factor: 1, idfDf: df(term) }] });
        }
        continue;
      }
      // A correction at distance 1 scores 0.7 of an exact match, at distance 2, 0.5.
      for (const c of found) {
        const term = corpus.vocabulary.get(c.word)!;
        if (alternatives.some((a) => a.term === term)) continue;
        alternatives.push({ term, factor: c.distance === 1 ? 0.7 : 0.5, idfDf: df(term) });
      }
    }
    if (alternatives.length === 0) continue;
    const word: ReferenceWord = { weight, alternatives };
    words.push(word);
    wordOfToken.set(t, word);
    if (!known) wordOfTerm.set(t.term, word);
  }

  // Joined forms: two or three neighbouring words that the index has as one word ("child item" →
  // childitem) add it to each of those words, at full share and with the idf of the word's own term.
  const primary = kept.filter((t) => t.primary);
  for (let i = 0; i + 1 < primary.length; i++) {
    for (let j = i + 1; j < Math.min(primary.length, i + 3); j++) {
      const joined = primary
        .slice(i, j + 1)
        .map((t) => t.folded)
        .join('');
      const term = corpus.vocabulary.get(joined);
      if (term === undefined) continue;
      for (let k = i; k <= j; k++) {
        const word = wordOfToken.get(primary[k]!);
        if (!word || word.alternatives.some((a) => a.term === term)) continue;
        word.alternatives.push({ term, factor: 1, idfDf: df(word.alternatives[0]!.term) });
      }
    }
  }
  return words.slice(0, 256);
}

// ---------------------------------------------------------------------------------------------
// 2–5. Scoring

export interface ReferenceResult {
  key: string;
  /** Its place in key order. */
  doc: number;
  score: number;
  matchedTerms: string[];
}

/** Best first: by score descending, then key ascending. */
function byScoreThenKey(scores: number[], docs: ReferenceDocument[]): (a: number, b: number) => number {
  return (a, b) => scores[b]! - scores[a]! || compareKeys(docs[a]!.key, docs[b]!.key);
}

export function referenceSearch(
  corpus: ReferenceCorpus,
  ranking: RankingOptions,
  text: string,
  options: { limit?: number; offset?: number; prefix?: boolean; typos?: boolean } = {},
): ReferenceResult[] {
  const limit = options.limit ?? 10;
  const offset = options.offset ?? 0;
  const words = referencePlan(corpus, text, ranking, {
    prefix: options.prefix ?? true,
    typos: options.typos ?? true,
  });
  if (limit === 0 || words.length === 0) return [];
  const { docs } = corpus;
  const n = docs.length;
  const k1 = ranking.k1;
  /** A word's term weight: its query weight times its share, and the idf of its df. */
  const scale = (w: ReferenceWord, a: ReferenceAlternative): number => w.weight * a.factor * idf(n, a.idfDf);

  // 2. BM25F: score(d) = Σ_words max_alternatives weight · factor · idf · w(term, d).
  const score = docs.map(() => 0);
  for (const w of words) {
    for (let d = 0; d < n; d++) {
      let best = 0;
      for (const a of w.alternatives)
        best = Math.max(best, scale(w, a) * bm25fWeight(corpus, ranking, docs[d]!, a.term));
      score[d] = score[d]! + best;
    }
  }

  // 3. RM3 feedback. The first pass's best documents (the first `docs` distinct texts among its
  // best 3·docs) are weighted P(D|Q) ∝ exp(score) (or ∝ score, 'linear'); the expansion weight of
  // a term is Σ_D P(D|Q) · tf(t, D) / |D|, over documents holding at least 0.1 % of the mass.
  // The query's own terms and the expandable terms (2+ letters, not a number, in 2+ documents,
  // in at most maxDocFrequency of them) compete for `terms` places; the chosen ones join the
  // query with weight (1 − λ)/λ · Σ(query weights) · share of the chosen terms' mass, so the
  // original query keeps λ of the total. On a query of at most shortQueryWords words, a document
  // keeps at most (1 + shortQueryLift) times its first-pass score.
  const fb = ranking.feedback;
  if (fb.enabled && fb.docs > 0 && fb.terms > 0) {
    const firstPass = [...docs.keys()].filter((d) => score[d]! > 0).sort(byScoreThenKey(score, docs));
    const feedbackDocs: number[] = [];
    for (const d of firstPass.slice(0, fb.docs * 3)) {
      if (feedbackDocs.length === fb.docs) break;
      if (!feedbackDocs.some((e) => docs[e]!.copyOf === docs[d]!.copyOf)) feedbackDocs.push(d);
    }
    if (feedbackDocs.length > 0 && fb.originalWeight < 1) {
      const top = score[feedbackDocs[0]!]!;
      const docWeight = feedbackDocs.map((d) =>
        fb.docWeighting === 'linear' ? score[d]! : Math.exp(score[d]! - top),
      );
      const total = docWeight.reduce((a, b) => a + b, 0);
      const mass = new Map<string, number>();
      feedbackDocs.forEach((d, u) => {
        const doc = docs[d]!;
        const length = docLength(doc);
        const pd = docWeight[u]! / total;
        if (length === 0 || pd < 1e-3) return;
        for (const field of doc.tokens)
          for (const t of field) if (t.primary) mass.set(t.term, (mass.get(t.term) ?? 0) + pd / length);
      });
      const queryTerms = new Set(words.flatMap((w) => w.alternatives.map((a) => a.term)));
      const expandable = (t: string): boolean =>
        t.length > 1 && !/^[0-9.]+$/.test(t) && documentFrequency(corpus, t) > 1;
      const candidates = [...mass.keys()].filter(
        (t) => queryTerms.has(t) || (expandable(t) && documentFrequency(corpus, t) <= fb.maxDocFrequency * n),
      );
      const termNumber = (t: string): number => corpus.terms.indexOf(t);
      const chosen = candidates
        .sort((a, b) => mass.get(b)! - mass.get(a)! || termNumber(a) - termNumber(b))
        .slice(0, fb.terms);
      let sum = 0;
      for (const t of chosen) sum += mass.get(t)!;
      const querySum = words.reduce((a, w) => a + w.weight * w.alternatives[0]!.factor, 0);
      // A short query (at most shortQueryWords words): a document keeps at most (1 + lift) times
      // its first-pass score, so one only feedback scored keeps none.
      const firstPassScore = [...score];
      const short = words.length <= fb.shortQueryWords;
      if (sum > 0) {
        const lambda = fb.originalWeight;
        for (const t of chosen) {
          const weight = mass.get(t)! * ((((1 - lambda) / lambda) * querySum) / sum);
          const termScale = weight * idf(n, documentFrequency(corpus, t));
          for (let d = 0; d < n; d++) {
            const w = bm25fWeight(corpus, ranking, docs[d]!, t);
            if (w > 0) score[d] = score[d]! + termScale * w;
          }
        }
        if (short)
          for (let d = 0; d < n; d++)
            score[d] = Math.min(score[d]!, firstPassScore[d]! * (1 + fb.shortQueryLift));
      }
    }
  }

  // 4. Proximity (BM25TP, Rasolofo & Savoy 2003) on the best `depth` documents. A query word's
  // occurrences are those of any of its alternatives (a term shared by two words belongs to the
  // later). For each pair of different words (i < j; only neighbours in the query with 'adjacent'),
  //   acc(i, j) = Σ 1 / dist²  over occurrences at most `window` words apart in the same field,
  //   bonus     = Σ_pairs min(w_i·idf_i, w_j·idf_j) · (k1 + 1) · acc / (K + acc),
  // with w·idf of each word's first alternative and K = k1 · (1 − b + b · |d| / avg|d|) (body b,
  // the whole document's length). The document gains weight · bonus.
  const ranked = [...docs.keys()].filter((d) => score[d]! > 0).sort(byScoreThenKey(score, docs));
  const wanted = offset + limit;
  const prox = ranking.proximity;
  const depth = prox.enabled && words.length > 1 ? prox.depth : 0;
  const best = ranked.slice(0, Math.max(wanted, depth));
  const finalScore = docs.map(() => 0);
  for (const d of best) finalScore[d] = Math.round(score[d]! * 1e6) / 1e6;
  if (depth > 0 && prox.weight > 0) {
    const q = Math.min(words.length, 32);
    const wordOf = (term: string): number => {
      let found = -1;
      words.forEach((w, i) => {
        if (w.alternatives.some((a) => a.term === term)) found = i;
      });
      return found < q ? found : -1;
    };
    const main = (i: number): number => scale(words[i]!, words[i]!.alternatives[0]!);
    let avgLen = 0;
    for (let f = 0; f < FIELD_NAMES.length; f++) avgLen += averageFieldLength(corpus, f);
    const b = ranking.fields.body.b;
    for (const d of best.slice(0, depth)) {
      const doc = docs[d]!;
      const acc = new Map<string, number>();
      for (const field of doc.tokens) {
        const occurrences = field.filter((t) => t.primary).map((t, pos) => ({ pos, word: wordOf(t.term) }));
        for (let y = 0; y < occurrences.length; y++) {
          const later = occurrences[y]!;
          if (later.word < 0) continue;
          for (let x = y - 1; x >= 0; x--) {
            const earlier = occurrences[x]!;
            const dist = later.pos - earlier.pos;
            if (dist > prox.window) break;
            if (earlier.word < 0 || earlier.word === later.word) continue;
            if (prox.pairs === 'adjacent' && Math.abs(earlier.word - later.word) !== 1) continue;
            const i = Math.min(earlier.word, later.word);
            const j = Math.max(earlier.word, later.word);
            acc.set(`${i},${j}`, (acc.get(`${i},${j}`) ?? 0) + 1 / (dist * dist));
          }
        }
      }
      if (acc.size === 0) continue;
      const K = k1 * (1 - b + (avgLen > 0 ? (b * docLength(doc)) / avgLen : 0));
      let bonus = 0;
      for (let i = 0; i < q; i++)
        for (let j = i + 1; j < q; j++) {
          const a = acc.get(`${i},${j}`);
          if (a === undefined) continue;
          bonus += (Math.min(main(i), main(j)) * (k1 + 1) * a) / (K + a);
        }
      finalScore[d] = Math.round((score[d]! + prox.weight * bonus) * 1e6) / 1e6;
    }
  }

  // 5. Rounded scores, best first, ties by key.
  return best
    .sort(byScoreThenKey(finalScore, docs))
    .slice(offset, wanted)
    .map((d) => ({
      key: docs[d]!.key,
      doc: d,
      score: finalScore[d]!,
      matchedTerms: matchedTerms(docs[d]!, words),
    }));
}

/**
 * The query's terms found in a document, in query order: a word's only term, or each of its
 * alternatives that the document has.
 */
function matchedTerms(doc: ReferenceDocument, words: ReferenceWord[]): string[] {
  const out: string[] = [];
  for (const w of words)
    for (const a of w.alternatives) if (hasTerm(doc, a.term) && !out.includes(a.term)) out.push(a.term);
  return out;
}
