/**
 * Index construction. Documents are sorted by key first, so internal document numbers, term
 * numbers, every array and every floating-point sum are the same whatever order the documents
 * come in: results are identical byte for byte across rebuilds and insertion orders. More than 500
 * lines on purpose: one pass lays out every array below, and split, the layout would be described
 * in two places.
 *
 * Layout (all typed arrays, one allocation each):
 * - postings of term t: positions postStart[t] … postStart[t+1] of postDoc (document numbers,
 *   ascending) and of postTf (three 16-bit term frequencies per posting: title, headings, body);
 * - a forward index: the term numbers of each document's words, field by field in text order
 *   (words, with field f of document d at wordStart[3d+f] … wordStart[3d+f+1]). The joined form of
 *   a compound ("email" for "e-mail") has a posting but is not a word here. Term numbers take 16
 *   bits when there are at most 65,536 terms: half the memory for proximity and feedback to read;
 * - field lengths (fieldLen[3d+f], joined forms not counted) and, per ranking, each posting's
 *   saturated BM25F weight postWeight[p] = (k1 + 1) · tf' / (k1 + tf'), where
 *   tf' = Σ_f weight_f · tf_f / (1 − b_f + b_f · len_f / avgLen_f) (a Float32Array, so that a
 *   query term costs one multiply-add per posting). A term's score in a document is then
 *   query weight · idf · postWeight.
 */

import { scanWords, termOf, type WordSink } from './analyzer.js';
import { languageProfile, type LanguageProfile } from './languages.js';
import type { RankingOptions, RankingOverrides, SearchDocument } from './options.js';
import { FIELD_NAMES, resolveRanking } from './options.js';
import { buildVocabulary, type Vocabulary } from './vocabulary.js';
import { compareCodePoints as compareKeys } from '../unicode/index.js';

/**
 * The version of the index layout and of everything that decides what is indexed and how it ranks
 * (analyzer, stemmer, build). Bump it with any such change: a saved index snapshot (see
 * src/snapshot) of another version is rebuilt rather than served.
 */
export const SEARCH_ENGINE_VERSION = 4;

export const FIELD_COUNT = FIELD_NAMES.length;
const TF_MAX = 0xffff;
/**
 * Proximity considers at most this many distinct query terms (the first ones). At most 32: each
 * has a bit in scratch.present.
 */
export const MAX_PROXIMITY_TERMS = 32;
const NUMBER_RE = /^[0-9.]+$/;

/** The ranking-independent part of an index, shared by every ranking view of it. */
export interface IndexCore {
  readonly docCount: number;
  readonly termCount: number;
  /** Document keys by document number (ascending key order). */
  readonly keys: readonly string[];
  readonly termIds: ReadonlyMap<string, number>;
  /** Term strings by term number. */
  readonly terms: readonly string[];
  /** Document frequency (documents with the term in any field). */
  readonly df: Uint32Array;
  /**
   * 1 if feedback may add the term to a query: two letters or more, not a number, in two
   * documents or more.
   */
  readonly expandable: Uint8Array;
  readonly postStart: Uint32Array;
  readonly postDoc: Uint32Array;
  readonly postTf: Uint16Array;
  readonly fieldLen: Uint32Array;
  readonly avgFieldLen: Float64Array;
  readonly wordStart: Uint32Array;
  readonly words: Uint16Array | Uint32Array;
  /** The surface words, for prefix, typo and split matching. */
  readonly vocabulary: Vocabulary;
  /** Each document's boost (SearchDocument.boost), already folded into postWeight. */
  readonly docBoost: Float32Array;
  /**
   * Per document: the number of the first document with the same headings and body (itself when
   * none), so that feedback counts a text once however many copies of it the site has.
   */
  readonly docCopyOf: Uint32Array;
  /** Scratch space for one search at a time (searches are synchronous). */
  readonly scratch: Scratch;
}

