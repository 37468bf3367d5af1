import {
  accessSync,
  closeSync,
  constants,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  statSync,
} from 'node:fs';
import { ConfigError } from './config.js';

/**
 * Checks, before the store opens, that DATA_DIR is a folder this process can write (creating it
 * when missing), so an operator reads the variable and the fix instead of a SQLite stack trace.
 */
export function checkDataDir(dataDir: string): void {
  const fix = 'point DATA_DIR at a folder the server user can write, or create it with that owner';
  let stat;
  try {
    stat = statSync(dataDir, { throwIfNoEntry: false });
  } catch (error) {
    const code = codeOf(error);
    const what = code === 'ENOTDIR' ? 'is below a file' : 'cannot be inspected';
    throw new ConfigError([`DATA_DIR="${dataDir}" ${what} (${code}): ${fix}.`]);
  }
  if (stat && !stat.isDirectory())
    throw new ConfigError([`DATA_DIR="${dataDir}" is a file, not a folder: ${fix}.`]);
  if (!stat) {
    try {
      mkdirSync(dataDir, { recursive: true });
    } catch (error) {
      const code = codeOf(error);
      const what =
        code === 'ENOTDIR' || code === 'EEXIST' ? 'is below a file' : 'does not exist and cannot be created';
      throw new ConfigError([`DATA_DIR="${dataDir}" ${what} (${code}): ${fix}.`]);
    }
  }
  try {
    accessSync(dataDir, constants.W_OK | constants.X_OK);
  } catch (error) {
    throw new ConfigError([`DATA_DIR="${dataDir}" is not writable (${codeOf(error)}): ${fix}.`]);
  }
}

/** The first bytes of every SQLite 3 database file. */
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * Checks, before the store opens, that the SQLite file under DATA_DIR is absent, empty (SQLite
 * makes it a database) or a readable, writable SQLite database: a folder, a pipe, an unreadable
 * file or one of other bytes there is named with the fix instead of a stack trace.
 */
export function checkDatabaseFile(file: string): void {
  const fix = 'move it out of DATA_DIR to start with a new, empty store, or restore the file from a backup';
  const stats = lstatSync(file, { throwIfNoEntry: false });
  if (stats === undefined) return;
  if (!stats.isFile())
    throw new ConfigError([
      `DATA_DIR holds "${file}", which is not a regular file (a folder, link or pipe): ${fix}.`,
    ]);
  let fd: number;
  try {
    accessSync(file, constants.R_OK | constants.W_OK);
    fd = openSync(file, 'r');
  } catch (error) {
    throw new ConfigError([
      `DATA_DIR holds "${file}", which this process cannot read and write (${codeOf(error)}): give the server user access to it, or ${fix}.`,
    ]);
  }
  const start = Buffer.alloc(SQLITE_HEADER.length);
  try {
    readSync(fd, start, 0, start.length, 0);
  } finally {
    closeSync(fd);
  }
  if (stats.size > 0 && !start.equals(SQLITE_HEADER))
    throw new ConfigError([`DATA_DIR holds "${file}", which is not a SQLite database: ${fix}.`]);
}

/** The variables a listener's address comes from: the public one's, or the admin listener's. */
export interface ListenerVariables {
  host: 'HOST' | 'METRICS_HOST';
  port: 'PORT' | 'METRICS_PORT';
}

const PUBLIC_LISTENER: ListenerVariables = { host: 'HOST', port: 'PORT' };

/** The listen error in words: which variable to change. Other errors are returned unchanged. */
export function listenError(
  error: unknown,
  host: string,
  port: number,
  names: ListenerVariables = PUBLIC_LISTENER,
): unknown {
  switch (codeOf(error)) {
    case 'EADDRINUSE':
      return new ConfigError([
        `${names.port}=${port} is already in use on ${names.host} ${host}: stop the other process or set ${names.port} to a free port.`,
      ]);
    case 'EACCES':
      return new ConfigError([
        `${names.port}=${port} needs privileges this process lacks: set ${names.port} to 1024 or above${names.port === 'PORT' ? ' (a proxy can listen on 80/443)' : ''}.`,
      ]);
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return new ConfigError([
        `${names.host}="${host}" is not an address of this machine: set ${names.host} to 127.0.0.1, 0.0.0.0 or one of its addresses.`,
      ]);
    default:
      return error;
  }
}

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'unknown error';
}
