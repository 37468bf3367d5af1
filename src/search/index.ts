/**
 * Frontdoor's lexical search: analyzer, index, BM25F ranking with proximity and feedback, and
 * snippets. Pure and synchronous; no I/O.
 */

export {
  analyze,
  analyzeQuery,
  analyzeTokens,
  foldWord,
  hasSearchableTerms,
  stemWord,
  QUESTION_WORDS,
  STOP_WORDS,
} from './analyzer.js';
export type { AnalyzedToken, QueryTerm } from './analyzer.js';
export {
  analyseDocuments,
  buildIndex,
  combineAnalysed,
  indexStats,
  isAnalysedDocuments,
  selectAnalysed,
  withRanking,
} from './build.js';
export type { AnalysedDocuments, BuildOptions, IndexStats, SearchIndex } from './build.js';
export { compareKeys } from './keys.js';
export { DEFAULT_RANKING, FIELD_NAMES, PLAIN_BM25, resolveRanking } from './options.js';
export type {
  FeedbackParams,
  FieldName,
  FieldParams,
  ProximityParams,
  RankingOptions,
  RankingOverrides,
  SearchDocument,
} from './options.js';
export { search, searchWithPlan } from './search.js';
export type { SearchOptions, SearchOutcome, SearchResult } from './search.js';
export { planQuery, QUESTION_FRAME_WORDS } from './query.js';
export type { PlanOptions, QueryCorrection, QueryPlan } from './query.js';
export { allowedEdits, editDistance } from './vocabulary.js';
export type { Vocabulary } from './vocabulary.js';

export { makeSnippet, prepareSnippetText, quoteSnippet } from './snippet.js';
export type { Highlight, PreparedText, Snippet, SnippetOptions, TermNumbers } from './snippet.js';
export { stemEnglish } from './stemmer.js';
export { SEARCH_ENGINE_VERSION } from './version.js';
