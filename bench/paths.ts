/** Where the benchmark finds the shared data (never copied into the repository). */

import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** `../shared/data` next to the repository, or FRONTDOOR_SHARED_DATA. */
export function sharedDataDir(): string {
  return process.env.FRONTDOOR_SHARED_DATA ?? path.resolve(repoRoot, '..', 'shared', 'data');
}
