import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SHARED_DATA = resolve(REPO_ROOT, '..', 'shared', 'data');
export const DOCS_CORPUS = join(SHARED_DATA, 'docs-corpus');
export const BUNDLED_CONTENT = join(REPO_ROOT, 'content');

/** Writes `files` (relative path → text or bytes) into a fresh temporary content folder. */
export function contentFolder(files: Record<string, string | Uint8Array>): string {
  const root = mkdtempSync(join(tmpdir(), 'frontdoor-content-'));
  for (const [path, body] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), body);
  }
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
