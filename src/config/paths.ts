import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root: two levels above this module, in src/config, dist/config or the bundle (dist/cli/main.js). */
export const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The sample site that ships with the project and is served when CONTENT_DIR is unset. */
export const BUNDLED_CONTENT_DIR = resolve(PACKAGE_ROOT, 'content');