export interface Scratch {
  acc: Float64Array;
  touched: Uint32Array;
  /** Per term: its index in the current query, or −1 (16 bits: queries have at most MAX_QUERY_TERMS terms). */
  queryMark: Int16Array;
  /** Per document: bit i set when it has the current query's i-th term (i < MAX_PROXIMITY_TERMS). */
  present: Uint32Array;
  /** Per document: the best alternative's score of the current query word (prefix, typo). */
  groupAcc: Float64Array;
  groupTouched: Uint32Array;
  /** Per term: feedback weight (allocated on first use). */
  fbAcc: Float64Array | null;
  fbTouched: Uint32Array | null;
  /** Reused small buffers (typed-array allocation costs more than a short query's work). */
  heap: Uint32Array;
  pair: Float64Array;
  pairRows: Int32Array;
  pairWeight: Float64Array;
  ringPos: Int32Array;
  ringTerm: Int32Array;
}

/** A searchable index: the shared core plus one ranking configuration. */
export interface SearchIndex {
  readonly core: IndexCore;
  readonly ranking: RankingOptions;
  /** Saturated BM25F weight of each posting for this ranking (see the top of this file). */
  readonly postWeight: Float32Array;
}

export interface BuildOptions {
  ranking?: RankingOverrides;
  /**
   * Documents already analysed (analyseDocuments, in other threads): their tokens are taken from
   * here instead of analysing their fields again. Documents in none of them are analysed here. The
   * index is the same either way.
   */
  analysed?: readonly AnalysedDocuments[];
}

/**
 * What analyzeTokens gives for each field of some documents, numbered within this batch so that
 * it crosses threads as a few arrays: a batch made in a parse worker spares the index build the
 * analysis, most of its time.
 */
export interface AnalysedDocuments {
  /** The documents' keys, in the order analysed. */
  keys: string[];
  /**
   * Per batch word number: the folded word, its index term and the number of the language profile
   * that made it (the term follows from the word and the profile; one word may be in two profiles).
   */
  folded: string[];
  terms: string[];
  profiles: Uint8Array;
  /** Where field f of the i-th document starts in `tokens` (index 3i + f), and one past the last. */
  starts: Uint32Array;
  /** Batch word numbers in text order; ~n for the joined form of a compound (not a word of its own). */
  tokens: Int32Array;
  /**
   * The length of each field analysed (index 3i + f): a document given to buildIndex whose fields
   * have other lengths is analysed again rather than matched to these tokens.
   */
  lengths: Uint32Array;
}

/** Analyses the fields of `docs` for a later buildIndex (see BuildOptions.analysed). */
export function analyseDocuments(docs: readonly SearchDocument[]): AnalysedDocuments {
  const numberOf = new Map<string, number>();
  const folded: string[] = [];
  const terms: string[] = [];
  const profiles: number[] = [];
  const starts = new Uint32Array(docs.length * FIELD_COUNT + 1);
  const lengths = new Uint32Array(docs.length * FIELD_COUNT);
  const tokens = new I32Builder(1 << 16);
  const sink: WordSink = {
    word(word, _start, _end, primary, profile) {
      const key = wordKey(word, profile);
      let n = numberOf.get(key);
      if (n === undefined) {
        n = folded.length;
        numberOf.set(key, n);
        folded.push(word);
        terms.push(termOf(word, profile));
        profiles.push(profile.id);
      }
      tokens.push(primary ? n : ~n);
    },
  };
  docs.forEach((doc, i) => {
    checkDocument(doc, i);
    const profile = languageProfile(doc.lang);
    for (let f = 0; f < FIELD_COUNT; f++) {
      const text = doc.fields[FIELD_NAMES[f] as keyof SearchDocument['fields']];
      starts[i * FIELD_COUNT + f] = tokens.length;
      lengths[i * FIELD_COUNT + f] = text.length;
      scanWords(text, sink, false, profile);
    }
  });
  starts[docs.length * FIELD_COUNT] = tokens.length;
  return {
    keys: docs.map((doc) => doc.key),
    folded,
    terms,
    profiles: Uint8Array.from(profiles),
    starts,
    tokens: tokens.finish(),
    lengths,
  };
}

