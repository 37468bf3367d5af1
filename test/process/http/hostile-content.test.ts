/**
 * Hostile content files against the real server (`frontdoor serve` in a child process): a page that
 * would take quadratic work, a file over the size limit, and symbolic links that leave the content
 * folder (issue 37, findings 2 and 3).
 */
import { renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addFile, contentFolder, tempDir } from '../../support/files.js';
import { waitFor } from '../../support/net.js';
import { spawnServe, type ServeProcess } from '../../support/process.js';

const running: ServeProcess[] = [];
afterEach(() => {
  for (const serve of running.splice(0)) serve.child.kill('SIGKILL');
});

function serve(env: Record<string, string>): ServeProcess {
  const process = spawnServe(env);
  running.push(process);
  return process;
}

interface LogLine {
  msg: string;
  file?: string;
  ms?: number;
}
const logLines = (serve: ServeProcess): LogLine[] =>
  serve
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);

describe('a hostile content file', () => {
  it('is parsed off the serving thread: /healthz answers while a reload builds 20,000 repeated headings and 100,000 front-matter keys', async () => {
    const contentDir = contentFolder({ 'index.md': '# Home\n\nA small site.\n' });
    const server = serve({ CONTENT_DIR: contentDir, CONTENT_WATCH: 'on' });
    const url = await server.url;

    let page = '---\ntitle: Same\n';
    for (let i = 0; i < 100_000; i++) page += `k${i}: ${i}\n`;
    page += '---\n\n';
    for (let i = 0; i < 20_000; i++) page += `## Same heading\n\nParagraph ${i}.\n\n`;
    // Written whole, then renamed in: the watcher sees one finished file.
    writeFileSync(join(contentDir, '_same.tmp'), page);
    renameSync(join(contentDir, '_same.tmp'), join(contentDir, 'same.md'));

    const latencies: number[] = [];
    const reloaded = () => logLines(server).find((line) => line.msg === 'content reloaded');
    while (!reloaded()) {
      const started = performance.now();
      const health = await fetch(`${url}/healthz`);
      expect(health.status).toBe(200);
      await health.arrayBuffer();
      latencies.push(performance.now() - started);
      if (server.output().includes('content reload refused')) throw new Error(server.output());
    }
    const reloadMs = reloaded()!.ms!;
    // Built on the serving thread, /healthz waited as long as the reload took (37 s for 20,000
    // headings before the anchors were allocated in linear time); off it, a request waits for
    // nothing but its turn.
    expect(latencies.length).toBeGreaterThan(1);
    expect(Math.max(...latencies)).toBeLessThan(reloadMs / 2);

    const html = await (await fetch(`${url}/same`)).text();
    expect(html).toContain('id="same-heading"');
    expect(html).toContain('id="same-heading-20000"');
    expect(html).not.toContain('id="same-heading-20001"');
  }, 120_000);

  it('over CONTENT_MAX_FILE_BYTES is skipped and reported with its file and the limit', async () => {
    const contentDir = contentFolder({
      'index.md': '# Home\n\nA small site.\n',
      'huge.md': `# Huge\n\n${'All work and no play. '.repeat(10_000)}\n`,
    });
    const server = serve({ CONTENT_DIR: contentDir, CONTENT_MAX_FILE_BYTES: '100000' });
    const url = await server.url;
    const problem = logLines(server).find((line) => line.file === 'huge.md');
    expect(problem?.msg).toBe(
      'content: the file is 220009 bytes, over the limit of 100000 bytes: split it into smaller pages, or raise CONTENT_MAX_FILE_BYTES; the page is skipped',
    );
    expect((await fetch(`${url}/huge`)).status).toBe(404);
    expect((await fetch(`${url}/`)).status).toBe(200);
  }, 60_000);

  it('that is a symbolic link out of CONTENT_DIR is refused and reported; a link inside it is served', async () => {
    const outside = tempDir('fd-outside-');
    addFile(outside, 'prod-config.yaml', '# Production\n\nsmtp_password: hunter2-leaked-secret\n');
    const contentDir = contentFolder({
      'index.md': '# Home\n\nA small site.\n',
      'guides/real.md': '# Real guide\n\nThe guide about kettles.\n',
    });
    symlinkSync(join(outside, 'prod-config.yaml'), join(contentDir, 'leak-config.md'));
    symlinkSync(join(contentDir, 'guides', 'real.md'), join(contentDir, 'inside.md'));
    const server = serve({ CONTENT_DIR: contentDir });
    const url = await server.url;

    const problem = logLines(server).find((line) => line.file === 'leak-config.md');
    expect(problem?.msg).toBe(
      'content: it is a symbolic link to a file outside the content folder, which is not published: copy the file into CONTENT_DIR instead; the page is skipped',
    );
    for (const path of ['/leak-config', '/leak-config.md']) {
      const response = await fetch(`${url}${path}`);
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain('hunter2');
    }
    for (const path of ['/llms-full.txt', '/ask?query=production+smtp+password', '/sitemap.xml'])
      expect(await (await fetch(`${url}${path}`)).text()).not.toContain('hunter2');
    const inside = await fetch(`${url}/inside`);
    expect(inside.status).toBe(200);
    expect(await inside.text()).toContain('The guide about kettles.');
  }, 60_000);
});

