/**
 * The runtime room's public surface: what the CLI needs to start and stop the server. Inside: the
 * composition root (server.ts), the content's lifecycle (load, snapshot, reload, the generation
 * worker) and where the log goes.
 */
export { createLogger, LogDestination, startServer, type RunningServer } from './server.js';
export { logStream, resolveLogFormat } from './log-format.js';
export { goingLiveWarnings, localAddress } from './going-live.js';
