import { describe, expect, it } from 'vitest';
import { nameMatch, PAGE_STEPS, PASSAGE_STAGES } from '../../src/search/index.js';

const hits = (...terms: string[][]) => terms.map((matchedTerms) => ({ matchedTerms }));

describe('nameMatch', () => {
  it('is 1 when the hits match every term of a name and the query is that name', () => {
    expect(nameMatch([['schedul', 'activ']], hits(['schedul'], ['activ']), 2)).toBe(1);
  });

  it('reads the terms of all the page’s hits together', () => {
    expect(nameMatch([['schedul', 'activ']], hits(['schedul']), 2)).toBe(0.0625);
    expect(nameMatch([['schedul', 'activ']], hits(['schedul'], ['other'], ['activ', 'schedul']), 2)).toBe(1);
  });

  it('squares the shares: a name half matched by a longer query counts little', () => {
    // (1/2 of the name × 1/4 of the query's words)²
    expect(nameMatch([['trialwright', 'medic']], hits(['trialwright', 'protocol', 'write']), 4)).toBe(
      (0.5 * 0.25) ** 2,
    );
  });

  it('takes the best of the page’s names, and 0 when no name term matched', () => {
    const names = [['icf'], ['inform', 'consent', 'form']];
    expect(nameMatch(names, hits(['inform', 'consent']), 3)).toBeCloseTo(((2 / 3) * (2 / 3)) ** 2, 12);
    expect(nameMatch(names, hits(['icf']), 1)).toBe(1);
    expect(nameMatch(names, hits(['draft']), 1)).toBe(0);
    expect(nameMatch([], hits(['icf']), 1)).toBe(0);
  });
});

describe('the ranking stages', () => {
  it('run in the documented order: passages, then the page stage’s steps', () => {
    expect(PASSAGE_STAGES.map((stage) => stage.name)).toEqual([
      'words',
      'feedback',
      'scope',
      'top',
      'proximity',
      'order',
      'results',
    ]);
    expect(PAGE_STEPS.map((step) => step.name)).toEqual(['group', 'score', 'order', 'copies', 'sections']);
  });
});
