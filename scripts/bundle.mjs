// Builds dist/: the server, its three worker modules and the passage analysis the parse workers
// load, each bundled by esbuild into one ES module at the place its source has under src/
// (dist/cli/main.js, dist/content/parse-worker.js, dist/content/read-worker.js,
// dist/http/generation-worker.js, dist/nlweb/passage-index.js), with the libraries it loads at
// start-up inside.
//
// Why a bundle: Node 20 loads an ES module graph file by file (resolve, read, compile, link).
// The server's graph (its ~150 modules, plus TypeBox's, Fastify's, Ajv's and yaml's hundreds) took
// ~0.55 s before the first line of our code ran; the bundle loads in ~0.25 s (docs/benchmarks.md).
//
// What stays outside, loaded from node_modules when first used: the native SQLite binding, and the
// packages the server loads only for a configuration that needs them (PostgreSQL, Redis, SMTP,
// Prometheus) or on the first page render (markdown-it). Code that finds files beside its module
// (assets, workers, the package root) resolves them as `../<folder>/…` from `import.meta.url`:
// every source module sits one folder below src/, so that path is the same in src/, in a bundle
// and in an unbundled build.
//
// Types are not checked here (`npm run typecheck`, part of `npm test`, does that), as with tsx.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ENTRY_POINTS = [
  'src/cli/main.ts',
  'src/content/parse-worker.ts',
  'src/content/read-worker.ts',
  'src/http/generation-worker.ts',
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
];

/** Bundles into `outdir` (emptied first). */
export async function bundle(outdir) {
  rmSync(outdir, { recursive: true, force: true });
  await build({
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
  });
}

// `node scripts/bundle.mjs [outdir]`: dist/ by default (a test builds into a folder of its own).
if (process.argv[1] === fileURLToPath(import.meta.url)) await bundle(process.argv[2] ?? 'dist');
