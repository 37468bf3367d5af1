import { defineConfig } from 'vitest/config';

// Four suites: `core` needs nothing but Node and this repository (SQLite, in-process SMTP and
// HTTP peers, child servers), so it passes on a bare clone; `corpus` reads the shared data sets in
// ../shared/data; `services` needs the PostgreSQL server; `browser` needs Debian's Chromium.
export default defineConfig({
  test: {
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'core',
          include: ['test/**/*.test.ts'],
          exclude: ['test/services/**', 'test/browser/**', 'test/corpus/**'],
        },
      },
      { extends: true, test: { name: 'corpus', include: ['test/corpus/**/*.test.ts'] } },
      { extends: true, test: { name: 'services', include: ['test/services/**/*.test.ts'] } },
      {
        extends: true,
        test: { name: 'browser', include: ['test/browser/**/*.test.ts'], fileParallelism: false },
      },
    ],
  },
});
