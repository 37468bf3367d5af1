import { describe, expect, it } from 'vitest';
import {
  classifyClient,
  createClientClassifier,
  KNOWN_CLIENTS,
  readershipDocument,
} from '../../src/insight/index.js';

const BROWSER = { 'accept-language': 'en-GB,en;q=0.9', 'sec-fetch-mode': 'navigate' };

/** The classification table of docs/insight.md, row by row. */
const TABLE: [string, Record<string, string>, string, string][] = [
  // [case, headers, class, agent name]
  ['no User-Agent', {}, 'other', ''],
  ['blank User-Agent', { 'user-agent': '  ' }, 'other', ''],
  [
    'ChatGPT-User',
    {
      'user-agent':
        'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot',
    },
    'agent',
    'ChatGPT-User',
  ],
  ['Claude-User', { 'user-agent': 'Claude-User/1.0 (+Claude-User@anthropic.com)' }, 'agent', 'Claude-User'],
  [
    'Perplexity-User',
    { 'user-agent': 'Mozilla/5.0 (compatible; Perplexity-User/1.0)' },
    'agent',
    'Perplexity-User',
  ],
  [
    'MistralAI-User',
    { 'user-agent': 'Mozilla/5.0 (compatible; MistralAI-User/1.0)' },
    'agent',
    'MistralAI-User',
  ],
  ['token case does not matter', { 'user-agent': 'chatgpt-user/2.0' }, 'agent', 'ChatGPT-User'],
  [
    'GPTBot',
    {
      'user-agent':
        'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot',
    },
    'crawler',
    'GPTBot',
  ],
  [
    'ClaudeBot',
    { 'user-agent': 'Mozilla/5.0 (compatible; ClaudeBot/1.0; +claudebot@anthropic.com)' },
    'crawler',
    'ClaudeBot',
  ],
  [
    'PerplexityBot',
    { 'user-agent': 'Mozilla/5.0 (compatible; PerplexityBot/1.0)' },
    'crawler',
    'PerplexityBot',
  ],
  ['CCBot', { 'user-agent': 'CCBot/2.0 (https://commoncrawl.org/faq/)' }, 'crawler', 'CCBot'],
  [
    'Googlebot',
    { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' },
    'crawler',
    'Googlebot',
  ],
  [
    'bingbot',
    { 'user-agent': 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)' },
    'crawler',
    'bingbot',
  ],
  [
    'AhrefsBot',
    { 'user-agent': 'Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)' },
    'crawler',
    'AhrefsBot',
  ],
  // A known token inside a longer word is not that client.
  ['token inside a word', { 'user-agent': 'NotGPTBotReally/1.0' }, 'other', ''],
  ['self-declared bot', { 'user-agent': 'ExampleBot/0.1' }, 'crawler', ''],
  [
    'self-declared crawler with contact URL',
    { 'user-agent': 'site-auditor/3 (+https://audit.example)' },
    'crawler',
    '',
  ],
  ['spider', { 'user-agent': 'Mozilla/5.0 (compatible; SomeSpider/1.0)' }, 'crawler', ''],
  [
    'Firefox with browser headers',
    { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', ...BROWSER },
    'browser',
    '',
  ],
  [
    'Chrome fetch (Sec-Fetch-Mode only)',
    {
      'user-agent':
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      'sec-fetch-mode': 'cors',
    },
    'browser',
    '',
  ],
  [
    'Safari with Accept-Language only',
    {
      'user-agent':
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      'accept-language': 'fr-FR',
    },
    'browser',
    '',
  ],
  [
    'browser User-Agent without any browser header (a script)',
    { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0' },
    'other',
    '',
  ],
  [
    'headless Chrome',
    {
      'user-agent':
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
      ...BROWSER,
    },
    'other',
    '',
  ],
  ['curl', { 'user-agent': 'curl/8.11.1', ...BROWSER }, 'other', ''],
  ['python-requests', { 'user-agent': 'python-requests/2.32.3' }, 'other', ''],
  ['Node fetch', { 'user-agent': 'node', 'accept-language': '*', 'sec-fetch-mode': 'cors' }, 'other', ''],
];

describe('client classification table', () => {
  it.each(TABLE)('%s', (_name, headers, clientClass, agent) => {
    expect(classifyClient(headers)).toEqual({ clientClass, agent });
  });

  it('recognises every token of the known-client table and stores its name, never the raw User-Agent', () => {
    for (const known of KNOWN_CLIENTS) {
      const identity = classifyClient({
        'user-agent': `Mozilla/5.0 (compatible; ${known.token}/1.0; +https://x.example)`,
      });
      expect(identity).toEqual({ clientClass: known.clientClass, agent: known.name });
    }
  });

  it('the memoised classifier answers the same, including when only the browser headers differ', () => {
    const classify = createClientClassifier(4);
    for (let round = 0; round < 2; round++)
      for (const [, headers, clientClass, agent] of TABLE)
        expect(classify(headers)).toEqual({ clientClass, agent });
  });
});

describe('readership documents', () => {
  it.each([
    ['/llms.txt', undefined, 'llms.txt'],
    ['/llms-full.txt', undefined, 'llms-full.txt'],
    ['/openapi.json', undefined, 'openapi.json'],
    ['/agents.md', undefined, 'agents.md'],
    ['/.well-known/agent-skills/index.json', undefined, 'agent-skills'],
    ['/.well-known/agent-skills/search-and-contact/SKILL.md', undefined, 'agent-skills'],
    ['/.well-known/ard.json', undefined, 'ard'],
    ['/.well-known/ai-catalog.json', undefined, 'ai-catalog'],
    ['/.well-known/api-catalog', undefined, 'api-catalog'],
    ['/sitemap.xml', undefined, 'sitemap'],
    ['/sitemaps/2.xml', undefined, 'sitemap'],
    ['/robots.txt', undefined, 'robots.txt'],
    ['/pricing.md', 'text/markdown; charset=utf-8', 'markdown-twin'],
    ['/pricing', 'text/markdown; charset=utf-8', 'markdown-twin'],
    ['/pricing', 'text/html; charset=utf-8', null],
    ['/search', 'text/html; charset=utf-8', null],
  ] as const)('%s (%s) → %s', (path, contentType, document) => {
    expect(readershipDocument(path, contentType)).toBe(document);
  });
});
