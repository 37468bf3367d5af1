import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The shared data sets beside the clone; only the `corpus` suite reads them. */
export const SHARED_DATA = resolve(REPO_ROOT, '..', 'shared', 'data');
export const DOCS_CORPUS = join(SHARED_DATA, 'docs-corpus');
/** The content folder the repository ships (the server's default CONTENT_DIR). */
export const BUNDLED_CONTENT = join(REPO_ROOT, 'content');

/** A fresh empty folder under the system's temp folder. */
export function tempDir(prefix = 'frontdoor-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Writes one file below `root`, creating its folders. */
export function addFile(root: string, path: string, body: string | Uint8Array): void {
  const file = join(root, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, body);
}

/**
 * Writes `files` (relative path → text or bytes) into a content folder and returns its path: a
 * fresh temporary one unless `root` is given.
 */
export function contentFolder(
  files: Record<string, string | Uint8Array>,
  root = tempDir('frontdoor-content-'),
): string {
  for (const [path, body] of Object.entries(files)) addFile(root, path, body);
  return root;
}

export const SITE_YAML = [
  'name: Example',
  'legalName: Example Ltd',
  'tagline: Examples for everyone.',
  'description: Example makes examples.',
  'contactEmail: hello@example.com',
  'salesEmail: sales@example.com',
  'address: 1 Example Street, Exampleton',
  'foundingYear: 2019',
  'sameAs: [https://www.linkedin.com/company/example]',
  '',
].join('\n');
