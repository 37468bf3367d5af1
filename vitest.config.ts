import { defineConfig } from 'vitest/config';

/**
 * The core suite's files that listen on sockets (servers, SMTP and webhook peers) or start child
 * processes (`frontdoor serve`, the CLI's entry point, redocly, build scripts). Everything else in
 * the core suite is a unit test: in-process, `app.inject`, temp folders, SQLite files. The unit
 * project's setup file (test/support/unit-guard.ts) fails a unit test that listens or spawns, so a
 * file that needs to is moved here.
 */
const INTEGRATION = [
  'test/admin/admin.test.ts',
  'test/admin/metrics.test.ts',
  'test/cli/**',
  'test/config/build-state.test.ts',
  'test/config/secrets-in-errors.test.ts',
  'test/http/compression.test.ts',
  'test/contract/openapi-submissions.test.ts',
  'test/crawl/crawler.test.ts',
  'test/crawl/serve.test.ts',
  'test/discovery/openapi.test.ts',
  'test/http/ask-fast-path.test.ts',
  'test/http/end-of-turn.test.ts',
  'test/http/error-envelope.test.ts',
  'test/http/health.test.ts',
  'test/http/hostile-content.test.ts',
  'test/runtime/reload.test.ts',
  'test/http/request-log.test.ts',
  'test/runtime/server-process.test.ts',
  'test/runtime/start-up.test.ts',
  'test/insight/cli.test.ts',
  'test/insight/config.test.ts',
  'test/insight/report.test.ts',
  'test/insight/traffic.test.ts',
  'test/limits/limits.test.ts',
  'test/nlweb/ask-http.test.ts',
  'test/nlweb/ask-languages-http.test.ts',
  'test/nlweb/ask-stream.test.ts',
  'test/nlweb/sse.test.ts',
  'test/submissions/cli.test.ts',
  'test/submissions/crash.test.ts',
  'test/submissions/crm.test.ts',
  'test/submissions/delivery-logs.test.ts',
  'test/submissions/email.test.ts',
  'test/submissions/fallbacks.test.ts',
  'test/submissions/faults.test.ts',
  'test/submissions/fuzz.test.ts',
  'test/submissions/hardening.test.ts',
  'test/submissions/hostile-input.test.ts',
  'test/submissions/http-edges.test.ts',
  'test/submissions/http-rules.test.ts',
  'test/submissions/privacy.test.ts',
  'test/submissions/quarantine.test.ts',
];

/** Suites with their own needs, outside the core suite. */
const OWN_SUITES = ['test/services/**', 'test/browser/**', 'test/corpus/**'];

// The core suite is `unit` plus `integration`: it needs nothing but Node and this repository
// (SQLite, in-process SMTP and HTTP peers, child servers), so it passes on a bare clone. `unit` is
// the quick loop (`npm run test:unit`). `corpus` reads the shared data sets in ../shared/data;
// `services` needs PostgreSQL and Redis; `browser` needs Debian's Chromium.
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
          exclude: [...OWN_SUITES, ...INTEGRATION],
          setupFiles: ['test/support/unit-guard.ts'],
        },
      },
      {
        extends: true,
        test: { name: 'integration', include: INTEGRATION },
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
