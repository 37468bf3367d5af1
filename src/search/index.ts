/**
 * Frontdoor's lexical search: analyzer, index, the ranking (passage stages in stages.ts, the page
 * stage in page-stage.ts, their numbers in tuning.ts) and snippets. Pure and synchronous; no I/O.
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
  SEARCH_ENGINE_VERSION,
  combineAnalysed,
  indexStats,
  isAnalysedDocuments,
  selectAnalysed,
  withRanking,
} from './build.js';
export type { AnalysedDocuments, BuildOptions, IndexStats, SearchIndex } from './build.js';
/**
 * Index keys are ordered by Unicode code point (the byte order of their UTF-8 encodings); the one
 * comparator lives in src/unicode.
 */
export { compareCodePoints as compareKeys } from '../unicode/index.js';
export { FIELD_NAMES, PLAIN_BM25, resolveRanking } from './options.js';
export { DEFAULT_RANKING, LINK_LIST_BOOST, NAME_MATCH_BOOST } from './tuning.js';
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
export { PASSAGE_STAGES } from './stages.js';
export { nameMatch, NO_HITS, PAGE_STEPS, passagesFirstAskedFor, rankPages } from './page-stage.js';
export type { PageRanking, PageRankingContext, PageSlot, RankedPage } from './page-stage.js';
export type { SearchOptions, SearchOutcome, SearchResult } from './search.js';
export { planQuery, QUESTION_FRAME_WORDS } from './query.js';
export type { PlanOptions, QueryCorrection, QueryPlan } from './query.js';
export { allowedEdits, editDistance } from './vocabulary.js';
export type { Vocabulary } from './vocabulary.js';

export { makeSnippet, prepareSnippetText, quoteSnippet } from './snippet.js';
export type { Highlight, PreparedText, Snippet, SnippetOptions, TermNumbers } from './snippet.js';
export { stemEnglish } from './stemmer.js';
