import { existsSync } from 'node:fs';
import { loadConfig, type ConfigSource } from '../config/index.js';
import {
  escapeForTerminal,
  escapeJsonForTerminal,
  openSubmissionStore,
  type SubmissionStore,
} from '../submissions/index.js';
import type { ListedState, SubmissionKind, SubmissionRecord } from '../submissions/types.js';

const USAGE = `Usage:
  frontdoor submissions list [--state pending|delivered|dead|none] [--kind lead|suggestion]
                             [--limit N] [--json] [--show-contact]
  frontdoor submissions retry <id>... | --dead

list    shows the newest submissions (50 unless --limit): id, kind, received time, provider,
        delivery state, attempts, next attempt and the class of the last error. The submitted
        fields (names, e-mails, messages) and the client address are shown only with --show-contact.
        State "none" lists submissions stored without delivery (LEAD_DELIVERY/SUGGESTION_DELIVERY=none).
retry   puts dead-lettered (or still pending) submissions back in the queue, due now, with a fresh
        attempt budget; the running server's delivery worker sends them. --dead retries every one.

The configuration (DATA_DIR or DATABASE_URL, ...) is read from the environment like "serve".
`;

export interface CliIo {
  env: ConfigSource;
  cwd: string;
  out: (text: string) => void;
  err: (text: string) => void;
}

const defaultIo = (): CliIo => ({
  env: process.env,
  cwd: process.cwd(),
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
});

class UsageError extends Error {}

const STATES: readonly ListedState[] = ['pending', 'delivered', 'dead', 'none'];
const KINDS: readonly SubmissionKind[] = ['lead', 'suggestion'];

interface ListOptions {
  state?: ListedState;
  kind?: SubmissionKind;
  limit: number;
  json: boolean;
  showContact: boolean;
}

function parseListOptions(args: string[]): ListOptions {
  const options: ListOptions = { limit: 50, json: false, showContact: false };
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    const [name, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg];
    const value = () => {
      const next = inline ?? args[++i];
      if (next === undefined) throw new UsageError(`${name} needs a value.`);
      return next;
    };
    switch (name) {
      case '--state': {
        const state = value();
        if (!(STATES as readonly string[]).includes(state))
          throw new UsageError(`--state must be one of ${STATES.join(', ')}.`);
        options.state = state as ListedState;
        break;
      }
      case '--kind': {
        const kind = value();
        if (!(KINDS as readonly string[]).includes(kind))
          throw new UsageError(`--kind must be lead or suggestion.`);
        options.kind = kind as SubmissionKind;
        break;
      }
      case '--limit': {
        const limit = value();
        if (!/^\d+$/.test(limit) || Number(limit) < 1 || Number(limit) > 10_000)
          throw new UsageError('--limit must be a whole number from 1 to 10000.');
        options.limit = Number(limit);
        break;
      }
      case '--json':
        options.json = true;
        break;
      case '--show-contact':
        options.showContact = true;
        break;
      default:
        throw new UsageError(`Unknown option "${arg}".`);
    }
  }
  return options;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function summary(record: SubmissionRecord, showContact: boolean) {
  return {
    id: record.id,
    kind: record.kind,
    receivedAt: iso(record.receivedAtMs),
    provider: record.provider,
    state: record.delivery?.state ?? 'none',
    attempts: record.delivery?.attempts ?? 0,
    nextAttemptAt: iso(record.delivery?.nextAttemptAtMs ?? null),
    lastError: record.delivery?.lastError ?? null,
    deliveredAt: iso(record.delivery?.deliveredAtMs ?? null),
    ...(showContact ? { fields: record.fields, clientIp: record.clientIp, userAgent: record.userAgent } : {}),
  };
}

function table(records: SubmissionRecord[], showContact: boolean): string {
  const header = ['ID', 'KIND', 'RECEIVED', 'PROVIDER', 'STATE', 'ATTEMPTS', 'NEXT ATTEMPT', 'LAST ERROR'];
  const rows = records.map((record) => {
    const s = summary(record, false);
    return [
      s.id,
      s.kind,
      s.receivedAt ?? '',
      s.provider,
      s.state,
      String(s.attempts),
      s.nextAttemptAt ?? '-',
      s.lastError ?? '-',
    ];
  });
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd();
  const lines = [line(header)];
  records.forEach((record, index) => {
    lines.push(line(rows[index]!));
    if (showContact) {
      // One line per field; control, separator and bidi characters shown as \uXXXX, so a value
      // cannot forge table rows, move the cursor or reorder what the operator reads.
      for (const [key, value] of Object.entries(record.fields))
        lines.push(`    ${escapeForTerminal(key)}: ${escapeForTerminal(value)}`);
      lines.push(
        `    client: ${escapeForTerminal(record.clientIp)}${record.userAgent ? ` (${escapeForTerminal(record.userAgent)})` : ''}`,
      );
    }
  });
  const hints = [...new Set(records.map((record) => record.delivery?.lastError ?? ''))]
    .map((errorClass) => [errorClass, hintFor(errorClass)] as const)
    .filter(([, hint]) => hint !== null)
    .map(([errorClass, hint]) => `  ${errorClass}: ${hint}`);
  if (hints.length > 0) lines.push('', 'What the last errors mean:', ...hints);
  return `${lines.join('\n')}\n`;
}

