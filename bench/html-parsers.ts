/**
 * The two HTML parsers measured for built-HTML content (docs/content.md, "Built HTML"): parse5 (the
 * WHATWG tree builder, what src/content/html-page.ts uses) and htmlparser2 + domhandler (a fast
 * tolerant parser whose trees differ from a browser's on broken markup), each building the whole
 * document tree of every HTML file of the benchmark sites (scripts/build-html-sites.sh). Rounds
 * alternate between the two so that a busy machine slows both alike; the best round counts.
 *
 * `npx tsx bench/html-parsers.ts`
 */

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseDocument } from 'htmlparser2';
import { parse } from 'parse5';
import { HTML_SITES_DIR } from './html-sites.js';

function htmlFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) htmlFiles(file, out);
    else if (name.endsWith('.html')) out.push(readFileSync(file, 'utf8'));
  }
  return out;
}

const parsers: Record<string, (html: string) => unknown> = {
  parse5: (html) => parse(html),
  'parse5 + parse errors': (html) => parse(html, { onParseError: () => undefined }),
  'htmlparser2 + domhandler': (html) => parseDocument(html),
};

for (const site of ['mkdocs-owasp', 'hugo-tldr']) {
  const files = htmlFiles(path.join(HTML_SITES_DIR, site)).slice(0, 2000);
  const megabytes = files.reduce((sum, f) => sum + Buffer.byteLength(f), 0) / 1e6;
  const best: Record<string, number> = {};
  for (let round = 0; round < 5; round++)
    for (const [name, run] of Object.entries(parsers)) {
      const started = performance.now();
      for (const file of files) run(file);
      const ms = performance.now() - started;
      best[name] = Math.min(best[name] ?? Infinity, ms);
    }
  console.log(`${site}: ${files.length} files, ${megabytes.toFixed(1)} MB (best of 5 rounds)`);
  for (const [name, ms] of Object.entries(best))
    console.log(
      `  ${name.padEnd(26)} ${ms.toFixed(0).padStart(6)} ms  ${(megabytes / (ms / 1000)).toFixed(1)} MB/s`,
    );
}
