/**
 * The document shape and the ranking parameters: their types, plain BM25 and the validation of
 * overrides. The defaults and the reasons for them are in tuning.ts.
 */

import { DEFAULT_RANKING } from './tuning.js';

/** The searchable fields of a document. */
export const FIELD_NAMES = ['title', 'headings', 'body'] as const;
export type FieldName = (typeof FIELD_NAMES)[number];

/** A document (for a site: one passage of a page). */
export interface SearchDocument {
  /** Stable unique id; results with equal scores are ordered by it (UTF-8 byte order). */
  key: string;
  fields: {
    title: string;
    /** The heading path of the passage, e.g. "Security > Data residency". */
    headings: string;
    body: string;
  };
  /**
   * The document's language (a BCP 47 tag): its words are stemmed and its stop words dropped by
   * that language's rules (search/languages.ts). Absent: English rules.
   */
  lang?: string;
  /**
   * Multiplies the document's score (default 1): below 1 for text that rarely answers a question
   * by itself, such as a list of links to other pages.
   */
  boost?: number;
}

/** BM25F parameters of one field. */
export interface FieldParams {
  /** Multiplies the field's term frequencies before saturation (BM25F field weight). */
  weight: number;
  /** Length normalisation of the field, 0 (none) … 1 (full). */
  b: number;
}

/** Term-pair proximity bonus (BM25TP, Rasolofo & Savoy 2003) on the top `depth` documents. */
export interface ProximityParams {
  enabled: boolean;
  /** Largest distance (in indexed words) between two query terms that counts. */
  window: number;
  /** How many of the best BM25F documents are re-scored. */
  depth: number;
  /** Multiplies the pair score before it is added. */
  weight: number;
  /** Which query-term pairs count: every pair, or only terms next to each other in the query. */
  pairs: 'all' | 'adjacent';
}

/** RM3-style pseudo-relevance feedback (deterministic). */
export interface FeedbackParams {
  enabled: boolean;
  /** Feedback documents: the best documents of the first pass. */
  docs: number;
  /** Expansion terms kept. */
  terms: number;
  /** Share of the original query in the final query, 0 … 1 (RM3's lambda). */
  originalWeight: number;
  /** New terms in more than this share of documents are not added (too common to help). */
  maxDocFrequency: number;
  /**
   * How the feedback documents are weighted: 'exp' — P(D|Q) ∝ exp(score), as RM1's query
   * likelihood; 'linear' — proportional to the score (Anserini's BM25+RM3).
   */
  docWeighting: 'exp' | 'linear';
  /**
   * A query of at most this many words (as searched: stop and question words dropped) is short:
   * feedback may lift a document by at most `shortQueryLift` of its first-pass score, and finds
   * no document the query's own words did not. 0: no query is short.
   */
  shortQueryWords: number;
  /** On a short query, the most feedback may add to a document, as a share of its first-pass score. */
  shortQueryLift: number;
}

export interface RankingOptions {
  /** BM25 term-frequency saturation. */
  k1: number;
  fields: Record<FieldName, FieldParams>;
  /** Drop question-form words ("what", "how", "does"…) from queries that have other terms. */
  dropQuestionWords: boolean;
  proximity: ProximityParams;
  feedback: FeedbackParams;
}

/** Partial ranking options, merged over the defaults. */
export interface RankingOverrides {
  k1?: number;
  fields?: Partial<Record<FieldName, Partial<FieldParams>>>;
  dropQuestionWords?: boolean;
  proximity?: Partial<ProximityParams>;
  feedback?: Partial<FeedbackParams>;
}

/** The same parameters for every field. */
function everyField(params: FieldParams): Record<FieldName, FieldParams> {
  return Object.fromEntries(FIELD_NAMES.map((f) => [f, { ...params }])) as Record<FieldName, FieldParams>;
}

/** Plain BM25 (k1 1.2, b 0.75, every field alike), every extra off. */
export const PLAIN_BM25: RankingOverrides = {
  k1: 1.2,
  fields: everyField({ weight: 1, b: 0.75 }),
  dropQuestionWords: false,
  proximity: { enabled: false },
  feedback: { enabled: false },
};

function positive(name: string, v: number, allowZero = false): number {
  if (!Number.isFinite(v) || v < 0 || (!allowZero && v === 0)) {
    throw new RangeError(`search option ${name} must be a ${allowZero ? 'non-negative' : 'positive'} number`);
  }
  return v;
}

function unit(name: string, v: number): number {
  if (!Number.isFinite(v) || v < 0 || v > 1) throw new RangeError(`search option ${name} must be in 0…1`);
  return v;
}

function count(name: string, v: number): number {
  if (!Number.isInteger(v) || v < 0) throw new RangeError(`search option ${name} must be a whole number ≥ 0`);
  return v;
}

/** Merge overrides over a base (the defaults unless given) and validate. */
export function resolveRanking(
  overrides: RankingOverrides = {},
  base: RankingOptions = DEFAULT_RANKING,
): RankingOptions {
  const fields = {} as Record<FieldName, FieldParams>;
  for (const f of FIELD_NAMES) {
    const o = overrides.fields?.[f] ?? {};
    fields[f] = {
      weight: positive(`fields.${f}.weight`, o.weight ?? base.fields[f].weight, true),
      b: unit(`fields.${f}.b`, o.b ?? base.fields[f].b),
    };
  }
  const p = { ...base.proximity, ...overrides.proximity };
  const fb = { ...base.feedback, ...overrides.feedback };
  return {
    k1: positive('k1', overrides.k1 ?? base.k1),
    fields,
    dropQuestionWords: overrides.dropQuestionWords ?? base.dropQuestionWords,
    proximity: {
      enabled: p.enabled,
      window: count('proximity.window', p.window),
      depth: count('proximity.depth', p.depth),
      weight: positive('proximity.weight', p.weight, true),
      pairs: p.pairs === 'adjacent' ? 'adjacent' : 'all',
    },
    feedback: {
      enabled: fb.enabled,
      docs: count('feedback.docs', fb.docs),
      terms: count('feedback.terms', fb.terms),
      originalWeight: unit('feedback.originalWeight', fb.originalWeight),
      maxDocFrequency: unit('feedback.maxDocFrequency', fb.maxDocFrequency),
      docWeighting: fb.docWeighting === 'linear' ? 'linear' : 'exp',
      shortQueryWords: count('feedback.shortQueryWords', fb.shortQueryWords),
      shortQueryLift: positive('feedback.shortQueryLift', fb.shortQueryLift, true),
    },
  };
}
