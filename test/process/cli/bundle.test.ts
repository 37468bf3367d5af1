import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ts from 'typescript';
import { runInNewContext } from 'node:vm';
import { asciiOnly, bundledFiles, ENTRY_POINTS, LOADED_ON_DEMAND } from '../../../scripts/bundle.mjs';
import { MIN_FILES_FOR_WORKERS } from '../../../src/content/index.js';
import { contentFolder, REPO_ROOT, SITE_YAML, tempDir } from '../../support/files.js';
import { LIMITS_OFF } from '../../support/limits.js';
import { waitFor } from '../../support/net.js';

/**
 * What `npm run build` makes (scripts/bundle.mjs: the server and its three workers, each one ES
 * module) runs as the sources do. The other suites run the sources through tsx; this one builds a
 * bundle into a folder of its own inside the repository (so node_modules is found as from dist/)
 * and serves a site large enough for the parse workers, then reloads it through the generation
 * worker.
 */

let buildRoot = '';
let dist = '';
let child: ChildProcess | null = null;
let out = '';

const pages = MIN_FILES_FOR_WORKERS + 20;

beforeAll(() => {
  buildRoot = mkdtempSync(join(REPO_ROOT, '.bundle-test-'));
  dist = join(buildRoot, 'dist');
  for (const script of ['scripts/bundle.mjs', 'scripts/copy-assets.mjs']) {
    const built = spawnSync(process.execPath, [script, dist], { cwd: REPO_ROOT, encoding: 'utf8' });
    expect(built.status, built.stderr).toBe(0);
  }
}, 60_000);

afterAll(() => {
  child?.kill('SIGKILL');
  rmSync(buildRoot, { recursive: true, force: true });
});

