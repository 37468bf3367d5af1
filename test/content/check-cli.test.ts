import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCheck } from '../../src/cli/check.js';
import { runCommand } from '../support/cli.js';
import { contentFolder, REPO_ROOT, SITE_YAML } from '../support/files.js';

/** `frontdoor check …` in this process, from the repository root, with CONTENT_DIR unset. */
async function check(...args: string[]) {
  const { code, out, err } = await runCommand(runCheck, args, { ...process.env, CONTENT_DIR: '' }, REPO_ROOT);
  return { code, stdout: out, stderr: err };
}

describe('frontdoor check', () => {
  it('prints file:line: severity: message for each problem and exits 1 on errors', async () => {
    const root = contentFolder({
      '_site.yaml': SITE_YAML,
      'index.md': '# Home\n\nHello.\n',
      'bad.md': '---\ntitle: Bad\ntags: [a\n---\ntext\n',
      'typo.md': '---\ntitle: Typo\nnav: first\n---\ntext\n',
    });
    const result = await check('--content', root);
    expect(result.stdout.split('\n')).toEqual([
      `${join(root, 'bad.md')}:3: error: front matter is not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]; \`tags\` is ignored`,
      `${join(root, 'typo.md')}:3: warning: \`nav\` must be a number; it is ignored`,
      `${root}: 3 pages loaded, 1 error, 1 warning`,
      '',
    ]);
    expect(result.code).toBe(1);
  });

  it('reports a _site.yaml over its size limit once, as the error that stops start-up', async () => {
    const root = contentFolder({
      '_site.yaml': `name: Big\ndescription: ${'x'.repeat(270_000)}\n`,
      'index.md': '# Home\n\nHello.\n',
    });
    const result = await check('--content', root);
    const lines = result.stdout.split('\n').filter((line) => line.includes('_site.yaml'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('over the limit of 262144 bytes');
    expect(lines[0]).toContain('(the server will not start)');
    expect(result.stdout).toContain(`${root}: 1 page loaded, 1 error, 0 warnings`);
    expect(result.code).toBe(1);
  });

  it('reports front matter nested 100,000 levels deep at its line (it aborted the process: V8 out of memory, exit 134)', async () => {
    const root = contentFolder({
      '_site.yaml': SITE_YAML,
      'index.md': '# Home\n\nHello.\n',
      'deep.md': `---\ntitle: Deep\nextra: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n---\ntext\n`,
    });
    const result = await check('--content', root);
    expect(result.stdout.split('\n')).toEqual([
      `${join(root, 'deep.md')}:3: error: front matter is not valid YAML: nested more than 64 levels deep (lists and mappings inside each other); no file needs that many, so it is not read; \`extra\` is ignored`,
      `${root}: 2 pages loaded, 1 error, 0 warnings`,
      '',
    ]);
    expect(result.code).toBe(1);
  });

  it('applies CONTENT_MAX_FILE_BYTES to the folder it checks, naming the file and the limit', async () => {
    const root = contentFolder({
      '_site.yaml': SITE_YAML,
      'index.md': '# Home\n\nHello.\n',
      'long.md': `# Long\n\n${'word '.repeat(1000)}\n`,
    });
    const { code, out } = await runCommand(
      runCheck,
      ['--content', root],
      { ...process.env, CONTENT_DIR: '', CONTENT_MAX_FILE_BYTES: '2048' },
      REPO_ROOT,
    );
    expect(out.split('\n')).toEqual([
      `${join(root, 'long.md')}: error: the file is 5009 bytes, over the limit of 2048 bytes: split it into smaller pages, or raise CONTENT_MAX_FILE_BYTES; the page is skipped`,
      `${root}: 1 page loaded, 1 error, 0 warnings`,
      '',
    ]);
    expect(code).toBe(1);
    // Under the default limit (2 MiB) the same folder loads whole.
    expect((await check('--content', root)).code).toBe(0);
  });

  it('passes warnings, unless --strict', async () => {
    const root = contentFolder({ 'index.md': '# Home\n\nHello.\n' });
    const relaxed = await check('--content', root);
    expect(relaxed.stdout).toMatch(/^.*_site\.yaml: warning: there is no _site\.yaml/);
    expect(relaxed.code).toBe(0);
    expect((await check('--strict', `--content=${root}`)).code).toBe(1);
  });

  it('prints paths relative to the working directory when the folder is inside it', async () => {
    const result = await check('--content', 'content');
    expect(result.stdout).toMatch(/^content: \d+ pages loaded, 0 errors, 0 warnings\n$/);
    expect(result.code).toBe(0);
  });

  it('reads the forms of _site.yaml as start-up does: a mistake is an error with its line and fix', async () => {
    const forms = [
      'forms:', //                    10 (SITE_YAML is nine lines)
      '  - id: requestQuote', //      11
      '    title: Request a quote', // 12
      '    fields:', //               13
      '      - name: email', //       14
      '        type: date', //        15
      '        label: Work email', // 16
      '',
    ].join('\n');
    const root = contentFolder({
      '_site.yaml': SITE_YAML + forms,
      'index.md': '# Home\n\nHello.\n',
    });
    const result = await check('--content', root);
    expect(result.stdout.split('\n')).toEqual([
      `${join(root, '_site.yaml')}:15: error: unknown field type "date" (the server will not start). Fix: use one of: text, email, textarea, select, checkbox, tel, url`,
      `${root}: 1 page loaded, 1 error, 0 warnings`,
      '',
    ]);
    expect(result.code).toBe(1);
  });

  it('warns of a page whose front matter names a form the site does not have, as start-up does', async () => {
    const root = contentFolder({
      '_site.yaml': SITE_YAML,
      'index.md': '# Home\n\nHello.\n',
      'contact.md': '---\ntitle: Contact\nform: quote\n---\ntext\n',
    });
    const result = await check('--content', root);
    expect(result.stdout.split('\n')).toEqual([
      `${join(root, 'contact.md')}: warning: front matter \`form: quote\` names no form of this site, so the page shows none: use one of demo, suggestion`,
      `${root}: 2 pages loaded, 0 errors, 1 warning`,
      '',
    ]);
    expect(result.code).toBe(0);
  });

  it('warns of a configured form on pages in a language it has no words in, once per language', async () => {
    const forms = [
      'language: en',
      'forms:',
      '  - id: requestQuote',
      '    title: Request a quote',
      '    fields:',
      '      - { name: email, type: email, label: Work email, required: true }',
      '    translations:',
      '      de: { title: Angebot anfordern }',
      '',
    ].join('\n');
    const root = contentFolder({
      '_site.yaml': SITE_YAML + forms,
      'index.md': '# Home\n\nHello.\n',
      'quote.md': '---\nform: quote\n---\n# Quote\n\nAsk.\n',
      'de/angebot.md': '---\nform: quote\n---\n# Angebot\n\nFragen.\n',
      'de-at/angebot.md': '---\nform: quote\n---\n# Angebot\n\nFragen.\n',
      'fr/devis.md': '---\nform: quote\n---\n# Devis\n\nDemandez.\n',
      'fr/devis-2.md': '---\nform: quote\n---\n# Devis 2\n\nDemandez.\n',
    });
    const result = await check('--content', root);
    expect(result.stdout.split('\n')).toEqual([
      `${join(root, 'fr', 'devis.md')}: warning: the form requestQuote is on 2 pages in fr but has no words in it, so it shows its own there: give them under \`translations:\` → \`fr:\` of the form in _site.yaml (docs/forms.md)`,
      `${root}: 6 pages loaded, 0 errors, 1 warning`,
      '',
    ]);
    expect(result.code).toBe(0);
  });

  it('passes the Northbeam fixture, whose contact page carries its own configured form', async () => {
    const result = await check('--strict', '--content', join('test', 'fixtures', 'northbeam'));
    expect(result.stdout).toMatch(/^test\/fixtures\/northbeam: \d+ pages loaded, 0 errors, 0 warnings\n$/);
    expect(result.code).toBe(0);
  });

  it('reports a missing folder as an error', async () => {
    const missing = join(contentFolder({}), 'nope');
    const result = await check('--content', missing);
    expect(result.stdout).toContain(`${missing}: error: the content folder ${missing} does not exist`);
    expect(result.code).toBe(1);
  });

  it('refuses unknown arguments with exit status 2', async () => {
    const result = await check('--bogus');
    expect(result.stderr).toContain('unknown argument "--bogus"');
    expect(result.stderr).toContain('Usage: frontdoor check');
    expect(result.code).toBe(2);
    expect((await check('--content')).code).toBe(2);
  });
});
