/**
 * Hostile content files against the real server (`frontdoor serve` in a child process): a page that
 * would take quadratic work, a file over the size limit, and symbolic links that leave the content
 * folder (issue 37, findings 2 and 3).
 */
import { renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addFile, contentFolder, tempDir } from '../../support/files.js';
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