describe('a hostile site configuration', () => {
  it('nested 100,000 levels deep, in _site.yaml or front matter, crashes neither start-up nor a reload', async () => {
    const deepSite = `name: Deep\nsameAs: ${'['.repeat(100_000)}\n`;
    const contentDir = contentFolder({
      'index.md': '# Home\n\nA small site.\n',
      '_site.yaml': deepSite,
      // Before the bound, `frontdoor check` on this page aborted (yaml's recovery from its stack
      // overflow ran V8's regular expression compiler out of memory, exit 134) and the server spent
      // 2.2 s of its start on it; test/content/check-cli.test.ts keeps the check's case.
      'deep.md': `---\ntitle: Still here\nextra: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n---\n\nThe page survives.\n`,
      'deeper.md': `---\ntitle: Also here\nextra: ${'{a: '.repeat(100_000)}1\n---\n\nThis one too.\n`,
    });
    const server = serve({ CONTENT_DIR: contentDir, CONTENT_WATCH: 'on' });
    const url = await server.url;
    const nested = (file: string) =>
      logLines(server).filter(
        (line) => line.file === file && line.msg.includes('nested more than 64 levels deep'),
      );
    expect(nested('_site.yaml')).toHaveLength(1);
    expect(nested('deep.md')).toHaveLength(1);
    expect(nested('deeper.md')).toHaveLength(1);
    expect(await (await fetch(`${url}/deeper`)).text()).toContain('This one too.');
    const page = await fetch(`${url}/deep`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('The page survives.');

    // A reload of ever deeper block nesting and compact lists: the watcher's build, not only the first.
    const blockDeep = Array.from({ length: 600 }, (_, i) => `${' '.repeat(i)}k:`).join('\n');
    writeFileSync(join(contentDir, '_block.tmp'), `---\ntitle: Block\n${blockDeep} 1\n---\n\nBlock body.\n`);
    renameSync(join(contentDir, '_block.tmp'), join(contentDir, 'block.md'));
    writeFileSync(join(contentDir, '_site.tmp'), `name: Deeper\nfooter:\n${'- '.repeat(50_000)}x\n`);
    renameSync(join(contentDir, '_site.tmp'), join(contentDir, '_site.yaml'));
    // A reload that finds content errors is refused whole: the site being served stays.
    await waitFor(
      'the reload with the deeper files',
      () => logLines(server).find((line) => line.msg.startsWith('content reload refused')),
      60_000,
    );
    // Refused for block.md's error, the one the serving site did not have; _site.yaml's (the same
    // file and message as at start-up) is known and not listed again.
    expect(nested('block.md')).toHaveLength(1);
    expect(nested('_site.yaml')).toHaveLength(1);
    expect(logLines(server).find((line) => line.msg.startsWith('content reload refused'))!.msg).toMatch(
      /^content reload refused: 1 content error\(s\)/,
    );
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${url}/deep`)).text()).toContain('The page survives.');
    expect(server.child.exitCode).toBeNull();
  }, 120_000);

  it('over 256 KiB stops start-up with the file and the limit, as a configuration mistake (it may declare the forms)', async () => {
    const contentDir = contentFolder({
      'index.md': '# Home\n\nA small site.\n',
      '_site.yaml': `name: Big\n# ${'x'.repeat(300_000)}\n`,
    });
    const server = serve({ CONTENT_DIR: contentDir });
    expect(await server.exit).toBe(78);
    expect(server.stderr()).toContain(
      '_site.yaml: the file is 300013 bytes, over the limit of 262144 bytes: it needs far less',
    );
    expect(server.stderr()).not.toMatch(/\n\s+at /);
    const fatal = logLines(server).find((line) => line.msg === 'invalid configuration; not starting');
    expect(fatal).toBeDefined();
  }, 60_000);
});
