import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/content/index.js';
import { splitFrontMatter } from '../../src/content/front-matter.js';

// Issue 37's content class (finding 2): whatever a content file holds, reading it ends, throws
// nothing, and says what is wrong at a line of the file; headings always get distinct anchors.

const yamlLine = fc.oneof(
  fc.constantFrom(
    'title: Same',
    'title: Same',
    'a: &x [1, 2, 3]',
    'b: [*x, *x, *x, *x, *x, *x, *x, *x]',
    'c: &y [*x, *x, *x, *x, *x, *x, *x, *x]',
    'd: [*y, *y, *y, *y, *y, *y, *y, *y]',
    'e: *missing',
    '? [complex, key]\n: value',
    'deep: [[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]',
    'tags: {a: 1, a: 2}',
    '  indented: badly',
    '- a list item',
    '"unterminated: string',
    '\u0000\u0001\u00ff binary',
    'date: 2026-13-45',
    'key: value # comment',
  ),
  fc.tuple(fc.stringMatching(/^[a-z]{1,6}$/), fc.string({ maxLength: 20 })).map(([k, v]) => `${k}: ${v}`),
  fc.string({ maxLength: 30 }),
);

describe('front matter, whatever it holds', () => {
  it('is parsed or refused with line-numbered problems, never thrown, with every line inside the file', () => {
    fc.assert(
      fc.property(
        fc.array(yamlLine, { maxLength: 40 }),
        fc.boolean(),
        fc.constantFrom('\n', '\r\n'),
        (lines, closed, newline) => {
          const text = ['---', ...lines, ...(closed ? ['---'] : []), '', 'Body text.', ''].join(newline);
          const split = splitFrontMatter(text);
          const lineCount = text.split('\n').length;
          for (const problem of split.problems) {
            expect(problem.message).not.toBe('');
            if (problem.line !== null) {
              expect(problem.line).toBeGreaterThanOrEqual(1);
              expect(problem.line).toBeLessThanOrEqual(lineCount);
            }
          }
          // Usable data is a plain mapping; aliases never expand past what the file says.
          if (split.data !== null) expect(typeof split.data).toBe('object');
          expect(split.bodyStartLine).toBeGreaterThanOrEqual(1);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('refuses an alias bomb instead of expanding it', () => {
    const bomb = ['---', 'a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (const name of 'bcdefghij') {
      const previous = String.fromCharCode(name.charCodeAt(0) - 1);
      bomb.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(',')}]`);
    }
    bomb.push('---', 'Body.');
    const split = splitFrontMatter(bomb.join('\n'));
    // 9^10 strings if expanded: refused at the file's line, the page read without its front matter.
    expect(split.problems.map((problem) => `${problem.line}: ${problem.message}`)).toEqual([
      expect.stringMatching(/^2: front matter cannot be read: .*alias/i),
    ]);
  });
});

const markdownBlock = fc.oneof(
  fc.constantFrom('## Same', '## Same', '### Same', '## same-2', '## Same 2', '## ', '#', '## `code`'),
  fc.integer({ min: 1, max: 60 }).map((depth) => `${'> '.repeat(depth)}quoted`),
  fc.integer({ min: 1, max: 60 }).map((depth) => `${'  '.repeat(depth)}- item`),
  fc.string({ unit: 'grapheme', maxLength: 40 }).map((text) => `## ${text}`),
  fc.string({ maxLength: 80 }),
);

describe('Markdown, whatever it holds', () => {
  it('renders without throwing, and every heading has an anchor no other heading has', () => {
    fc.assert(
      fc.property(fc.array(markdownBlock, { maxLength: 60 }), (blocks) => {
        const rendered = renderMarkdown(blocks.join('\n\n'));
        const anchors = rendered.headings.map((heading) => heading.anchor);
        expect(new Set(anchors).size).toBe(anchors.length);
      }),
      { numRuns: 300 },
    );
  });
});
