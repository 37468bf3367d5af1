// Whether dist/ was built from the sources as they are now, so `npm start` rebuilds only when
// something changed (the build takes a few seconds; this check takes a few milliseconds).
//
// The build writes a stamp (dist/.build-stamp): a SHA-256 over every input of the build — the
// files under src/, the TypeScript config, the bundle and asset-copy scripts and the lockfile (a
// bundler update changes the output) — by relative path and content. Contents, not modification times,
// so a fresh clone, a checkout of the same commit or a touched file does not look changed.
//
//   node scripts/build-state.mjs stamp    write the stamp for the current sources (after a build)
//   node scripts/build-state.mjs ensure   build (npm run build) unless the stamp matches
//   node scripts/build-state.mjs check    exit 0 when current, 1 when a build is needed
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const INPUT_FILES = ['tsconfig.json', 'scripts/bundle.mjs', 'scripts/copy-assets.mjs', 'package-lock.json'];
export const STAMP_PATH = join('dist', '.build-stamp');
/** What `npm start` runs: a stamp beside a dist/ that lost it (partly deleted) is not a build. */
export const ENTRY_PATH = join('dist', 'cli', 'main.js');

function filesUnder(root, dir, out) {
  if (!existsSync(join(root, dir))) return out;
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) filesUnder(root, path, out);
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

/** The hash of every build input of the project at `root`, as hex. */
export function sourceHash(root) {
  const files = [...filesUnder(root, 'src', []), ...INPUT_FILES.filter((f) => existsSync(join(root, f)))]
    .map((path) => relative(root, join(root, path)).split(sep).join('/'))
    // Code-point order, so the hash does not depend on the directory listing's order.
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const hash = createHash('sha256');
  for (const path of files) {
    hash.update(`${path}\0`);
    hash.update(readFileSync(join(root, path)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Why a build is needed (a sentence), or null when dist/ matches the sources. */
export function staleReason(root) {
  const stampFile = join(root, STAMP_PATH);
  if (!existsSync(stampFile)) return 'dist/ has no build stamp (never built, or the last build failed)';
  if (!existsSync(join(root, ENTRY_PATH))) return `${ENTRY_PATH} is missing`;
  if (readFileSync(stampFile, 'utf8').trim() !== sourceHash(root))
    return 'the sources changed since the last build';
  return null;
}

export function writeStamp(root) {
  writeFileSync(join(root, STAMP_PATH), `${sourceHash(root)}\n`);
}

/** Runs `npm run build` in `root` unless dist/ is current; returns whether it built. */
export function ensureBuilt(root) {
  const reason = staleReason(root);
  if (reason === null) return false;
  console.error(`frontdoor: building, because ${reason}`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = process.cwd();
  const command = process.argv[2];
  if (command === 'stamp') writeStamp(root);
  else if (command === 'ensure') ensureBuilt(root);
  else if (command === 'check') {
    const reason = staleReason(root);
    if (reason !== null) console.error(reason);
    process.exit(reason === null ? 0 : 1);
  } else {
    console.error('usage: node scripts/build-state.mjs stamp|ensure|check');
    process.exit(64);
  }
}
