import { describe, expect, it } from 'vitest';
import { BUNDLED_CONTENT_DIR } from '../../src/config/index.js';
import { loadSite } from '../../src/content/index.js';
import { createAskService } from '../../src/nlweb/index.js';

const { site } = await loadSite(BUNDLED_CONTENT_DIR);
const service = createAskService(site, 'https://www.example.com', { cacheSize: 0 });
const summaryOf = (text: string): string => {
  const first = service.answer({ text, maxResults: 10, conversationId: null }, 'typing').content[0] as {
    type: string;
    text: string;
  };
  return first.text;
};

const FAILURE = /Nothing on .* matched|No page on .* matches .* well/;

describe('the answer while a word is being typed (sample site)', () => {
  it.each(['e-', 'e-s', 'part 1', 'how do I e', 'how do I exp', 'who are yo'])(
    'gives no verdict of failure for “%s”, whose last word is not finished',
    (query) => {
      expect(summaryOf(query)).not.toMatch(FAILURE);
    },
  );

  it('keeps the verdict when the finished words find nothing', () => {
    expect(summaryOf('zebra quasar')).toMatch(/^Nothing on Trialwright matched “zebra quasar”/);
    expect(summaryOf('zebra qu')).toMatch(FAILURE);
  });

  it('counts the results for the corrected words, never the misspelling', () => {
    const summary = summaryOf('pricng');
    expect(summary).toMatch(/^Showing results for “pricing”\. Found \d+ results for “pricing”/);
    expect(summary).not.toContain('pricng');
  });
});
