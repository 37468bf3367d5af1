import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
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

/** The listen error in words: which variable to change. Other errors are returned unchanged. */
export function listenError(error: unknown, host: string, port: number): unknown {
  switch (codeOf(error)) {
    case 'EADDRINUSE':
      return new ConfigError([
        `PORT=${port} is already in use on HOST ${host}: stop the other process or set PORT to a free port.`,
      ]);
    case 'EACCES':
      return new ConfigError([
        `PORT=${port} needs privileges this process lacks: set PORT to 1024 or above (a proxy can listen on 80/443).`,
      ]);
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return new ConfigError([
        `HOST="${host}" is not an address of this machine: set HOST to 127.0.0.1, 0.0.0.0 or one of its addresses.`,
      ]);
    default:
      return error;
  }
}

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'unknown error';
}
