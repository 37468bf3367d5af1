/** A command line that cannot be run as written; its message says what to change. */
export class UsageError extends Error {}

/** One option of a command line: `--name value` or `--name=value`. */
export interface CliOption {
  /** As written, e.g. `--limit=5`. */
  arg: string;
  /** The part before any `=`, e.g. `--limit`. */
  name: string;
  /** The option's value (after `=`, else the next argument); a UsageError when there is none. */
  value(): string;
}

/** The options of a command line, in order; a consumer's `value()` takes the next argument along. */
export function* cliOptions(args: readonly string[]): Generator<CliOption> {
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    const equals = arg.indexOf('=');
    const name = equals === -1 ? arg : arg.slice(0, equals);
    const inline = equals === -1 ? undefined : arg.slice(equals + 1);
    yield {
      arg,
      name,
      value: () => {
        const next = inline ?? args[++i];
        if (next === undefined) throw new UsageError(`${name} needs a value.`);
        return next;
      },
    };
  }
}