describe('the built server (scripts/bundle.mjs)', () => {
  it('imports the packages loaded on demand only where they are used, never at start-up', () => {
    for (const source of ENTRY_POINTS) {
      const entry = source.replace(/^src\//, '').replace(/\.ts$/, '.js');
      const code = readFileSync(join(dist, entry), 'utf8');
      // An ES import of an external package is hoisted and loaded with the bundle, wherever it stands.
      for (const name of LOADED_ON_DEMAND)
        expect(code, `${entry} imports ${name}`).not.toMatch(
          new RegExp(`^import [^;]*from ["']${name}["']`, 'm'),
        );
    }
  });

  it('writes each module in ASCII alone, so V8 keeps its source in one byte a character', () => {
    for (const source of ENTRY_POINTS) {
      const entry = source.replace(/^src\//, '').replace(/\.ts$/, '.js');
      const code = readFileSync(join(dist, entry), 'utf8');
      expect(/[\u0080-\uffff]/.exec(code)?.[0], entry).toBeUndefined();
    }
  });

  it('escapes only characters in comments and regular-expression literals, where the escape means the same', async () => {
    const outputs = await bundledFiles(join(buildRoot, 'unwritten'));
    const escaped: string[] = [];
    for (const file of outputs.filter((output) => output.path.endsWith('.js'))) {
      const positions = [...file.text.matchAll(/[\u0080-\uffff]/g)].map((match) => match.index);
      if (positions.length === 0) continue;
      const tree = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
      for (const at of positions) {
        // The innermost node whose text (leading comments excluded) holds the character.
        let node: ts.Node = tree;
        for (let inner: ts.Node | undefined = tree; inner;) {
          node = inner;
          inner = ts.forEachChild(node, (child) =>
            child.getStart(tree) <= at && at < child.end ? child : undefined,
          );
        }
        const line = file.text.slice(file.text.lastIndexOf('\n', at) + 1, file.text.indexOf('\n', at));
        // A node with children holds it between them: in a comment (tokens and keywords are ASCII).
        const inComment = ts.forEachChild(node, () => true) === true;
        expect(
          inComment || node.kind === ts.SyntaxKind.RegularExpressionLiteral,
          `${file.path}: ${ts.SyntaxKind[node.kind]} in ${line}`,
        ).toBe(true);
        escaped.push(ts.SyntaxKind[node.kind]);
      }
    }
    // The server's own code has both kinds today (a dash in a regular expression, arrows in comments).
    expect(escaped).toContain('RegularExpressionLiteral');
  }, 60_000);

  it('escapes a regular expression to one that matches the same text, astral characters included', () => {
    const source = String.raw`[/[\s–—]+$/u.test('a –'), /^😀+$/u.test('😀😀'), /[😀]/.test('\ud83d'), 'é'.length]`;
    const written = asciiOnly(source);
    expect(written).not.toMatch(/[\u0080-\uffff]/);
    expect(runInNewContext(written)).toEqual(runInNewContext(source));
    expect(runInNewContext(written)).toEqual([true, true, true, 1]);
  });

  it('keeps the content-reading worker to the reading code (it starts beside a warm start)', () => {
    const reader = readFileSync(join(dist, 'content', 'read-worker.js'), 'utf8');
    expect(reader).toMatch(/function readContent\(/);
    // esbuild marks each bundled file with its path: no YAML parser, no page building.
    expect(reader).not.toMatch(/\/\/ node_modules\/yaml\//);
    expect(reader).not.toMatch(/\/\/ src\/content\/(page|parallel|markdown|front-matter)\.ts/);
    expect(readFileSync(join(dist, 'content', 'parse-worker.js'), 'utf8')).toMatch(
      /\/\/ node_modules\/yaml\//,
    );
  });

  it('serves pages, assets, answers and forms, parses in workers and reloads through the generation worker', async () => {
    const files: Record<string, string> = { '_site.yaml': SITE_YAML, 'index.md': '# Home\n\nWelcome.\n' };
    for (let i = 0; i < pages; i++)
      files[`docs/page-${String(i).padStart(3, '0')}.md`] = `# Page ${i}\n\nAbout topic number ${i}.\n`;
    const content = contentFolder(files);
    child = spawn(process.execPath, [join(dist, 'cli', 'main.js'), 'serve'], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        ...LIMITS_OFF,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        CONTENT_DIR: content,
        CONTENT_WATCH: 'off',
        DATA_DIR: tempDir('fd-bundle-'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const base = await waitFor(
      'the listening line',
      () => /frontdoor listening on (http:\/\/[^\s"]+)/.exec(out)?.[1],
      30_000,
    );
    const started = JSON.parse(out.split('\n').find((line) => line.includes('frontdoor listening'))!) as {
      pages: number;
      content: { source: string };
    };
    expect(started).toMatchObject({ pages: pages + 1, content: { source: 'built' } });

    const home = await fetch(`${base}/`);
    expect(home.status).toBe(200);
    const html = await home.text();
    expect(html).toContain('Welcome.');
    const css = /href="(\/assets\/site\.css[^"]*)"/.exec(html)![1]!;
    expect((await fetch(`${base}${css}`)).status).toBe(200);

    // The page that says it ranks first: its URL is the first result's.
    const firstUrl = async (query: string) =>
      /"url":"([^"]+)"/.exec(
        await (await fetch(`${base}/ask?query=${encodeURIComponent(query)}`)).text(),
      )?.[1];
    expect(await firstUrl('topic number 417')).toMatch(/\/docs\/page-417$/);

    const lead = await fetch(`${base}/api/document-suggestions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        companyType: 'cro',
        persona: 'study-start-up',
        suggestion: 'A site activation checklist',
      }),
    });
    expect(lead.status, await lead.clone().text()).toBe(201);

    // Once the start-up's snapshot and analysis are written, a reload analyses the changed page alone.
    await waitFor('the snapshot', () => out.includes('content snapshot saved'), 30_000);
    writeFileSync(join(content, 'docs/page-005.md'), '# Page 5\n\nNow about quasar calibration.\n');
    child.kill('SIGHUP');
    await waitFor('the reload', () => out.includes('content reloaded'), 30_000);
    const reloaded = JSON.parse(out.split('\n').find((line) => line.includes('content reloaded'))!) as {
      filesParsed: number;
      passagesAnalysed: number;
    };
    expect(reloaded).toMatchObject({ filesParsed: 1, passagesAnalysed: 1 });
    expect(await firstUrl('quasar calibration')).toMatch(/\/docs\/page-005$/);
    expect(out).not.toMatch(/"level":(50|60)/);
  }, 60_000);
});
