/**
 * The HTTP room's public surface: the Fastify application (buildApp) over an AppContext, and the
 * content it serves (LiveContent). The process that assembles and runs it is src/runtime/; the
 * routes and the application's assembly stay inside (src/http/app.ts, src/http/surfaces/).
 */
export { buildApp } from './app.js';
export type { AppContext } from './context.js';
export { ANALYSIS_DELAY_MS, ANALYSIS_SLICE_MS, LiveContent, type ContentGeneration } from './live-content.js';
