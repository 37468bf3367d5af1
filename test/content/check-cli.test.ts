import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentFolder, REPO_ROOT, SITE_YAML } from '../support/files.js';

function check(...args: string[]) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'check', ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { ...process.env, CONTENT_DIR: '' },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('frontdoor check', () => {
  it('exits 0 and prints a summary for clean content', () => {
    const root = contentFolder({ '_site.yaml': SITE_YAML, 'index.md': '# Home\n\nHello.\n', 'a.md': '# A\n\nText.\n' });
    const result = check('--content', root);
    expect(result.stdout).toBe(`${root}: 2 pages loaded, 0 errors, 0 warnings\n`);
    expect(result.code).toBe(0);
  });

  it('prints file:line: severity: message for each problem and exits 1 on errors', () => {
    const root = contentFolder({
      '_site.yaml': SITE_YAML,
      'index.md': '# Home\n\nHello.\n',
      'bad.md': '---\ntitle: Bad\ntags: [a\n---\ntext\n',
      'typo.md': '---\ntitle: Typo\nnav: first\n---\ntext\n',
    });
    const result = check('--content', root);
    expect(result.stdout.split('\n')).toEqual([
      `${join(root, 'bad.md')}:3: error: front matter is not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]; \`tags\` is ignored`,
      `${join(root, 'typo.md')}:3: warning: \`nav\` must be a number; it is ignored`,
      `${root}: 3 pages loaded, 1 error, 1 warning`,
      '',
    ]);
    expect(result.code).toBe(1);
  });

  it('passes warnings, unless --strict', () => {
    const root = contentFolder({ 'index.md': '# Home\n\nHello.\n' });
    const relaxed = check('--content', root);
    expect(relaxed.stdout).toMatch(/^.*_site\.yaml: warning: there is no _site\.yaml/);
    expect(relaxed.code).toBe(0);
    expect(check('--strict', `--content=${root}`).code).toBe(1);
  });

  it('prints paths relative to the working directory when the folder is inside it', () => {
    const result = check('--content', 'content');
    expect(result.stdout).toMatch(/^content: \d+ pages loaded, 0 errors, 0 warnings\n$/);
    expect(result.code).toBe(0);
  });

  it('reports a missing folder as an error', () => {
    const missing = join(contentFolder({}), 'nope');
    const result = check('--content', missing);
    expect(result.stdout).toContain(`${missing}: error: the content folder ${missing} does not exist`);
    expect(result.code).toBe(1);
  });

  it('refuses unknown arguments with exit status 2', () => {
    const result = check('--bogus');
    expect(result.stderr).toContain('unknown argument "--bogus"');
    expect(result.stderr).toContain('Usage: frontdoor check');
    expect(result.code).toBe(2);
    expect(check('--content').code).toBe(2);
  });
});
