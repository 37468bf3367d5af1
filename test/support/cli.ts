import type { CliIo } from '../../src/cli/submissions.js';

/** A CLI command's entry (`runSubmissions`, `runInsight`, `runCheck`): arguments and its I/O in, exit code out. */
export type CliCommand = (args: string[], io: CliIo) => Promise<number>;

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/**
 * Runs a CLI command in this process with the given environment (nothing inherited) and captures
 * what it writes: the commands' own tests need no child process.
 */
export async function runCommand(
  command: CliCommand,
  args: string[],
  env: Record<string, string | undefined>,
  cwd = process.cwd(),
): Promise<CliRun> {
  let out = '';
  let err = '';
  const code = await command(args, { env, cwd, out: (text) => (out += text), err: (text) => (err += text) });
  return { code, out, err };
}
