import { existsSync } from 'node:fs';
import { loadConfig, type ConfigSource } from '../config/index.js';
import { readFormsFile } from '../content/index.js';
import { DEFAULT_FORMS, type FormDefinition } from '../contract/index.js';
import {
  openSubmissionStore,
  singleLine,
  SUBMISSION_FIELDS,
  type SubmissionStore,
} from '../submissions/index.js';
import type { ListedState, SubmissionKind, SubmissionRecord } from '../submissions/index.js';
import { cliOptions, UsageError } from './options.js';
import { escapeForTerminal, escapeJsonForTerminal } from '../text/index.js';

const USAGE = `Usage:
  frontdoor submissions list [--state pending|delivered|dead|quarantine|none] [--kind lead|suggestion]
                             [--email ADDRESS] [--limit N] [--json] [--show-contact]
  frontdoor submissions retry <id>... | --dead
  frontdoor submissions release <id>...
  frontdoor submissions export --format csv|jsonl [--state S] [--kind K] [--email ADDRESS]
  frontdoor submissions erase --email ADDRESS

list    shows the newest submissions (50 unless --limit): id, kind, received time, provider,
        delivery state, attempts, next attempt and the class of the last error. The submitted
        fields (names, e-mails, messages) and the client address are shown only with --show-contact.
        State "none" lists submissions stored without delivery (LEAD_DELIVERY/SUGGESTION_DELIVERY=none).
retry   puts dead-lettered (or still pending) submissions back in the queue, due now, with a fresh
        attempt budget; the running server's delivery worker sends them. --dead retries every one.
        State "quarantine" lists form submissions that tripped a spam trap (the hidden honeypot
        field was filled, or the form was sent faster than FORM_MIN_FILL_MS); they are kept, not
        delivered.
release moves quarantined submissions you judged genuine to the queue; the worker delivers them.
export  writes every matching submission with its fields, oldest first, to standard output: CSV
        (one header row; control characters in values flattened to spaces, and a value starting
        with = + - @ prefixed with ' so a spreadsheet does not run it as a formula) or JSON Lines
        (one JSON object a line, values exact, control characters escaped by JSON). For a
        data-subject access request, use --email.
erase   erases the personal fields of every submission that holds this e-mail address (a
        data-subject erasure request): as its e-mail, in another field, as its Idempotency-Key,
        in its user agent or request id. Names, e-mail, message, client address, user agent,
        key and request id go; counts and delivery states stay; one not yet delivered is
        dead-lettered as "erased" and never sent.

The configuration (DATA_DIR or DATABASE_URL, ...) is read from the environment like "serve".
`;

export interface CliIo {
  env: ConfigSource;
  cwd: string;
  out: (text: string) => void;
  err: (text: string) => void;
}

/** The process's own environment, working directory and standard streams. */
export const processIo = (): CliIo => ({
  env: process.env,
  cwd: process.cwd(),
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
});

const STATES: readonly ListedState[] = ['pending', 'delivered', 'dead', 'quarantine', 'none'];
const KINDS: readonly SubmissionKind[] = ['lead', 'suggestion'];

interface ListOptions {
  state?: ListedState;
  kind?: SubmissionKind;
  email?: string;
  format?: 'csv' | 'jsonl';
  limit: number;
  json: boolean;
  showContact: boolean;
}

