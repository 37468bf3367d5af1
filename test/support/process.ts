import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { tempDir, REPO_ROOT } from './files.js';
import { LIMITS_OFF } from './limits.js';

/** `frontdoor serve` running as a child process, with what it wrote so far. */
export interface ServeProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** stdout and stderr interleaved as they arrived. */
  output(): string;
  /** The address from the "frontdoor listening on …" log line; rejects if the process ends first. */
  url: Promise<string>;
  exit: Promise<number | null>;
}

/** The environment spawnServe gives `frontdoor serve`, with `env` on top. */
export function serveEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    ...LIMITS_OFF,
    DATA_DIR: tempDir('fd-serve-'),
    ...env,
  };
}

/** The command line of `frontdoor serve` from the TypeScript sources. */
export const SERVE_ARGS = ['--import', 'tsx', 'src/cli/main.ts', 'serve'];

/**
 * Starts the real CLI (`frontdoor serve`, from the TypeScript sources through tsx) as an operator
 * would: port 0 on 127.0.0.1, LOG_LEVEL info, the abuse limits off and a fresh DATA_DIR unless `env`
 * says otherwise. stdout is captured, or sent to `stdoutFd` (e.g. /dev/full); `user` runs it as
 * another user (a suite running as root plays an operator without privileges). Kill what it
 * returns: tests keep a list and SIGKILL the leftovers after each test.
 */
export function spawnServe(
  env: Record<string, string>,
  stdoutFd?: number,
  user?: { uid: number; gid: number },
): ServeProcess {
  const child = spawn(user ? nodeOthersCanRun() : process.execPath, SERVE_ARGS, {
    cwd: REPO_ROOT,
    env: serveEnv(env),
    stdio: ['ignore', stdoutFd ?? 'pipe', 'pipe'],
    ...user,
  });
  let out = '';
  let err = '';
  let both = '';
  let listening: (url: string) => void = () => undefined;
  const url = new Promise<string>((done) => (listening = done));
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    both += chunk.toString();
    const match = /frontdoor listening on (http:\/\/[^\s"]+)/.exec(out);
    if (match) listening(match[1]!);
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString();
    both += chunk.toString();
  });
  const exit = new Promise<number | null>((done) => {
    child.once('exit', (code) => done(code));
    // A binary the process may not run (EACCES) ends it before it starts: say so, never hang.
    child.once('error', (error) => {
      err += `${error.message}\n`;
      both += `${error.message}\n`;
      done(null);
    });
  });
  const listened = Promise.race([
    url,
    exit.then((code) => Promise.reject(new Error(`exited ${code} before listening:\n${both}`))),
  ]);
  listened.catch(() => undefined);
  return { child, stdout: () => out, stderr: () => err, output: () => both, url: listened, exit };
}

/** Whether a user who is neither the owner nor in the group may reach and run `file`. */
function runnableByOthers(file: string): boolean {
  if ((statSync(file).mode & 0o001) === 0) return false;
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) return false;
    if (dirname(dir) === dir) return true;
  }
}

let nodeCopy: string | null = null;

/**
 * The node binary `user` runs: this one, or, when it lives where others may not reach (CI's Node
 * 22 and 24 under root's home), a copy of it in a folder everyone may enter, removed at exit.
 */
function nodeOthersCanRun(): string {
  if (runnableByOthers(process.execPath)) return process.execPath;
  if (nodeCopy === null) {
    const dir = mkdtempSync(join(tmpdir(), 'fd-node-'));
    chmodSync(dir, 0o755);
    const copy = join(dir, 'node');
    copyFileSync(process.execPath, copy);
    chmodSync(copy, 0o755);
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    nodeCopy = copy;
  }
  return nodeCopy;
}
