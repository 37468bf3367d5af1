/**
 * How the benchmark starts the real server (`frontdoor serve`): the built dist/ when it is up to
 * date with src/, else the TypeScript sources through tsx, so a stale build is never measured.
 */

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { staleReason } from '../scripts/build-state.mjs';
import { repoRoot } from './paths.js';

export interface ServerEntry {
  runner: 'dist' | 'tsx';
  /** Arguments after the node executable. */
  args: string[];
  /** Environment `npm start` sets before `node` (glibc malloc settings). */
  env: Record<string, string>;
  /** Why this runner (e.g. the first source file newer than its build). */
  reason: string;
}

/**
 * The Node options of `npm start` (package.json: `node <options> dist/cli/main.js serve`), so the
 * benchmark runs the server as npm start does (the V8 heap options change its memory).
 */
export function startNodeOptions(): string[] {
  // FRONTDOOR_BENCH_NODE_OPTIONS replaces them, to compare settings ('' for Node's defaults).
  const override = process.env.FRONTDOOR_BENCH_NODE_OPTIONS;
  if (override !== undefined) return override.split(/\s+/).filter((word) => word !== '');
  const words = startScriptWords();
  return words.slice(words.indexOf('node') + 1, words.indexOf('dist/cli/main.js'));
}

/** The `NAME=value` words before `node` in `npm start`: the benchmark's server gets them too. */
export function startEnvironment(): Record<string, string> {
  const words = startScriptWords();
  return Object.fromEntries(
    words.slice(0, words.indexOf('node')).map((word) => {
      const equals = word.indexOf('=');
      return [word.slice(0, equals), word.slice(equals + 1)];
    }),
  );
}

function startScriptWords(): string[] {
  const packageJson = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  return packageJson.scripts.start!.split(/\s+/);
}

/** FRONTDOOR_BENCH_SERVER=dist|tsx forces a runner. */
export function serverEntry(): ServerEntry {
  const options = startNodeOptions();
  const env = startEnvironment();
  const dist: ServerEntry = {
    runner: 'dist',
    args: [...options, 'dist/cli/main.js', 'serve'],
    env,
    reason: '',
  };
  const tsx: ServerEntry = {
    runner: 'tsx',
    args: [...options, '--import', 'tsx', 'src/cli/main.ts', 'serve'],
    env,
    reason: '',
  };
  const forced = process.env.FRONTDOOR_BENCH_SERVER;
  if (forced === 'dist') return { ...dist, reason: 'FRONTDOOR_BENCH_SERVER=dist' };
  if (forced === 'tsx') return { ...tsx, reason: 'FRONTDOOR_BENCH_SERVER=tsx' };
  if (!existsSync(path.join(repoRoot, 'dist/cli/main.js')))
    return { ...tsx, reason: 'no build in dist/ (npm run build)' };
  const stale = staleReason(repoRoot);
  return stale
    ? { ...tsx, reason: `${stale} (npm run build to measure the build)` }
    : { ...dist, reason: 'dist/ is up to date with src/' };
}

/** The server process pinned to one core when taskset exists (the load generator gets the other). */
export function pinned(core: number, command: string, args: string[]): { command: string; args: string[] } {
  return existsSync('/usr/bin/taskset')
    ? { command: 'taskset', args: ['-c', String(core), command, ...args] }
    : { command, args };
}

export const canPin = (): boolean => existsSync('/usr/bin/taskset');

/**
 * The limits stay on, so their per-request cost is measured, with quotas the load generator (one
 * client) cannot reach.
 */
const BENCH_LIMITS = {
  RATE_LIMIT_LEADS: '999999999/60',
  RATE_LIMIT_SUGGESTIONS: '999999999/60',
  RATE_LIMIT_ASK: '999999999/60',
  RATE_LIMIT_DELIVERIES: '999999999/60',
};

/** Starts `frontdoor serve` with the given environment on top of this process's. */
export function spawnServer(
  entry: ServerEntry,
  env: Record<string, string>,
  /** `stdout`: a pipe, nothing, or an open file descriptor the server's log is written to. */
  options: { core?: number; stdout: 'pipe' | 'ignore' | number },
): ChildProcess {
  const { command, args } =
    options.core === undefined
      ? { command: process.execPath, args: entry.args }
      : pinned(options.core, process.execPath, entry.args);
  return spawn(command, args, {
    cwd: repoRoot,
    env: { ...process.env, ...entry.env, ...BENCH_LIMITS, ...env },
    stdio: ['ignore', options.stdout, 'inherit'],
  });
}

/** SIGTERM and wait for the exit (the server shuts down gracefully). */
export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