/** What an operator can do about a stored error class (the classes are codes, never submitted text). */
export function hintFor(errorClass: string): string | null {
  if (/^http_3\d\d$/.test(errorClass))
    return 'the webhook answered with a redirect, which is not followed (signed personal data goes only to the configured URL): set CRM_WEBHOOK_URL to the final address, restart, then run `frontdoor submissions retry --dead`.';
  if (errorClass === 'http_401' || errorClass === 'http_403')
    return 'the webhook refused the signature: make CRM_WEBHOOK_SECRET equal to the secret the receiver checks, restart, then retry.';
  if (errorClass === 'http_404' || errorClass === 'http_410')
    return 'the webhook URL does not exist: correct CRM_WEBHOOK_URL, restart, then retry.';
  if (/^smtp_5\d\d$/.test(errorClass))
    return 'the mail relay refused the message: check MAIL_FROM and the recipients with the relay operator, then retry.';
  if (errorClass.startsWith('log_'))
    return 'the server log could not be written (a full or broken disk?): free space where stdout goes; the worker retries by itself.';
  return null;
}

const REASONS = {
  unknown: 'no submission has this id',
  delivered: 'already delivered',
  'no-delivery': 'stored without delivery (provider none); nothing to send',
} as const;

async function withStore<T>(io: CliIo, work: (store: SubmissionStore) => Promise<T>): Promise<T | number> {
  const config = loadConfig(io.env, io.cwd);
  if (config.database.kind === 'sqlite' && !existsSync(config.database.file)) {
    io.err(
      `No submissions database at ${config.database.file}: set DATA_DIR to the folder the server uses (or DATABASE_URL for PostgreSQL).\n`,
    );
    return 1;
  }
  const store = await openSubmissionStore(config.database);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** `frontdoor submissions list|retry`: the operator's view of stored submissions and dead letters. */
export async function runSubmissions(args: string[], io: CliIo = defaultIo()): Promise<number> {
  const [command, ...rest] = args;
  try {
    switch (command) {
      case 'list': {
        const options = parseListOptions(rest);
        return await withStore(io, async (store) => {
          const records = await store.list({
            limit: options.limit,
            ...(options.state ? { state: options.state } : {}),
            ...(options.kind ? { kind: options.kind } : {}),
          });
          if (options.json)
            io.out(
              `${escapeJsonForTerminal(
                JSON.stringify(
                  records.map((record) => summary(record, options.showContact)),
                  null,
                  2,
                ),
              )}\n`,
            );
          else if (records.length === 0) io.out('No submissions match.\n');
          else io.out(table(records, options.showContact));
          return 0;
        });
      }
      case 'retry': {
        if (rest.length === 0) throw new UsageError('Name the submissions to retry, or pass --dead.');
        if (rest.includes('--dead')) {
          if (rest.length > 1) throw new UsageError('--dead retries every dead letter; do not add ids.');
          return await withStore(io, async (store) => {
            const ids = await store.requeueAllDead(Date.now());
            for (const id of ids) io.out(`requeued ${id}\n`);
            io.out(`${ids.length} dead-lettered submission${ids.length === 1 ? '' : 's'} requeued.\n`);
            return 0;
          });
        }
        const unknownOption = rest.find((arg) => arg.startsWith('-'));
        if (unknownOption) throw new UsageError(`Unknown option "${unknownOption}".`);
        return await withStore(io, async (store) => {
          const results = await store.requeue(rest, Date.now());
          for (const result of results) {
            if (result.requeued) io.out(`requeued ${result.id}\n`);
            else io.err(`not requeued ${result.id}: ${REASONS[result.reason ?? 'unknown']}\n`);
          }
          return results.every((result) => result.requeued) ? 0 : 1;
        });
      }
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        io.out(USAGE);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`Unknown submissions command "${command}".`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    throw error;
  }
}
