import { isAbsolute, join, relative, resolve } from 'node:path';
import { loadConfig } from '../config/index.js';
import { checkFormsFile, loadSite, type ContentProblem } from '../content/index.js';
import { goingLiveWarnings } from '../runtime/index.js';
import { processIo, type CliIo } from './submissions.js';

const USAGE = `Usage: frontdoor check [--content DIR] [--strict]

Loads the content folder (default: CONTENT_DIR, else the bundled sample site) and the forms of its
_site.yaml as start-up does, and prints every problem as file:line: severity: message.

  --content DIR   the folder to check
  --strict        fail on warnings too
  --production    also check the settings for going live: where submissions are delivered,
                  PUBLIC_BASE_URL, a privacy page (implied by NODE_ENV=production)

Exit status: 0 no errors, 1 errors (or warnings with --strict), 2 wrong usage.
`;

/** `frontdoor check`: what an author runs before publishing, and what CI runs on every change. */
export async function runCheck(args: string[], io: CliIo = processIo()): Promise<number> {
  let contentDir: string | null = null;
  let strict = false;
  let production = io.env.NODE_ENV === 'production';
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '--content' || arg.startsWith('--content=')) {
      const value = arg === '--content' ? args[(i += 1)] : arg.slice('--content='.length);
      if (value === undefined || value === '') return usageError(io, '--content needs a folder');
      contentDir = resolve(io.cwd, value);
    } else if (arg === '--strict') strict = true;
    else if (arg === '--production') production = true;
    else if (arg === '--help' || arg === '-h') {
      io.out(USAGE);
      return 0;
    } else return usageError(io, `unknown argument "${arg}"`);
  }
  // CONTENT_MAX_FILE_BYTES applies to a folder given with --content too.
  const config =
    contentDir === null || production || io.env.CONTENT_MAX_FILE_BYTES !== undefined
      ? loadConfig(io.env, io.cwd)
      : null;
  contentDir ??= config!.contentDir;
  const htmlBodySelector = (config ? config.contentHtmlBody : io.env.CONTENT_HTML_BODY?.trim()) || undefined;

  const loaded = await loadSite(contentDir, {
    maxFileBytes: config?.contentMaxFileBytes ?? undefined,
    htmlBodySelector,
  });
  const { site } = loaded;
  // The forms as start-up reads them: a mistake there would stop the server, so it is an error here.
  const formProblems = checkFormsFile(contentDir, site.pages, site.info.language);
  // A _site.yaml that cannot be read at all (too large, not a file) is found by both readers; the
  // forms' line is the one start-up acts on (it stops, where the details would use defaults).
  const stopsStartUp = (problem: ContentProblem) =>
    problem.severity === 'error' &&
    formProblems.some(
      (other) => other.severity === 'error' && other.file === problem.file && other.line === problem.line,
    );
  const problems = [...loaded.problems.filter((problem) => !stopsStartUp(problem)), ...formProblems];
  const shown = displayPath(contentDir, io.cwd);
  for (const problem of problems) io.out(`${formatProblem(shown, problem)}\n`);
  const liveWarnings = production && config ? goingLiveWarnings(config, site) : [];
  for (const warning of liveWarnings) io.out(`before going live: warning: ${warning}\n`);
  const errors = problems.filter((problem) => problem.severity === 'error').length;
  const warnings = problems.length - errors + liveWarnings.length;
  io.out(
    `${shown}: ${site.pages.length} ${site.pages.length === 1 ? 'page' : 'pages'} loaded, ` +
      `${errors} ${errors === 1 ? 'error' : 'errors'}, ${warnings} ${warnings === 1 ? 'warning' : 'warnings'}\n`,
  );
  return errors > 0 || (strict && warnings > 0) ? 1 : 0;
}

/** `content/solutions/cros.md:12: warning: …`, the form editors and CI annotate. */
export function formatProblem(contentDirShown: string, problem: ContentProblem): string {
  const file = problem.file === '.' ? contentDirShown : join(contentDirShown, problem.file);
  const location = problem.line === null ? file : `${file}:${problem.line}`;
  return `${location}: ${problem.severity}: ${problem.message}`;
}

/** Relative to the working directory when inside it, so the paths are short and clickable. */
function displayPath(folder: string, cwd: string): string {
  const fromCwd = relative(cwd, folder);
  if (fromCwd === '') return '.';
  return fromCwd.startsWith('..') || isAbsolute(fromCwd) ? folder : fromCwd;
}

function usageError(io: CliIo, message: string): number {
  io.err(`frontdoor check: ${message}\n\n${USAGE}`);
  return 2;
}
