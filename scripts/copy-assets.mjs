// Copies the non-TypeScript files that live beside the sources (site assets, skill texts)
// into dist/, so the built server finds them at the same relative place as in src/.
import { cpSync, existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const SOURCE = 'src';
// `node scripts/copy-assets.mjs [outdir]`: dist/ by default.
const TARGET = process.argv[2] ?? 'dist';
const COPIED = new Set(['.css', '.js', '.mjs', '.svg', '.ico', '.png', '.md', '.woff2', '.txt']);

function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      walk(path);
      continue;
    }
    const dot = name.lastIndexOf('.');
    const ext = dot >= 0 ? name.slice(dot) : '';
    // .js under src/ is hand-written browser code; .ts compiles to .js itself.
    if (COPIED.has(ext) && !name.endsWith('.d.ts')) {
      cpSync(path, join(TARGET, relative(SOURCE, path)));
    }
  }
}

if (existsSync(SOURCE)) walk(SOURCE);