/** A word's key in a table of words: the word itself in English (most words), else with its profile. */
function wordKey(word: string, profile: LanguageProfile | number): string {
  const id = typeof profile === 'number' ? profile : profile.id;
  return id === 0 ? word : `${id}\u0001${word}`;
}

/**
 * Whether `value` (read back from a file) is an analysis buildIndex can take: the lists agree in
 * length and every word number names a word. It does not say the analysis is of given documents;
 * buildIndex checks each document's field lengths, and its caller must know whose analysis it is.
 */
export function isAnalysedDocuments(value: unknown): value is AnalysedDocuments {
  if (value === null || typeof value !== 'object') return false;
  const { keys, folded, terms, profiles, starts, tokens, lengths } = value as Partial<AnalysedDocuments>;
  return (
    Array.isArray(keys) &&
    Array.isArray(folded) &&
    Array.isArray(terms) &&
    folded.length === terms.length &&
    profiles instanceof Uint8Array &&
    profiles.length === folded.length &&
    starts instanceof Uint32Array &&
    starts.length === keys.length * FIELD_COUNT + 1 &&
    lengths instanceof Uint32Array &&
    lengths.length === keys.length * FIELD_COUNT &&
    tokens instanceof Int32Array &&
    starts[keys.length * FIELD_COUNT] === tokens.length &&
    // A joined form is stored as ~n.
    tokens.every((v) => (v < 0 ? ~v : v) < folded.length)
  );
}

/**
 * The analysed documents of `batch` whose key `keep` has, words numbered as in `batch` (its word
 * lists are shared, the tokens copied): what buildIndex may take of an analysis kept from an
 * earlier build. A few milliseconds for the docs corpus, where combineAnalysed takes ~0.1 s.
 */
export function selectAnalysed(batch: AnalysedDocuments, keep: ReadonlySet<string>): AnalysedDocuments {
  const picked: number[] = [];
  batch.keys.forEach((key, i) => {
    if (keep.has(key)) picked.push(i);
  });
  let total = 0;
  for (const i of picked)
    total += (batch.starts[(i + 1) * FIELD_COUNT] as number) - (batch.starts[i * FIELD_COUNT] as number);
  const tokens = new Int32Array(total);
  const starts = new Uint32Array(picked.length * FIELD_COUNT + 1);
  const lengths = new Uint32Array(picked.length * FIELD_COUNT);
  let at = 0;
  picked.forEach((i, d) => {
    // A document's fields follow each other: it spans from its first field's start to the next one's.
    const from = batch.starts[i * FIELD_COUNT] as number;
    const to = batch.starts[(i + 1) * FIELD_COUNT] as number;
    for (let f = 0; f < FIELD_COUNT; f++) {
      starts[d * FIELD_COUNT + f] = at + (batch.starts[i * FIELD_COUNT + f] as number) - from;
      lengths[d * FIELD_COUNT + f] = batch.lengths[i * FIELD_COUNT + f] as number;
    }
    tokens.set(batch.tokens.subarray(from, to), at);
    at += to - from;
  });
  starts[picked.length * FIELD_COUNT] = at;
  const keys = picked.map((i) => batch.keys[i] as string);
  return {
    keys,
    folded: batch.folded,
    terms: batch.terms,
    profiles: batch.profiles,
    starts,
    tokens,
    lengths,
  };
}

/**
 * One batch of the analysed documents of `batches`, in the order met, words numbered anew: the
 * analysis to keep of an index built from several batches (and only their words). A key found in
 * more than one batch is left out (buildIndex would analyse it again anyway: which one is right
 * is unknown).
 */
