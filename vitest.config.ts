import { defineConfig } from 'vitest/config';

/**
 * The suites are folders under test/:
 * - `unit`: every test/<room>/ folder: in-process (`app.inject`, temp folders, SQLite files). Its
 *   setup file (test/support/unit-guard.ts) fails a test that listens or spawns, naming the folder
 *   it belongs in. `npm run test:unit` is the quick loop.
 * - `integration` (test/integration/<room>/): sockets (servers, SMTP and webhook peers) and child
 *   processes (`frontdoor serve`, the CLI's entry point, redocly).
 * - `process` (test/process/<room>/): the server as a process over real time: start-up from a cold
 *   and a warm DATA_DIR, content reloads and their worker threads, crashes mid-delivery, the bundle
 *   and its build stamp, a crawled site served. The slowest checks, run by CI and `npm run
 *   test:process`, outside the README's test command so that it stays quick.
 * - `corpus` reads the shared data sets in ../shared/data; `services` needs PostgreSQL and Redis;
 *   `browser` needs Debian's Chromium.
 * `unit` and `integration` are the core suite (`npm test`): they need nothing but Node and this
 * repository, so they pass on a bare clone.
 */
const SUITE_FOLDERS = ['integration', 'process', 'corpus', 'services', 'browser'];
const suite = (name: string) => `test/${name}/**/*.test.ts`;

export default defineConfig({
  test: {
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Every project removes the folders its test files made with tempDir (test/support/temp-dirs.ts).
    setupFiles: ['test/support/temp-dirs.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: SUITE_FOLDERS.map((name) => `test/${name}/**`),
          // One module graph per worker, not per file: importing the application again for each
          // of ~80 files took 144 s of the unit suite's 145 s wall time on 2 cores; shared, 39 s.
          // Unit tests keep no state in modules between files (each makes its own app, folders and
          // clocks), which this setting makes a rule: a file that does fails another.
          isolate: false,
          setupFiles: ['test/support/unit-guard.ts'],
        },
      },
      {
        extends: true,
        // Shared module graph per worker, as for unit (49 s instead of ~3 minutes on 2 cores).
        test: { name: 'integration', include: [suite('integration')], isolate: false },
      },
      { extends: true, test: { name: 'process', include: [suite('process')] } },
      { extends: true, test: { name: 'corpus', include: [suite('corpus')] } },
      { extends: true, test: { name: 'services', include: [suite('services')] } },
      {
        extends: true,
        test: { name: 'browser', include: [suite('browser')], fileParallelism: false },
      },
    ],
  },
});
