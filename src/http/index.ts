/**
 * The HTTP room's public surface: what the CLI needs to start and stop the server. The routes
 * and the application's assembly stay inside (src/http/app.ts, src/http/routes/).
 */
export { createLogger, LogDestination, startServer, type RunningServer } from './server.js';
export { logStream, resolveLogFormat } from './log-format.js';
