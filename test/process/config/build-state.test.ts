import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const SCRIPT = resolve(import.meta.dirname, '../../../scripts/build-state.mjs');

/**
 * A project in a temporary folder whose `npm run build` counts its runs, so the test sees whether
 * `prestart`'s check (`build-state.mjs ensure`) built or not.
 */
function project(): { root: string; builds(): number; ensure(): void } {
  const root = mkdtempSync(join(tmpdir(), 'frontdoor-build-state-'));
  mkdirSync(join(root, 'src', 'cli'), { recursive: true });
  mkdirSync(join(root, 'scripts'));
  copyFileSync(SCRIPT, join(root, 'scripts', 'build-state.mjs'));
  writeFileSync(join(root, 'src', 'cli', 'main.ts'), 'export const a = 1;\n');
  writeFileSync(join(root, 'scripts', 'bundle.mjs'), '// bundles\n');
  const build =
    "node -e \"const fs=require('fs');fs.mkdirSync('dist/cli',{recursive:true});fs.writeFileSync('dist/cli/main.js','');" +
    "fs.appendFileSync('builds.log','x')\" && node scripts/build-state.mjs stamp";
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'p', private: true, scripts: { build } }));
  return {
    root,
    builds: () => {
      try {
        return readFileSync(join(root, 'builds.log'), 'utf8').length;
      } catch {
        return 0;
      }
    },
    ensure: () => {
      execFileSync(process.execPath, ['scripts/build-state.mjs', 'ensure'], { cwd: root, stdio: 'pipe' });
    },
  };
}

describe('npm start builds only when the sources changed (scripts/build-state.mjs)', () => {
  const roots: string[] = [];
  afterEach(() => {
    for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
  });

  it('builds once, then not again until a source, a build script or the lockfile changes', () => {
    const p = project();
    roots.push(p.root);
    p.ensure();
    expect(p.builds()).toBe(1);
    p.ensure();
    p.ensure();
    expect(p.builds()).toBe(1);

    writeFileSync(join(p.root, 'src', 'cli', 'main.ts'), 'export const a = 2;\n');
    p.ensure();
    expect(p.builds()).toBe(2);

    writeFileSync(join(p.root, 'src', 'cli', 'added.ts'), 'export const b = 1;\n');
    p.ensure();
    expect(p.builds()).toBe(3);

    writeFileSync(join(p.root, 'scripts', 'bundle.mjs'), '// bundles differently\n');
    p.ensure();
    expect(p.builds()).toBe(4);

    writeFileSync(join(p.root, 'package-lock.json'), '{}\n');
    p.ensure();
    expect(p.builds()).toBe(5);
    p.ensure();
    expect(p.builds()).toBe(5);
  });

  it('a touched file with the same content is not a change; a removed stamp is', () => {
    const p = project();
    roots.push(p.root);
    p.ensure();
    writeFileSync(join(p.root, 'src', 'cli', 'main.ts'), 'export const a = 1;\n');
    p.ensure();
    expect(p.builds()).toBe(1);
    rmSync(join(p.root, 'dist', '.build-stamp'));
    p.ensure();
    expect(p.builds()).toBe(2);
  });

  it('builds again when the entry point is gone although the stamp is there', () => {
    const p = project();
    roots.push(p.root);
    p.ensure();
    rmSync(join(p.root, 'dist', 'cli'), { recursive: true });
    p.ensure();
    expect(p.builds()).toBe(2);
    p.ensure();
    expect(p.builds()).toBe(2);
  });

  it('check answers 1 with the reason when a build is needed', () => {
    const p = project();
    roots.push(p.root);
    const check = () => {
      try {
        execFileSync(process.execPath, ['scripts/build-state.mjs', 'check'], { cwd: p.root, stdio: 'pipe' });
        return 0;
      } catch (error) {
        return (error as { status: number }).status;
      }
    };
    expect(check()).toBe(1);
    p.ensure();
    expect(check()).toBe(0);
  });
});
