import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { contentFolder, REPO_ROOT, SITE_YAML } from '../../support/files.js';

// The commands' own tests run them in-process (runCheck, runSubmissions, runInsight with captured
// output); this one goes through the real entry point in a child process, as an author would.
describe('frontdoor check (child process)', () => {
  it('exits 0 and prints a summary for clean content', () => {
    const root = contentFolder({
      '_site.yaml': SITE_YAML,
      'index.md': '# Home\n\nHello.\n',
      'a.md': '# A\n\nText.\n',
    });
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', 'check', '--content', root],
      {
        cwd: REPO_ROOT,
        encoding: 'utf8',
        env: { ...process.env, CONTENT_DIR: '' },
      },
    );
    expect(result.stdout).toBe(`${root}: 2 pages loaded, 0 errors, 0 warnings\n`);
    expect(result.status).toBe(0);
  });
});
