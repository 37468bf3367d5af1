/**
 * The NLWeb /ask room: request parsing, the deterministic answer built from the site's search
 * index, and the Server-Sent Events writer the route streams with.
 */
export {
  answerMeta,
  contentOf,
  createAskService,
  ANSWER_DOORKEEPER_SIZE,
  DEFAULT_ANSWER_CACHE_SIZE,
  DEFAULT_STREAMING,
} from './service.js';
export {
  analysePassages,
  buildPassageIndex,
  PASSAGE_ANALYSIS_STEP,
  passageDocument,
} from './passage-index.js';
export type {
  AnswerSummary,
  AskOutcome,
  AskCounts,
  AskService,
  AskServiceOptions,
  StreamingOptions,
} from './service.js';
export { findCopies, type CopyGroups } from './page-traits.js';
export { normaliseQuery, parseAskBody, parseAskQueryString, parseBooleanParam } from './request.js';
export type { AskDelivery, AskQuery, ParsedAsk } from './request.js';
export { EVENT_STREAM_HEADERS, EventStream, formatEvent, HEARTBEAT, streamEvents } from './sse.js';
export type { EventSink, EventStreamOptions } from './sse.js';
export { StreamRegistry } from './stream-registry.js';
export type { StreamLimits } from './stream-registry.js';
