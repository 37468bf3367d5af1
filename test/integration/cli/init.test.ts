import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../../src/cli/check.js';
import { runInit } from '../../../src/cli/init.js';
import { runCommand } from '../../support/cli.js';
import { REPO_ROOT, tempDir } from '../../support/files.js';
import { startSiteServer, type SiteServer } from '../../support/servers.js';

const servers: SiteServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.close();
});

const STARTER_PAGES = ['/', '/pricing', '/about', '/contact', '/privacy', '/demo', '/docs/'];

describe('frontdoor init', () => {
  it('writes a starter folder that checks clean and serves its pages at once', async () => {
    const cwd = tempDir('frontdoor-init-');
    const result = await runCommand(runInit, ['my-site'], {}, cwd);
    expect(result.code).toBe(0);
    expect(result.out).toContain('CONTENT_DIR=my-site npm start');
    const root = join(cwd, 'my-site');
    expect(readdirSync(root).sort()).toEqual([
      '_site.yaml',
      'about.md',
      'contact.md',
      'demo.md',
      'docs',
      'index.md',
      'pricing.md',
      'privacy.md',
    ]);
    expect(readFileSync(join(root, '_site.yaml'), 'utf8')).toContain('name: "My Site"');
    // The language is said, so a company writing in another one sees where to change it.
    expect(readFileSync(join(root, '_site.yaml'), 'utf8')).toMatch(/^language: en$/m);

    const check = await runCommand(runCheck, ['--content', root, '--strict'], {});
    expect(check.out).toBe(`${root}: 7 pages loaded, 0 errors, 0 warnings\n`);
    expect(check.code).toBe(0);

    const site = await startSiteServer({ CONTENT_DIR: root });
    servers.push(site);
    for (const path of STARTER_PAGES) {
      const response = await fetch(`${site.url}${path}`, { headers: { accept: 'text/html' } });
      expect(response.status, path).toBe(200);
      const html = await response.text();
      expect(html, path).toContain('<span class="brand-name">My Site</span>');
      expect(html, path).toContain('<html lang="en">');
      expect(html, path).toContain('<a href="/pricing">Pricing</a>');
      expect(html, path).toContain('<a href="/privacy">Privacy notice</a>');
    }
    const demo = await (await fetch(`${site.url}/demo`, { headers: { accept: 'text/html' } })).text();
    expect(demo).toContain('<form');
  });

  it('takes the company name from --name, and refuses a folder that already holds files', async () => {
    const cwd = tempDir('frontdoor-init-');
    expect((await runCommand(runInit, ['site', '--name', 'Northbeam Biostat'], {}, cwd)).code).toBe(0);
    expect(readFileSync(join(cwd, 'site', 'index.md'), 'utf8')).toContain('Welcome to Northbeam Biostat');
    writeFileSync(join(cwd, 'site', 'index.md'), 'mine');
    const again = await runCommand(runInit, ['site'], {}, cwd);
    expect(again.code).toBe(1);
    expect(again.err).toContain('already holds files; nothing was written');
    expect(readFileSync(join(cwd, 'site', 'index.md'), 'utf8')).toBe('mine');
    expect((await runCommand(runInit, [], {}, cwd)).code).toBe(2);
  });

  it('is a command of the entry point', () => {
    const target = join(tempDir('frontdoor-init-'), 'starter');
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'init', target], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    });
    expect(result.status, result.stderr).toBe(0);
    expect(existsSync(join(target, '_site.yaml'))).toBe(true);
  });
});