export function combineAnalysed(batches: readonly AnalysedDocuments[]): AnalysedDocuments {
  const seen = new Map<string, number>();
  for (const batch of batches) for (const key of batch.keys) seen.set(key, (seen.get(key) ?? 0) + 1);
  const keys: string[] = [];
  for (const [key, times] of seen) if (times === 1) keys.push(key);
  const numberOf = new Map<string, number>();
  const folded: string[] = [];
  const terms: string[] = [];
  const profiles: number[] = [];
  const starts = new Uint32Array(keys.length * FIELD_COUNT + 1);
  const lengths = new Uint32Array(keys.length * FIELD_COUNT);
  const tokens = new I32Builder(1 << 16);
  let d = 0;
  for (const batch of batches) {
    // The batch's word numbers → the combined ones, as its words are first met.
    const numbered = new Int32Array(batch.folded.length).fill(-1);
    batch.keys.forEach((key, i) => {
      if (seen.get(key) !== 1) return;
      for (let f = 0; f < FIELD_COUNT; f++) {
        starts[d * FIELD_COUNT + f] = tokens.length;
        lengths[d * FIELD_COUNT + f] = batch.lengths[i * FIELD_COUNT + f] as number;
        const to = batch.starts[i * FIELD_COUNT + f + 1] as number;
        for (let k = batch.starts[i * FIELD_COUNT + f] as number; k < to; k++) {
          const v = batch.tokens[k] as number;
          const word = v < 0 ? ~v : v;
          let n = numbered[word] as number;
          if (n < 0) {
            const text = batch.folded[word] as string;
            const profile = batch.profiles[word] as number;
            const key = wordKey(text, profile);
            n = numberOf.get(key) ?? -1;
            if (n < 0) {
              n = folded.length;
              numberOf.set(key, n);
              folded.push(text);
              terms.push(batch.terms[word] as string);
              profiles.push(profile);
            }
            numbered[word] = n;
          }
          tokens.push(v < 0 ? ~n : n);
        }
      }
      d++;
    });
  }
  starts[keys.length * FIELD_COUNT] = tokens.length;
  return {
    keys,
    folded,
    terms,
    profiles: Uint8Array.from(profiles),
    starts,
    tokens: tokens.finish(),
    lengths,
  };
}

/** A growable Int32Array. */
class I32Builder {
  buf: Int32Array;
  length = 0;
  constructor(capacity: number) {
    this.buf = new Int32Array(Math.max(16, capacity));
  }
  push(v: number): void {
    if (this.length === this.buf.length) {
      const next = new Int32Array(this.buf.length * 2);
      next.set(this.buf);
      this.buf = next;
    }
    this.buf[this.length++] = v;
  }
  finish(): Int32Array {
    return this.buf.slice(0, this.length);
  }
}

function checkDocument(doc: SearchDocument, i: number): void {
  if (doc === null || typeof doc !== 'object' || typeof doc.key !== 'string' || doc.key.length === 0) {
    throw new TypeError(`document ${i} needs a non-empty string key`);
  }
  const f = doc.fields as Partial<Record<string, unknown>> | undefined;
  if (!f || typeof f !== 'object') throw new TypeError(`document ${doc.key} has no fields`);
  for (const name of FIELD_NAMES) {
    if (typeof f[name] !== 'string')
      throw new TypeError(`document ${doc.key}: field ${name} must be a string`);
  }
  if (doc.boost !== undefined && !(Number.isFinite(doc.boost) && doc.boost > 0))
    throw new TypeError(`document ${doc.key}: boost must be a positive number`);
}

