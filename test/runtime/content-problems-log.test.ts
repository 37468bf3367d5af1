import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { LOGGED_PER_PROBLEM, logContentProblems } from '../../src/runtime/content-reload.js';
import type { ContentProblem } from '../../src/content/index.js';

function capture(): {
  logger: pino.Logger;
  lines: () => { level: number; msg: string; file?: string; more?: number }[];
} {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString('utf8'));
      done();
    },
  });
  return {
    logger: pino({ level: 'info' }, stream),
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as { level: number; msg: string; file?: string; more?: number }),
  };
}

const untitled = (index: number): ContentProblem => ({
  file: `guide/${index}.md`,
  line: null,
  message: 'the page has no title: add "title: …". The page is skipped',
  severity: 'error',
});

describe('content problems in the log', () => {
  it('logs the first of a repeated problem one by one, then counts the rest in one line', () => {
    const { logger, lines } = capture();
    const problems = [
      ...Array.from({ length: 1813 }, (_, index) => untitled(index)),
      { file: 'about.md', line: 3, message: 'a link leads nowhere: /nowhere', severity: 'warning' as const },
    ];
    logContentProblems(logger, problems);
    const logged = lines();
    expect(logged).toHaveLength(LOGGED_PER_PROBLEM + 2);
    expect(logged.slice(0, LOGGED_PER_PROBLEM).map((line) => line.file)).toEqual(
      Array.from({ length: LOGGED_PER_PROBLEM }, (_, index) => `guide/${index}.md`),
    );
    expect(logged[LOGGED_PER_PROBLEM]).toMatchObject({ file: 'about.md', level: 40 });
    expect(logged.at(-1)).toMatchObject({ level: 50, more: 1813 - LOGGED_PER_PROBLEM });
    expect(logged.at(-1)!.msg).toBe(
      `content: ${1813 - LOGGED_PER_PROBLEM} more like this (the page has no title: add "title: …". The page is skipped); \`frontdoor check\` lists them all`,
    );
  });

  it('logs every problem when none repeats often', () => {
    const { logger, lines } = capture();
    logContentProblems(
      logger,
      Array.from({ length: LOGGED_PER_PROBLEM }, (_, index) => untitled(index)),
    );
    expect(lines()).toHaveLength(LOGGED_PER_PROBLEM);
  });
});
