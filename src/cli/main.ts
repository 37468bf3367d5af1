#!/usr/bin/env node
import { ConfigError, loadConfig } from '../config/index.js';
import {
  createLogger,
  LogDestination,
  logStream,
  resolveLogFormat,
  startServer,
  type RunningServer,
} from '../runtime/index.js';

const USAGE = `Usage: frontdoor <command>

Commands:
  serve                         start the server (configuration from the environment; docs/configuration.md)
  init <folder>                 write a starter site (configuration and pages) into a new folder
  check                         check the content folder and report problems with file and line
  submissions list [options]    list stored submissions and their delivery state
  submissions retry <id|--dead> put dead-lettered submissions back in the delivery queue
  submissions release <id>...   deliver quarantined submissions (spam traps) judged genuine
  submissions export --format csv|jsonl [--email A]   export submissions with their fields
  submissions erase --email A   erase one person's personal data (data-subject request)
  insight [options]             what people and agents search for and read (--help for options)
  help                          show this text
`;

/** Writes to stderr without ever throwing: on a full disk the message is lost, not the exit code. */
function writeStderr(text: string): void {
  try {
    process.stderr.write(text);
  } catch {
    // stderr on a full or closed file: nothing better can be done.
  }
}

/**
 * `serve`: every line on stdout is JSON, fatal ones included, or a readable line when stdout is a
 * terminal or LOG_FORMAT=pretty says so; a fatal start-up problem is also
 * written to stderr in words (exit 78 for configuration, as sysexits' EX_CONFIG). The log is
 * asynchronous and drained (for at most two seconds, so a full disk cannot hold the exit) before
 * the process ends.
 */
async function serve(): Promise<void> {
  const destination = new LogDestination(1);
  const terminal = process.stdout.isTTY === true;
  // Until the configuration is read, the format follows the terminal (LOG_FORMAT unset).
  let logger = createLogger(
    { logLevel: 'info' },
    await logStream(resolveLogFormat('auto', terminal), destination, terminal),
  );
  process.stderr.on('error', () => undefined);
  let exiting = false;
  const exit = (code: number) => {
    if (exiting) return;
    exiting = true;
    void destination.drain(2_000).then(() => process.exit(code));
  };
  process.on('uncaughtException', (error) => {
    logger.fatal({ err: error }, 'uncaught exception; exiting');
    writeStderr(`frontdoor: uncaught exception: ${error.stack ?? error.message}\n`);
    exit(1);
  });
  process.on('unhandledRejection', (reason) => {
    logger.fatal({ err: reason }, 'unhandled promise rejection; exiting');
    writeStderr(`frontdoor: unhandled promise rejection: ${String(reason)}\n`);
    exit(1);
  });

  let server: RunningServer;
  try {
    const config = loadConfig();
    logger = createLogger(
      config,
      await logStream(resolveLogFormat(config.logFormat, terminal), destination, terminal),
    );
    server = await startServer(config, logger);
  } catch (error) {
    if (error instanceof ConfigError) {
      logger.fatal({ problems: error.problems, exitCode: 78 }, 'invalid configuration; not starting');
      writeStderr(`${error.message}\n`);
      return exit(78);
    }
    logger.fatal({ err: error, exitCode: 1 }, 'start-up failed');
    writeStderr(`frontdoor could not start: ${(error as Error)?.stack ?? String(error)}\n`);
    return exit(1);
  }

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    // A second signal, or a shutdown that hangs, ends the process anyway.
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    server.close().then(
      () => exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
    case undefined:
      await serve();
      return -1;
    case 'init': {
      const { runInit } = await import('./init.js');
      return runInit(rest);
    }
    case 'check': {
      const { runCheck } = await import('./check.js');
      return runCheck(rest);
    }
    case 'submissions': {
      const { runSubmissions } = await import('./submissions.js');
      return runSubmissions(rest);
    }
    case 'insight': {
      const { runInsight } = await import('./insight.js');
      return runInsight(rest);
    }
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(USAGE);
      return 0;
    default:
      process.stderr.write(`Unknown command "${command}".\n\n${USAGE}`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78); // EX_CONFIG
    }
    console.error(error);
    process.exit(1);
  },
);