/** Build an index over documents. Keys must be unique. */
export function buildIndex(docs: readonly SearchDocument[], options: BuildOptions = {}): SearchIndex {
  const ranking = resolveRanking(options.ranking);
  docs.forEach(checkDocument);
  const sorted = [...docs].sort((a, b) => compareKeys(a.key, b.key));
  for (let i = 1; i < sorted.length; i++) {
    if ((sorted[i] as SearchDocument).key === (sorted[i - 1] as SearchDocument).key) {
      throw new Error(`duplicate document key: ${(sorted[i] as SearchDocument).key}`);
    }
  }
  const n = sorted.length;

  // Pass 1: analyze, number the terms, fill the forward index, count document frequencies.
  const termIds = new Map<string, number>();
  const terms: string[] = [];
  // Surface word → its term (the first met, when two languages stem it differently) and the
  // languages it is a word of (a bit per profile), for prefix and typo matching in a language.
  const wordTerm = new Map<string, number>();
  const wordLangs = new Map<string, number>();
  const addWord = (folded: string, id: number, profile: number): void => {
    if (!wordTerm.has(folded)) wordTerm.set(folded, id);
    wordLangs.set(folded, ((wordLangs.get(folded) ?? 0) | (1 << profile)) >>> 0);
  };
  const copyOf = new Uint32Array(n);
  const firstWithText = new Map<string, number>();
  let dfList = new Uint32Array(1024);
  let lastDoc = new Int32Array(1024).fill(-1);
  const fwd = new I32Builder(1 << 16);
  const fwdStart = new Uint32Array(n * FIELD_COUNT + 1);
  const fieldLen = new Uint32Array(n * FIELD_COUNT);
  const totalLen = new Float64Array(FIELD_COUNT);
  let postingCount = 0;
  const termNumber = (term: string): number => {
    let id = termIds.get(term);
    if (id === undefined) {
      id = terms.length;
      termIds.set(term, id);
      terms.push(term);
      if (id === dfList.length) {
        const grownDf = new Uint32Array(dfList.length * 2);
        grownDf.set(dfList);
        dfList = grownDf;
        const grownLast = new Int32Array(lastDoc.length * 2).fill(-1);
        grownLast.set(lastDoc);
        lastDoc = grownLast;
      }
    }
    return id;
  };
  // Each analysed batch's word numbers → term numbers, filled as its words are first met (in
  // document order, so terms are numbered as if analysed here). A key analysed twice (two pages
  // claiming one URL: one of them is dropped) is analysed here instead.
  type Analysed = { batch: AnalysedDocuments; doc: number; termOf: Int32Array } | null;
  const batchOf = new Map<string, Analysed>();
  for (const batch of options.analysed ?? []) {
    const termOf = new Int32Array(batch.folded.length).fill(-1);
    batch.keys.forEach((key, doc) => batchOf.set(key, batchOf.has(key) ? null : { batch, doc, termOf }));
  }
  const analysedAs = (doc: SearchDocument): Analysed => {
    const found = batchOf.get(doc.key);
    if (!found) return null;
    for (let f = 0; f < FIELD_COUNT; f++)
      if (
        found.batch.lengths[found.doc * FIELD_COUNT + f] !==
        doc.fields[FIELD_NAMES[f] as keyof SearchDocument['fields']].length
      )
        return null;
    return found;
  };

  // The document and field being read, and the field's length so far.
  let d = 0;
  let len = 0;
  const count = (id: number, primary: boolean) => {
    if (lastDoc[id] !== d) {
      lastDoc[id] = d;
      (dfList[id] as number)++;
      postingCount++;
    }
    if (primary) {
      fwd.push(id);
      len++;
    } else {
      fwd.push(~id);
    }
  };
  // A folded word of a profile always gives the same term: each is stemmed and numbered once.
  const wordIds = new Map<string, number>();
  const sink: WordSink = {
    word(folded, _start, _end, primary, profile) {
      const key = wordKey(folded, profile);
      let id = wordIds.get(key);
      if (id === undefined) {
        id = termNumber(termOf(folded, profile));
        wordIds.set(key, id);
        addWord(folded, id, profile.id);
      }
      count(id, primary);
    },
  };

  for (d = 0; d < n; d++) {
    const doc = sorted[d] as SearchDocument;
    const text = `${doc.fields.headings}\u0000${doc.fields.body}`;
    const first = firstWithText.get(text);
    copyOf[d] = first ?? d;
    if (first === undefined) firstWithText.set(text, d);
    const analysed = analysedAs(doc);
    const profile = languageProfile(doc.lang);
    for (let f = 0; f < FIELD_COUNT; f++) {
      fwdStart[d * FIELD_COUNT + f] = fwd.length;
      len = 0;
      if (analysed) {
        const { batch, termOf } = analysed;
        const at = analysed.doc * FIELD_COUNT + f;
        const to = batch.starts[at + 1] as number;
        for (let k = batch.starts[at] as number; k < to; k++) {
          const v = batch.tokens[k] as number;
          const word = v < 0 ? ~v : v;
          let id = termOf[word] as number;
          if (id < 0) {
            id = termOf[word] = termNumber(batch.terms[word] as string);
            addWord(batch.folded[word] as string, id, batch.profiles[word] as number);
          }
          count(id, v >= 0);
        }
      } else {
        scanWords(doc.fields[FIELD_NAMES[f] as keyof SearchDocument['fields']], sink, false, profile);
      }
      fieldLen[d * FIELD_COUNT + f] = len;
      (totalLen[f] as number) += len;
    }
  }
  fwdStart[n * FIELD_COUNT] = fwd.length;
  const fwdArr = fwd.finish();
  const termCount = terms.length;
  const df = dfList.slice(0, termCount);

  // Pass 2: postings, in document order, from the forward index.
  const postStart = new Uint32Array(termCount + 1);
  for (let t = 0; t < termCount; t++) postStart[t + 1] = (postStart[t] as number) + (df[t] as number);
  const cursor = postStart.slice(0, termCount);
  const postDoc = new Uint32Array(postingCount);
  const postTf = new Uint16Array(postingCount * FIELD_COUNT);
  const slotOf = new Int32Array(termCount);
  lastDoc = new Int32Array(termCount).fill(-1);
  for (let d = 0; d < n; d++) {
    for (let f = 0; f < FIELD_COUNT; f++) {
      const from = fwdStart[d * FIELD_COUNT + f] as number;
      const to = fwdStart[d * FIELD_COUNT + f + 1] as number;
      for (let i = from; i < to; i++) {
        const v = fwdArr[i] as number;
        const t = v < 0 ? ~v : v;
        let slot: number;
        if (lastDoc[t] !== d) {
          lastDoc[t] = d;
          slot = (cursor[t] as number)++;
          slotOf[t] = slot;
          postDoc[slot] = d;
        } else {
          slot = slotOf[t] as number;
        }
        const k = slot * FIELD_COUNT + f;
        if ((postTf[k] as number) < TF_MAX) (postTf[k] as number)++;
      }
    }
  }

  const expandable = new Uint8Array(termCount);
  for (let t = 0; t < termCount; t++) {
    const term = terms[t] as string;
    expandable[t] = term.length > 1 && !NUMBER_RE.test(term) && (df[t] as number) > 1 ? 1 : 0;
  }

  const avgFieldLen = new Float64Array(FIELD_COUNT);
  for (let f = 0; f < FIELD_COUNT; f++) avgFieldLen[f] = n > 0 ? (totalLen[f] as number) / n : 0;

  const core: IndexCore = {
    docCount: n,
    termCount,
    keys: sorted.map((d) => d.key),
    termIds,
    terms,
    df,
    expandable,
    postStart,
    postDoc,
    postTf,
    fieldLen,
    avgFieldLen,
    ...forwardIndex(n, termCount, fwdStart, fwdArr),
    vocabulary: buildVocabulary(wordTerm, wordLangs),
    docBoost: Float32Array.from(sorted, (doc) => doc.boost ?? 1),
    docCopyOf: copyOf,
    scratch: {
      acc: new Float64Array(n),
      // One spare slot: accumulate's branch-free append writes before it knows whether to count.
      touched: new Uint32Array(n + 1),
      queryMark: new Int16Array(termCount).fill(-1),
      present: new Uint32Array(n),
      groupAcc: new Float64Array(n),
      groupTouched: new Uint32Array(n + 1),
      fbAcc: null,
      fbTouched: null,
      heap: new Uint32Array(64),
      pair: new Float64Array(MAX_PROXIMITY_TERMS * MAX_PROXIMITY_TERMS),
      pairRows: new Int32Array(MAX_PROXIMITY_TERMS),
      pairWeight: new Float64Array(MAX_PROXIMITY_TERMS * MAX_PROXIMITY_TERMS),
      ringPos: new Int32Array(8),
      ringTerm: new Int32Array(8),
    },
  };
  return { core, ranking, postWeight: computeWeights(core, ranking) };
}

