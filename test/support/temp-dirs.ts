import { afterAll } from 'vitest';
import { removeTempDirs } from './files.js';

/*
 * Setup file of every project: the folders a test file made with tempDir (content folders, each
 * child server's DATA_DIR, log files) are removed when that file's tests are over. Without it each
 * `npm test` left about seventy folders in /tmp.
 */
afterAll(() => {
  removeTempDirs();
});
