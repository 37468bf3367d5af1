import { describe, expect, it } from 'vitest';
import { nameMatch, pageNames } from '../../src/nlweb/page-traits.js';
import type { Page } from '../../src/content/index.js';

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

describe('pageNames', () => {
  it('names a page by its title, aliases and keywords (the words readers use that its text does not)', () => {
    const page = {
      title: 'Pricing',
      aliases: ['Plans'],
      keywords: ['cost', 'price list'],
    } as unknown as Page;
    expect(pageNames(page)).toEqual([['price'], ['plan'], ['cost'], ['price', 'list']]);
  });
});
