import { describe, expect, it } from 'vitest';
import { pageNames } from '../../src/nlweb/page-traits.js';
import type { Page } from '../../src/content/index.js';

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
