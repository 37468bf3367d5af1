#!/usr/bin/env node
import { ConfigError, loadConfig } from '../config/index.js';
import { createLogger, startServer } from '../http/server.js';

const USAGE = `Usage: frontdoor <command>

Commands:
  serve                         start the server (configuration from the environment; see README)
  check                         check the content folder and report problems with file and line
  submissions list [options]    list stored submissions and their delivery state
  submissions retry <id|--dead> put dead-lettered submissions back in the delivery queue
  submissions release <id>...   deliver quarantined submissions (spam traps) judged genuine
  submissions export --format csv|jsonl [--email A]   export submissions with their fields
  submissions erase --email A   erase one person's personal data (data-subject request)
  insight [options]             what people and agents search for and read (--help for options)
  help                          show this text
`;

async function serve(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config);
  const server = await startServer(config, logger);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    // A second signal, or a shutdown that hangs, ends the process anyway.
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
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