/** The forward index without the joined forms (build's first pass stores them as ~term). */
function forwardIndex(
  n: number,
  termCount: number,
  fwdStart: Uint32Array,
  fwd: Int32Array,
): { wordStart: Uint32Array; words: Uint16Array | Uint32Array } {
  let count = 0;
  for (const v of fwd) if (v >= 0) count++;
  const words = termCount <= 0x10000 ? new Uint16Array(count) : new Uint32Array(count);
  const wordStart = new Uint32Array(n * FIELD_COUNT + 1);
  let w = 0;
  for (let k = 0; k < n * FIELD_COUNT; k++) {
    wordStart[k] = w;
    const to = fwdStart[k + 1] as number;
    for (let i = fwdStart[k] as number; i < to; i++) {
      const v = fwd[i] as number;
      if (v >= 0) words[w++] = v;
    }
  }
  wordStart[n * FIELD_COUNT] = w;
  return { wordStart, words };
}

function computeWeights(core: IndexCore, ranking: RankingOptions): Float32Array {
  const n = core.docCount;
  const norms = new Float64Array(n * FIELD_COUNT);
  for (let f = 0; f < FIELD_COUNT; f++) {
    const { weight, b } = ranking.fields[FIELD_NAMES[f] as keyof RankingOptions['fields']];
    const avg = core.avgFieldLen[f] as number;
    for (let d = 0; d < n; d++) {
      const len = core.fieldLen[d * FIELD_COUNT + f] as number;
      norms[d * FIELD_COUNT + f] = avg > 0 ? weight / (1 - b + (b * len) / avg) : 0;
    }
  }
  const k1 = ranking.k1;
  const { postDoc, postTf, docBoost } = core;
  const out = new Float32Array(postDoc.length);
  for (let p = 0; p < postDoc.length; p++) {
    const d = postDoc[p] as number;
    const o = d * FIELD_COUNT;
    const q = p * FIELD_COUNT;
    const tf =
      (postTf[q] as number) * (norms[o] as number) +
      (postTf[q + 1] as number) * (norms[o + 1] as number) +
      (postTf[q + 2] as number) * (norms[o + 2] as number);
    out[p] = tf > 0 ? ((docBoost[d] as number) * (k1 + 1) * tf) / (k1 + tf) : 0;
  }
  return out;
}

