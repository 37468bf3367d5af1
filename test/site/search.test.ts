import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NlWebResponse } from '../../src/contract/index.js';
import { outcomeOf } from '../../src/site/search.js';
import { buildTestApp, TEST_BASE_URL, type TestApp } from '../support/servers.js';
import { attributeNames } from './helpers.js';

let site: TestApp;

beforeAll(async () => {
  site = await buildTestApp();
});

afterAll(async () => {
  await site?.close();
});

const search = (query: string) =>
  site.app.inject({ method: 'GET', url: `/search?${query}`, headers: { accept: 'text/html' } });

function results(html: string): { href: string; title: string; snippet: string }[] {
  const list = /<ol class="results-list" data-search-list>([\s\S]*?)<\/ol>/.exec(html)![1]!;
  return [
    ...list.matchAll(
      /<a class="result-link" href="([^"]*)"><span class="result-title">([^<]*)<\/span><span class="result-url">[^<]*<\/span><span class="result-snippet">([\s\S]*?)<\/span><\/a>/g,
    ),
  ].map((m) => ({ href: m[1]!, title: m[2]!, snippet: m[3]! }));
}

describe('the search page without JavaScript', () => {
  it('renders the answer of the ask service with the matched words marked', async () => {
    const response = await search('q=schedule+of+activities');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const hits = results(response.body);
    expect(hits.length).toBeGreaterThan(0);
    // The same results, in the same order, as GET /ask gives an agent.
    const answer = (
      await site.app.inject({ method: 'GET', url: '/ask?query=schedule+of+activities&max_results=20' })
    ).json() as NlWebResponse;
    const urls = answer.content.flatMap((item) =>
      item.type === 'resource' ? [(item.resource.data as { url: string }).url] : [],
    );
    // One entry per page, linked to its best section.
    expect(hits.map((hit) => `${TEST_BASE_URL}${hit.href.split('#')[0]}`)).toEqual(urls);
    expect(hits[0]!.snippet).toMatch(/<mark>schedule<\/mark>/i);
    expect(response.body).toContain('value="schedule of activities"');
    expect(response.body).toMatch(/data-search-status>\d+ results? for “schedule of activities”</);
  });

  it('lists a page once with its other matching sections inside, and shows a correction', async () => {
    const response = await search('q=informed+consnt');
    const hits = results(response.body);
    const pages = hits.map((hit) => hit.href.split('#')[0]);
    expect(new Set(pages).size).toBe(pages.length);
    expect(response.body).toMatch(
      /<ul class="result-sections"><li><a class="result-section" href="\/[^"#]+#[^"]+">/,
    );
    expect(response.body).toContain('data-search-correction>Showing results for “informed consent”</p>');
    // The count beside it names the corrected query, not the misspelling.
    expect(response.body).toMatch(/\d+ results for “informed consent”/);
    expect(response.body).not.toMatch(/results for “informed consnt”/);
  });

  it('links results on this site by path', async () => {
    const hits = results((await search('q=informed+consent')).body);
    for (const hit of hits) expect(hit.href).toMatch(/^\/(?:[^/]|$)/);
  });

  it('asks for a query when there is none and keeps the page indexable', async () => {
    const response = await search('');
    expect(response.statusCode).toBe(200);
    expect(results(response.body)).toEqual([]);
    expect(response.body).toContain('Type a question or a few words to search the site.');
    expect(response.body).not.toContain('name="robots"');
  });

  it('refuses a query over the contract limit with a 400 page', async () => {
    const response = await search(`q=${'a'.repeat(1001)}`);
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('The search is too long (1001 characters)');
  });

  it('uses the first value of a repeated parameter and escapes the query', async () => {
    const response = await search(`q=${encodeURIComponent('<script>"x"')}&q=second`);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('value="&lt;script&gt;&quot;x&quot;"');
    expect(response.body).not.toContain('<script>"x"');
    expect(attributeNames(response.body).filter((name) => name.startsWith('on'))).toEqual([]);
  });
});

describe('outcomeOf', () => {
  it('keeps off-site links absolute, drops non-web links and ignores bad highlight ranges', () => {
    const answer: NlWebResponse = {
      _meta: { response_type: 'Answer', version: '0.55' },
      content: [
        { type: 'text', text: 'Found 3 results.' },
        {
          type: 'resource',
          resource: {
            data: {
              name: 'Here',
              url: `${TEST_BASE_URL}/a%20b#part`,
              description: 'abc def',
              highlights: [
                { start: 0, end: 3 },
                { start: 5, end: 99 },
              ],
            },
          },
        },
        {
          type: 'resource',
          resource: { data: { name: 'Elsewhere', url: 'https://other.example/x', description: '' } },
        },
        {
          type: 'resource',
          resource: { data: { name: 'Bad', url: 'javascript:alert(1)', description: '' } },
        },
      ],
    };
    const outcome = outcomeOf('abc', answer, TEST_BASE_URL);
    expect(outcome.hits.map((hit) => [hit.href, hit.displayUrl])).toEqual([
      ['/a%20b#part', '/a b#part'],
      ['https://other.example/x', 'https://other.example/x'],
    ]);
    expect(outcome.hits[0]!.highlights).toEqual([{ start: 0, end: 3 }]);
    expect(outcome.status).toBe('2 results for “abc”');
  });

  it('shows the answer text when nothing matched', () => {
    const answer: NlWebResponse = {
      _meta: { response_type: 'Answer', version: '0.55' },
      content: [{ type: 'text', text: 'No page matched “zzz”.' }],
    };
    expect(outcomeOf('zzz', answer, TEST_BASE_URL)).toEqual({
      query: 'zzz',
      status: 'No page matched “zzz”.',
      hits: [],
    });
  });
});
