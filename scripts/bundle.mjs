// Builds dist/: the server, its three worker modules and the passage analysis the parse workers
// load, each bundled by esbuild into one ES module at the place its source has under src/
// (dist/cli/main.js, dist/content/parse-worker.js, dist/content/read-worker.js,
// dist/runtime/generation-thread.js, dist/nlweb/passage-index.js), with the libraries it loads at
// start-up inside.
//
// Why a bundle: Node 20 loads an ES module graph file by file (resolve, read, compile, link).
// The server's graph (its ~150 modules, plus TypeBox's, Fastify's, Ajv's and yaml's hundreds) took
// ~0.55 s before the first line of our code ran; the bundle loads in ~0.25 s (docs/benchmarks-history.md).
//
// What stays outside, loaded from node_modules when first used: the native SQLite binding, and the
// packages the server loads only for a configuration that needs them (PostgreSQL, Redis, SMTP,
// Prometheus, pino-pretty for readable logs) or on the first page render (markdown-it). Code that finds files beside its module
// (assets, workers, the package root) resolves them as `../<folder>/…` from `import.meta.url`:
// every source module sits one folder below src/, so that path is the same in src/, in a bundle
// and in an unbundled build.
//
// The bundles are pure ASCII. V8 keeps a script's source for as long as its code lives, and
// keeps it in two bytes a character if a single character needs them: one dash in a regular
// expression made the server's 2.6 MB bundle a 5.2 MB string on the heap. esbuild's default
// charset escapes strings, templates and identifiers, but leaves comments and regular-expression
// literals as written; `asciiOnly` escapes what is left there, where `\uXXXX` means the same
// character (a u-flag expression reads an escaped surrogate pair as one code point).
//
// Types are not checked here (`npm run typecheck`, part of `npm test`, does that), as with tsx.
import { build } from 'esbuild';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ENTRY_POINTS = [
  'src/cli/main.ts',
  'src/content/parse-worker.ts',
  'src/content/read-worker.ts',
  'src/runtime/generation-thread.ts',
  // Loaded by the parse workers (and the generation worker) to analyse the passages of their pages.
  'src/nlweb/passage-index.ts',
];

/** Loaded on demand with require or import() from node_modules, never bundled. */
export const LOADED_ON_DEMAND = [
  'better-sqlite3',
  'pg',
  'ioredis',
  'nodemailer',
  'prom-client',
  'markdown-it',
  // Only when logs are printed for a person (LOG_FORMAT=pretty, or a terminal).
  'pino-pretty',
];

/**
 * `code` with every character outside ASCII written as a `\uXXXX` escape (UTF-16 units). Only
 * for esbuild's output, whose remaining such characters stand in comments and regular-expression
 * literals; in a tagged template's raw text an escape would change the text (test/cli/bundle.test.ts
 * checks that none stands there).
 */
export function asciiOnly(code) {
  return code.replace(/[\u0080-\uffff]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** esbuild's output files for `outdir`, in memory, as esbuild wrote them (before asciiOnly). */
export async function bundledFiles(outdir) {
  const { outputFiles } = await build({
    entryPoints: ENTRY_POINTS,
    outbase: 'src',
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: LOADED_ON_DEMAND,
    // Bundled CommonJS packages (Fastify, pino, Ajv) call require for Node's own modules.
    banner: {
      js: "import { createRequire as __frontdoorRequire } from 'node:module';\nconst require = __frontdoorRequire(import.meta.url);",
    },
    sourcemap: true,
    legalComments: 'linked',
    logLevel: 'warning',
    write: false,
  });
  return outputFiles;
}

/** Bundles into `outdir` (emptied first). */
export async function bundle(outdir) {
  const outputFiles = await bundledFiles(outdir);
  rmSync(outdir, { recursive: true, force: true });
  for (const file of outputFiles) {
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(file.path, file.path.endsWith('.js') ? asciiOnly(file.text) : file.contents);
  }
}

// `node scripts/bundle.mjs [outdir]`: dist/ by default (a test builds into a folder of its own).
if (process.argv[1] === fileURLToPath(import.meta.url)) await bundle(process.argv[2] ?? 'dist');
