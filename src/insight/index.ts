/**
 * Insight for the site owner: what people and agents search for and cannot find, and which
 * agents read the discovery documents, counted in memory and stored as daily aggregates without
 * addresses or identifiers (docs/insight.md).
 */
export {
  CLIENT_CLASSES,
  classifyClient,
  createClientClassifier,
  KNOWN_CLIENTS,
  type ClientClass,
  type ClientIdentity,
} from './classify.js';
export { READERSHIP_DOCUMENTS, readershipDocument, type ReadershipDocument } from './documents.js';
export {
  createInsightRecorder,
  DEFAULT_MAX_PENDING_QUERIES,
  insightQueryText,
  retentionStartDay,
  SEARCH_CHANNELS,
  type InsightRecorder,
  type InsightRecorderOptions,
  type SearchChannel,
} from './recorder.js';
export { INSIGHT_MIGRATIONS, type InsightDialect } from './schema.js';
export {
  openInsightStore,
  openInsightStoreLazily,
  type InsightBatch,
  type InsightStore,
  type SearchCounts,
  type StoredInsight,
} from './store.js';
export { isWeakMatch } from './weak-match.js';
export {
  isIsoDay,
  isoDayOf,
  lastDays,
  MAX_REPORT_DAYS,
  periodProblem,
  readInsightReport,
  type AgentStat,
  type ByClass,
  type ClassStat,
  type DocumentStat,
  type InsightPeriod,
  type InsightReport,
  type QueryStat,
} from './report.js';
export {
  INSIGHT_REPORT_CSP,
  renderInsightReport,
  SUGGESTION_FORM_PATH,
  suggestionLink,
  type InsightHtmlOptions,
} from './html.js';
export {
  DEFAULT_REPORT_DAYS,
  INSIGHT_REPORT_PATH,
  insightReportRoutes,
  type InsightReportRoutesOptions,
} from './routes.js';