function parseListOptions(args: string[]): ListOptions {
  const options: ListOptions = { limit: 50, json: false, showContact: false };
  for (const { arg, name, value } of cliOptions(args)) {
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
      case '--email': {
        const email = value().trim();
        if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new UsageError('--email must be an e-mail address.');
        options.email = email;
        break;
      }
      case '--format': {
        const format = value();
        if (format !== 'csv' && format !== 'jsonl') throw new UsageError('--format must be csv or jsonl.');
        options.format = format;
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
    // The configured form it came from (forms: in _site.yaml); absent for the seed's forms.
    ...(record.form === null ? {} : { form: record.form }),
    receivedAt: iso(record.receivedAtMs),
    provider: record.provider,
    state: record.delivery?.state ?? 'none',
    attempts: record.delivery?.attempts ?? 0,
    nextAttemptAt: iso(record.delivery?.nextAttemptAtMs ?? null),
    lastError: record.delivery?.lastError ?? null,
    deliveredAt: iso(record.delivery?.deliveredAtMs ?? null),
    quarantineReason: record.quarantineReason,
    erasedAt: iso(record.erasedAtMs),
    ...(showContact ? { fields: record.fields, clientIp: record.clientIp, userAgent: record.userAgent } : {}),
  };
}

function table(records: SubmissionRecord[], showContact: boolean): string {
  const header = ['ID', 'KIND', 'RECEIVED', 'PROVIDER', 'STATE', 'ATTEMPTS', 'NEXT ATTEMPT', 'LAST ERROR'];
  const rows = records.map((record) => {
    const s = summary(record, false);
    return [
      s.id,
      record.form ?? s.kind,
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

/**
 * The export's field columns: every field of the site's forms (the seed's, or those `forms:` in
 * _site.yaml declares) in their order, then any other field the exported submissions hold (sent
 * under an earlier configuration), sorted.
 */
function fieldColumnsOf(forms: readonly FormDefinition[], records: readonly SubmissionRecord[]): string[] {
  const columns = new Set(
    forms === DEFAULT_FORMS ? SUBMISSION_FIELDS : forms.flatMap((f) => f.fields.map((x) => x.name)),
  );
  const others = new Set<string>();
  for (const record of records)
    for (const name of Object.keys(record.fields)) if (!columns.has(name)) others.add(name);
  return [...columns, ...[...others].sort()];
}

/** A spreadsheet runs a cell starting with one of these as a formula. */
const FORMULA_START = /^[=+\-@]/;

function csvCell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const flat = singleLine(value);
  const text = FORMULA_START.test(flat) ? `'${flat}` : flat;
  return /[",\s']/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One export row per submission: its summary, the client, then every field column. */
function exportRow(record: SubmissionRecord, fieldColumns: readonly string[] = SUBMISSION_FIELDS) {
  return {
    ...summary(record, false),
    clientIp: record.clientIp,
    userAgent: record.userAgent,
    fields: Object.fromEntries(fieldColumns.map((name) => [name, record.fields[name] ?? null])),
  };
}

const EMPTY_RECORD: SubmissionRecord = {
  id: '',
  kind: 'lead',
  form: null,
  receivedAtMs: 0,
  provider: 'log',
  fields: {},
  requestId: '',
  clientIp: '',
  userAgent: null,
  idempotencyKey: null,
  fingerprint: '',
  requestHash: '',
  quarantineReason: null,
  erasedAtMs: null,
  delivery: null,
};

type ExportRow = ReturnType<typeof exportRow>;
const EXPORT_COLUMNS = Object.keys(exportRow(EMPTY_RECORD)).filter(
  (key): key is Exclude<keyof ExportRow, 'fields' | 'form'> => key !== 'fields' && key !== 'form',
);

function exportText(
  records: SubmissionRecord[],
  format: 'csv' | 'jsonl',
  forms: readonly FormDefinition[],
): string {
  const FIELD_COLUMNS = fieldColumnsOf(forms, records);
  const rows = records.map((record) => exportRow(record, FIELD_COLUMNS));
  if (format === 'jsonl')
    return rows.map((row) => `${escapeJsonForTerminal(JSON.stringify(row))}\n`).join('');
  // A site with its own forms gets a `form` column (the operation each row came from).
  const lines = [
    [...EXPORT_COLUMNS, ...(forms === DEFAULT_FORMS ? [] : ['form']), ...FIELD_COLUMNS].join(','),
  ];
  for (const row of rows)
    lines.push(
      [
        ...EXPORT_COLUMNS.map((column) => csvCell(row[column])),
        ...(forms === DEFAULT_FORMS ? [] : [csvCell(row.form ?? null)]),
        ...FIELD_COLUMNS.map((name) => csvCell(row.fields[name] ?? null)),
      ].join(','),
    );
  // RFC 4180 line breaks.
  return `${lines.join('\r\n')}\r\n`;
}

/** Largest export: every submission a site keeps (the list command has its own, smaller limit). */
const EXPORT_LIMIT = 10_000_000;

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
  'not-quarantined': 'not in quarantine',
  erased: 'its personal data was erased; there is nothing to send',
  quarantined: 'in quarantine; use "submissions release" after checking it',
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
export async function runSubmissions(args: string[], io: CliIo = processIo()): Promise<number> {
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
            ...(options.email ? { email: options.email } : {}),
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
      case 'release': {
        if (rest.length === 0) throw new UsageError('Name the quarantined submissions to release.');
        const unknownOption = rest.find((arg) => arg.startsWith('-'));
        if (unknownOption) throw new UsageError(`Unknown option "${unknownOption}".`);
        return await withStore(io, async (store) => {
          const results = await store.release(rest, Date.now());
          for (const result of results) {
            if (result.released) io.out(`released ${result.id}\n`);
            else io.err(`not released ${result.id}: ${REASONS[result.reason ?? 'unknown']}\n`);
          }
          return results.every((result) => result.released) ? 0 : 1;
        });
      }
      case 'export': {
        const options = parseListOptions(rest);
        if (!options.format) throw new UsageError('export needs --format csv or --format jsonl.');
        if (options.json || options.showContact || options.limit !== 50)
          throw new UsageError('export takes --format, --state, --kind and --email only.');
        const format = options.format;
        return await withStore(io, async (store) => {
          const records = await store.list({
            limit: EXPORT_LIMIT,
            ...(options.state ? { state: options.state } : {}),
            ...(options.kind ? { kind: options.kind } : {}),
            ...(options.email ? { email: options.email } : {}),
          });
          const forms = readFormsFile(loadConfig(io.env, io.cwd).contentDir);
          io.out(exportText(records.reverse(), format, forms));
          return 0;
        });
      }
      case 'erase': {
        const options = parseListOptions(rest);
        const extra = options.state || options.kind || options.format || options.json || options.showContact;
        if (!options.email || extra || options.limit !== 50)
          throw new UsageError('erase takes exactly --email ADDRESS.');
        const email = options.email;
        return await withStore(io, async (store) => {
          const ids = await store.eraseByEmail(email, Date.now());
          for (const id of ids) io.out(`erased ${id}\n`);
          io.out(`${ids.length} submission${ids.length === 1 ? '' : 's'} erased.\n`);
          return 0;
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
