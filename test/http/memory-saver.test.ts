import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { useMemorySaverMode } from '../../src/http/index.js';

const v8Major = Number(process.versions.v8.split('.')[0]);

/** Runs `script` (an ES module importing src/http/garbage.ts) in a process of its own, as V8's flags are global. */
function runAlone(script: string) {
  const run = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `import { buildingSite, MEMORY_SAVER_RESUME_MS, memorySaverModeOn, useMemorySaverMode } from './src/http/garbage.ts';\n${script}`,
    ],
    { encoding: 'utf8' },
  );
  // V8 prints an unknown flag's error to stderr and goes on.
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return run.stdout.trim().split('\n');
}

describe('V8 memory saver mode', () => {
  it('is left as the command line sets it', () => {
    expect(useMemorySaverMode(['--max-semi-space-size=4', '--memory-saver-mode'])).toBe(false);
    expect(useMemorySaverMode(['--no-memory-saver-mode'])).toBe(false);
    expect(useMemorySaverMode(['--memory_saver_mode'])).toBe(false);
  });

  it('is used where V8 has the flag (V8 13, Node 24), and not tried on older V8', () => {
    expect(runAlone('console.log(useMemorySaverMode([]), memorySaverModeOn());')).toEqual([
      `${v8Major >= 13} ${v8Major >= 13}`,
    ]);
  });

  it('is off while any site is being built, and on again a moment after every build is over', () => {
    const lines = runAlone(`
      console.log(useMemorySaverMode([]));
      const startUp = buildingSite();
      const reload = buildingSite();
      console.log(memorySaverModeOn());
      startUp();
      startUp(); // a second call changes nothing
      console.log(memorySaverModeOn());
      reload();
      console.log(memorySaverModeOn()); // not yet: the first answers after a build run without it
      setTimeout(() => {
        console.log(memorySaverModeOn());
        const next = buildingSite(); // a build starting before it resumed keeps it off
        next();
        setTimeout(() => console.log(memorySaverModeOn()), MEMORY_SAVER_RESUME_MS / 2);
        setTimeout(() => console.log(memorySaverModeOn()), MEMORY_SAVER_RESUME_MS + 200);
      }, MEMORY_SAVER_RESUME_MS + 200);
    `);
    const used = String(v8Major >= 13);
    expect(lines).toEqual([used, 'false', 'false', 'false', used, 'false', used]);
  });
});
