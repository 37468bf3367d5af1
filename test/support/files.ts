import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The shared data sets beside the clone; only the `corpus` suite reads them. */
export const SHARED_DATA = resolve(REPO_ROOT, '..', 'shared', 'data');
export const DOCS_CORPUS = join(SHARED_DATA, 'docs-corpus');
/** The content folder the repository ships (the server's default CONTENT_DIR). */
export const BUNDLED_CONTENT = join(REPO_ROOT, 'content');

/** The folders tempDir made for the running test file, removed when it ends (temp-dirs.ts). */
const made = new Set<string>();

/**
 * A fresh empty folder under the system's temp folder, removed with what it holds when the test
 * file ends (the setup file temp-dirs.ts), so that test runs do not fill the machine's /tmp.
 */
export function tempDir(prefix = 'frontdoor-test-'): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  made.add(folder);
  return folder;
}

/** Removes every folder tempDir made so far (a child process may still be writing: retried). */
export function removeTempDirs(): void {
  for (const folder of made) rmSync(folder, { recursive: true, force: true, maxRetries: 5 });
  made.clear();
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

/** A `forms:` section of `_site.yaml` with one configured form: a quote request, on `form: quote` pages. */
export const QUOTE_FORM_YAML = [
  'forms:',
  '  - id: requestQuote',
  '    title: Request a quote',
  '    fields:',
  '      - { name: email, type: email, label: Work email, required: true }',
  '',
].join('\n');

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
