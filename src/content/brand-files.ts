import { realpathSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { brandFileProblem } from './brand.js';

/**
 * The real path of a brand file named in `_site.yaml`, or null when it is not a regular file whose
 * real place is inside the content folder (a link may not publish a file from elsewhere).
 */
export function resolveBrandFile(root: string, file: string): string | null {
  if (brandFileProblem(file) !== null) return null;
  try {
    const realRoot = realpathSync(root);
    const real = realpathSync(join(root, ...file.split('/')));
    if (!real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep)) return null;
    return statSync(real).isFile() ? real : null;
  } catch {
    return null;
  }
}
