import { describe, expect, it } from 'vitest';

import { seededRandom } from '../../bench/seeded-random.js';
import { descriptionQuestion, midWord, oneTypo, vitePressSections } from '../../bench/typing.js';
import { renderMarkdown } from '../../src/content/index.js';

/** Every value a seeded generator gives for `title`, over many seeds. */
const outcomes = (form: (title: string, random: () => number) => string | null, title: string) =>
  new Set(Array.from({ length: 200 }, (_, seed) => form(title, seededRandom(seed))));

describe('typing bench query forms', () => {
  it('cuts the title inside its last word, keeping 2 … length − 1 of its letters', () => {
    expect(outcomes(midWord, 'git commit')).toEqual(new Set(['git co', 'git com', 'git comm', 'git commi']));
    expect(outcomes(midWord, 'tar')).toEqual(new Set(['ta']));
    expect(midWord('ls', seededRandom(1))).toBeNull();
  });

  it('makes one typo in a word of at least 5 letters: two different adjacent letters swapped, or one dropped', () => {
    const typos = outcomes(oneTypo, 'git commit');
    for (const typo of typos) {
      expect(typo).toMatch(/^git /);
      expect(typo).not.toBe('git commit');
    }
    // Swapping the two m's would change nothing, so it is never chosen.
    expect([...typos].sort()).toEqual(
      [
        'git ommit',
        'git cmmit',
        'git comit',
        'git commt',
        'git commi',
        'git ocmmit',
        'git cmomit',
        'git comimt',
        'git commti',
      ].sort(),
    );
    expect(oneTypo('du ls tar', seededRandom(1))).toBeNull();
    expect(oneTypo('Authentication Cheat Sheet', seededRandom(3))).toBe(
      oneTypo('Authentication Cheat Sheet', seededRandom(3)),
    );
  });

  it('asks the description as a visitor would', () => {
    expect(descriptionQuestion('List directory contents. More information: https://example.com.')).toBe(
      'how do I list directory contents?',
    );
    expect(descriptionQuestion('Archiving utility. Often combined with gzip.')).toBe(
      'what is the archiving utility?',
    );
    expect(descriptionQuestion('A tool for managing packages.')).toBe(
      'what is a tool for managing packages?',
    );
    expect(
      descriptionQuestion(
        'Authentication (AuthN) is the process of verifying that an individual is who they claim.',
      ),
    ).toBe('what is authentication (AuthN)?');
    expect(descriptionQuestion('This command is an alias of `tldr-lint`.')).toBeNull();
  });

  it('splits a page into sections at every heading, as VitePress does', () => {
    const rendered = renderMarkdown(
      'Lead text.\n\n## Install\n\nRun it.\n\n### On Linux\n\napt.\n\n## Empty\n\n## Use\n\nCall it.\n',
    );
    const page = { url: '/tool', title: 'Tool' };
    expect(vitePressSections(page, rendered.html)).toEqual([
      { id: '/tool', title: 'Tool', titles: [], text: '\nLead text.\n' },
      { id: '/tool#install', title: 'Install', titles: ['Tool'], text: '\nRun it.\n' },
      { id: '/tool#on-linux', title: 'On Linux', titles: ['Tool', 'Install'], text: '\napt.\n' },
      { id: '/tool#empty', title: 'Empty', titles: ['Tool'], text: '\n' },
      { id: '/tool#use', title: 'Use', titles: ['Tool'], text: '\nCall it.\n' },
    ]);
  });
});