/**
 * The same index with other ranking parameters (merged over the index's current ones). Shares the
 * postings; only the normalisation factors are recomputed. Useful for experiments and ablations.
 */
export function withRanking(index: SearchIndex, overrides: RankingOverrides): SearchIndex {
  const ranking = resolveRanking(overrides, index.ranking);
  return { core: index.core, ranking, postWeight: computeWeights(index.core, ranking) };
}

/** Sizes of an index, for monitoring and benchmarks. */
export interface IndexStats {
  documents: number;
  terms: number;
  postings: number;
  /** Words in the forward index (joined compound forms not counted). */
  tokens: number;
  /** Bytes held in typed arrays (postings and their weights, forward index, lengths, scratch). */
  typedArrayBytes: number;
}

export function indexStats(index: SearchIndex): IndexStats {
  const c = index.core;
  const arrays = [
    c.df,
    c.expandable,
    c.postStart,
    c.postDoc,
    c.postTf,
    c.fieldLen,
    c.avgFieldLen,
    c.wordStart,
    c.words,
    c.scratch.acc,
    c.scratch.touched,
    c.scratch.queryMark,
    c.scratch.present,
    c.scratch.groupAcc,
    c.scratch.groupTouched,
    c.vocabulary.term,
    c.vocabulary.mask,
    c.docBoost,
    c.docCopyOf,
    index.postWeight,
  ];
  let bytes = 0;
  for (const a of arrays) bytes += a.byteLength;
  if (c.scratch.fbAcc) bytes += c.scratch.fbAcc.byteLength;
  if (c.scratch.fbTouched) bytes += c.scratch.fbTouched.byteLength;
  return {
    documents: c.docCount,
    terms: c.termCount,
    postings: c.postDoc.length,
    tokens: c.words.length,
    typedArrayBytes: bytes,
  };
}
