import { createRequire } from 'node:module';

/**
 * The few SQLite calls the stores need (submissions, insight), over whichever driver the running
 * Node has.
 *
 * - Node 22.13+ ships `node:sqlite` (no native addon to build); it is used there.
 * - Node 20 has no `node:sqlite`, so `better-sqlite3` 12 is used. better-sqlite3 12 must not run
 *   on Node 24: its statements' destructors trip a Node assertion when the garbage collector
 *   frees them (`RemoveEnvironmentCleanupHook: (env) != nullptr`, an abort seen here at start-up),
 *   and better-sqlite3 13, which fixes that, no longer supports Node 20.
 *
 * Both drivers are synchronous and run the same SQL, so the store above is written once.
 */
export type SqliteDriverName = 'node:sqlite' | 'better-sqlite3';

export type SqliteValue = string | number | bigint | null | Uint8Array;
export type SqliteParams = SqliteValue[] | [Record<string, SqliteValue | undefined>];

export interface SqliteStatement<Row> {
  run(...params: SqliteParams): { changes: number };
  get(...params: SqliteParams): Row | undefined;
  all(...params: SqliteParams): Row[];
}

export interface SqliteConnection {
  readonly driver: SqliteDriverName;
  exec(sql: string): void;
  prepare<Row = Record<string, unknown>>(sql: string): SqliteStatement<Row>;
  /** Runs `fn` in a BEGIN IMMEDIATE transaction: other writers wait instead of failing half-way. */
  immediate<T>(fn: () => T): T;
  close(): void;
}

interface NativeStatement {
  run(...params: unknown[]): { changes: number | bigint };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}
interface NativeDatabase {
  exec(sql: string): unknown;
  prepare(sql: string): NativeStatement;
  close(): void;
}

const require = createRequire(import.meta.url);

/**
 * `node:sqlite`, loaded without the ExperimentalWarning Node 22 prints on stderr when it is first
 * loaded: a line outside the JSON logs (and in every CLI command's output) that an operator
 * cannot act on. Only that warning is held back; any other is emitted as usual.
 */
function requireNodeSqlite(): unknown {
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: NodeJS.Process, warning: string | Error, ...rest: unknown[]) {
    const options = rest[0];
    const type = typeof options === 'string' ? options : (options as { type?: string } | undefined)?.type;
    const message = typeof warning === 'string' ? warning : warning.message;
    if (type === 'ExperimentalWarning' && /\bSQLite\b/.test(message)) return;
    (emitWarning as (...args: unknown[]) => void).call(this, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    return require('node:sqlite');
  } finally {
    process.emitWarning = emitWarning;
  }
}

function loadNative(): {
  driver: SqliteDriverName;
  open: (file: string, readonly: boolean) => NativeDatabase;
} {
  try {
    const { DatabaseSync } = requireNodeSqlite() as {
      DatabaseSync: new (file: string, options?: { readOnly?: boolean }) => NativeDatabase;
    };
    return {
      driver: 'node:sqlite',
      open: (file, readonly) => new DatabaseSync(file, { readOnly: readonly }),
    };
  } catch {
    // Node 20 (or 22 before 22.13 without --experimental-sqlite): the addon.
    let BetterSqlite: new (file: string, options?: { readonly?: boolean }) => NativeDatabase;
    try {
      BetterSqlite = require('better-sqlite3') as typeof BetterSqlite;
    } catch (error) {
      throw new Error(
        `SQLite is not available: this Node (${process.version}) has no node:sqlite and the optional ` +
          `better-sqlite3 package did not load (${(error as Error).message.split('\n')[0]}). Run npm ci with a ` +
          'C++ toolchain, use Node 22.13 or newer, or set DATABASE_URL to use PostgreSQL.',
        { cause: error },
      );
    }
    return { driver: 'better-sqlite3', open: (file, readonly) => new BetterSqlite(file, { readonly }) };
  }
}

let native: ReturnType<typeof loadNative> | null = null;

/** The driver this process uses (loaded on first use). */
export function sqliteDriverName(): SqliteDriverName {
  native ??= loadNative();
  return native.driver;
}

const NAMED_PARAMETER = /@([A-Za-z_][A-Za-z0-9_]*)/g;

/**
 * The drivers disagree on loose parameters (node:sqlite refuses unknown names and undefined;
 * better-sqlite3 refuses missing names), so both get exactly the names the SQL uses, with
 * undefined bound as NULL.
 */
function bind(names: readonly string[], params: SqliteParams): unknown[] {
  const [first] = params;
  if (names.length > 0 && first !== null && typeof first === 'object' && !(first instanceof Uint8Array)) {
    const source = first as Record<string, SqliteValue | undefined>;
    return [Object.fromEntries(names.map((name) => [name, source[name] ?? null]))];
  }
  return (params as (SqliteValue | undefined)[]).map((value) => value ?? null);
}

export function openSqliteConnection(file: string, options: { readonly?: boolean } = {}): SqliteConnection {
  native ??= loadNative();
  const db = native.open(file, options.readonly ?? false);
  let open = true;
  return {
    driver: native.driver,
    exec: (sql) => {
      db.exec(sql);
    },
    prepare<Row>(sql: string): SqliteStatement<Row> {
      const statement = db.prepare(sql);
      const names = [...new Set([...sql.matchAll(NAMED_PARAMETER)].map((match) => match[1]!))];
      return {
        run: (...params) => ({ changes: Number(statement.run(...bind(names, params)).changes) }),
        get: (...params) => statement.get(...bind(names, params)) as Row | undefined,
        all: (...params) => statement.all(...bind(names, params)) as Row[],
      };
    },
    immediate<T>(fn: () => T): T {
      db.exec('BEGIN IMMEDIATE');
      try {
        const result = fn();
        db.exec('COMMIT');
        return result;
      } catch (error) {
        db.exec('ROLLBACK');
        throw error;
      }
    },
    close: () => {
      if (open) {
        open = false;
        db.close();
      }
    },
  };
}
