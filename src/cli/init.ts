import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { nameFromFolder, starterFiles } from './starter.js';
import { processIo, type CliIo } from './submissions.js';

const USAGE = `Usage: frontdoor init <folder> [--name "Company name"]

Writes a starter site into <folder> (created; it must be empty or missing): the configuration
_site.yaml, a home, pricing, about, contact, privacy, demo and documentation page. Serve it with
CONTENT_DIR=<folder> npm start, then make it yours (docs/make-it-yours.md).
`;

/** `frontdoor init my-site`: a company's own site folder, serving at once. */
export async function runInit(args: string[], io: CliIo = processIo()): Promise<number> {
  let folder: string | null = null;
  let name: string | null = null;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '--help' || arg === '-h') {
      io.out(USAGE);
      return 0;
    }
    if (arg === '--name' || arg.startsWith('--name=')) {
      const value = arg === '--name' ? args[(i += 1)] : arg.slice('--name='.length);
      if (value === undefined || value.trim() === '') return usageError(io, '--name needs a company name');
      name = value.trim();
    } else if (arg.startsWith('-')) return usageError(io, `unknown option "${arg}"`);
    else if (folder === null) folder = arg;
    else return usageError(io, `one folder only ("${folder}" and "${arg}" given)`);
  }
  if (folder === null) return usageError(io, 'name the folder to create, e.g. frontdoor init my-site');
  const root = resolve(io.cwd, folder);
  if (existsSync(root) && readdirSync(root).length > 0) {
    io.err(
      `frontdoor init: ${folder} already holds files; nothing was written. Choose a new folder name, or empty this one.\n`,
    );
    return 1;
  }
  const files = starterFiles(name ?? nameFromFolder(basename(root)));
  for (const [path, text] of Object.entries(files)) {
    const target = join(root, ...path.split('/'));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text, { flag: 'wx' });
  }
  const shown = relative(io.cwd, root) || '.';
  io.out(
    [
      `Wrote a starter site to ${shown}/ (${Object.keys(files).length} files).`,
      '',
      'Serve it:',
      `  CONTENT_DIR=${shown} npm start`,
      '',
      'Then make it yours: edit _site.yaml (name, brand, menus) and the pages; docs/make-it-yours.md',
      `walks through brand, menus, forms and delivery. Check it with: npm run frontdoor -- check --content ${shown}`,
      '',
    ].join('\n'),
  );
  return 0;
}

function usageError(io: CliIo, message: string): number {
  io.err(`frontdoor init: ${message}\n\n${USAGE}`);
  return 2;
}
