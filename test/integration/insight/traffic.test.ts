import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredInsight } from '../../../src/insight/index.js';
import { BROWSER_HEADERS, send, USER_AGENTS } from '../../insight/traffic.js';
import { startInsightServer, type InsightServer } from '../../support/servers.js';

const today = () => new Date().toISOString().slice(0, 10);

/** Known traffic through the real HTTP server, then the aggregates it stored. */
describe('insight counts known traffic through the HTTP server', () => {
  let site: InsightServer;
  let stored: StoredInsight;

  const person = (ip: string) => ({
    'user-agent': USER_AGENTS.firefox,
    ...BROWSER_HEADERS,
    'x-forwarded-for': ip,
  });
  const client = (userAgent: string, ip: string) => ({ 'user-agent': userAgent, 'x-forwarded-for': ip });
  const ask = (query: string) => `/ask?query=${encodeURIComponent(query)}`;

  beforeAll(async () => {
    site = await startInsightServer();
    const { url } = site;
    const get = (path: string, headers: Record<string, string>) => send(url, 'GET', path, headers);
    const answered = async (promise: Promise<{ status: number }>) => expect((await promise).status).toBe(200);

    // A popular question: three people (fast-path GET twice, once on the search page, in other case).
    await answered(get(ask('protocol amendments'), person('10.0.0.1')));
    await answered(get(ask('Protocol  Amendments'), person('10.0.0.2')));
    await answered(get(`/search?q=${encodeURIComponent('protocol amendments')}`, person('10.0.0.3')));
    await answered(get(ask('protocol amendments'), person('10.0.0.1')));
    // Asked again by a crawler after it was released.
    await answered(get(ask('protocol amendments'), client(USER_AGENTS.googlebot, '10.0.0.9')));

    // Nothing found, asked by a person (POST), an agent (GET) and a script (streamed).
    await answered(
      send(
        url,
        'POST',
        '/ask',
        { ...person('10.0.1.1'), 'content-type': 'application/json' },
        JSON.stringify({ query: { text: 'zorblax quux' } }),
      ),
    );
    await answered(get(ask('zorblax quux'), client(USER_AGENTS.chatgptUser, '10.0.1.2')));
    await answered(get(`${ask('zorblax quux')}&streaming=true`, client(USER_AGENTS.curl, '10.0.1.3')));

    // A weak match (one of two words found), asked by three agents.
    for (const ip of ['10.0.2.1', '10.0.2.2', '10.0.2.3'])
      await answered(get(ask('amendment zorblax'), client(USER_AGENTS.claudeUser, ip)));

    // Below k: an address typed twice by one person, a question asked by two people.
    await answered(get(ask('jane.doe@example.com'), person('10.0.3.1')));
    await answered(get(ask('jane.doe@example.com'), person('10.0.3.1')));
    await answered(get(ask('schedule of activities'), person('10.0.3.2')));
    await answered(get(ask('schedule of activities'), person('10.0.3.3')));
    // Three addresses of one IPv6 /64 (one home, one client to the limits): below k too.
    for (const ip of ['2001:db8:77:1::1', '2001:db8:77:1::2', '2001:db8:77:1::3'])
      await answered(get(ask('schedule of assessments'), person(ip)));
    // Not a search: an invalid request is answered 400 and not counted.
    expect((await get('/ask', person('10.0.3.4'))).status).toBe(400);

    // Discovery documents.
    await answered(get('/llms.txt', client(USER_AGENTS.gptBot, '10.0.4.1')));
    await answered(get('/llms.txt', client(USER_AGENTS.gptBot, '10.0.4.1')));
    await answered(get('/sitemap.xml', client(USER_AGENTS.claudeBot, '10.0.4.2')));
    await answered(get('/openapi.json', client(USER_AGENTS.claudeUser, '10.0.4.3')));
    await answered(get('/robots.txt', client(USER_AGENTS.googlebot, '10.0.4.4')));
    await answered(get('/agents.md', client(USER_AGENTS.curl, '10.0.4.5')));
    await answered(get('/pricing.md', client(USER_AGENTS.chatgptUser, '10.0.4.6')));
    await answered(
      get('/pricing', { ...client(USER_AGENTS.claudeUser, '10.0.4.6'), accept: 'text/markdown' }),
    );
    // Not counted: an HTML page, and a document that is not there.
    await answered(get('/pricing', person('10.0.4.7')));
    expect((await get('/no-such-page.md', client(USER_AGENTS.gptBot, '10.0.4.1'))).status).toBe(404);

    await site.server.context.insight!.flush();
    stored = await site.server.context.insight!.store.read(today(), today());
  }, 60_000);

  afterAll(async () => {
    await site?.close();
  });

  const queryRows = (query: string) =>
    stored.queries
      .filter((row) => row.query === query)
      .map(({ clientClass, searches, zeroResults, weakMatches }) => ({
        clientClass,
        searches,
        zeroResults,
        weakMatches,
      }));

  it('stores a text asked by k distinct clients, with what happened before it reached k', () => {
    expect(queryRows('protocol amendments')).toEqual([
      { clientClass: 'browser', searches: 4, zeroResults: 0, weakMatches: 0 },
      { clientClass: 'crawler', searches: 1, zeroResults: 0, weakMatches: 0 },
    ]);
  });

  it('counts searches that found nothing, from every channel and class', () => {
    expect(queryRows('zorblax quux')).toEqual([
      { clientClass: 'agent', searches: 1, zeroResults: 1, weakMatches: 0 },
      { clientClass: 'browser', searches: 1, zeroResults: 1, weakMatches: 0 },
      { clientClass: 'other', searches: 1, zeroResults: 1, weakMatches: 0 },
    ]);
  });

  it('counts weak matches', () => {
    expect(queryRows('amendment zorblax')).toEqual([
      { clientClass: 'agent', searches: 3, zeroResults: 0, weakMatches: 3 },
    ]);
  });

  it('counts the addresses of one IPv6 /64 as one client, as the rate limits do (issue 37, finding 8)', () => {
    expect(queryRows('schedule of assessments')).toEqual([]);
  });

  it('never stores a text asked by fewer than k distinct clients, but counts it in the totals', () => {
    expect(stored.queries.map((row) => row.query).sort()).toEqual([
      'amendment zorblax',
      'protocol amendments',
      'protocol amendments',
      'zorblax quux',
      'zorblax quux',
      'zorblax quux',
    ]);
    expect(stored.searchesByChannel).toEqual([
      { clientClass: 'agent', channel: 'get', searches: 4, zeroResults: 1, weakMatches: 3 },
      // jane.doe@… matches one of its six terms: a weak match, counted without its text.
      { clientClass: 'browser', channel: 'get', searches: 10, zeroResults: 0, weakMatches: 2 },
      { clientClass: 'browser', channel: 'page', searches: 1, zeroResults: 0, weakMatches: 0 },
      { clientClass: 'browser', channel: 'post', searches: 1, zeroResults: 1, weakMatches: 0 },
      { clientClass: 'crawler', channel: 'get', searches: 1, zeroResults: 0, weakMatches: 0 },
      { clientClass: 'other', channel: 'stream', searches: 1, zeroResults: 1, weakMatches: 0 },
    ]);
  });

  it('counts discovery-document reads by class and agent name, and /ask with its searches', () => {
    expect(stored.reads).toEqual([
      { document: 'agents.md', clientClass: 'other', agent: '', requests: 1 },
      { document: 'ask', clientClass: 'agent', agent: 'ChatGPT-User', requests: 1 },
      { document: 'ask', clientClass: 'agent', agent: 'Claude-User', requests: 3 },
      { document: 'ask', clientClass: 'browser', agent: '', requests: 12 },
      { document: 'ask', clientClass: 'crawler', agent: 'Googlebot', requests: 1 },
      { document: 'ask', clientClass: 'other', agent: '', requests: 1 },
      { document: 'llms.txt', clientClass: 'crawler', agent: 'GPTBot', requests: 2 },
      { document: 'markdown-twin', clientClass: 'agent', agent: 'ChatGPT-User', requests: 1 },
      { document: 'markdown-twin', clientClass: 'agent', agent: 'Claude-User', requests: 1 },
      { document: 'openapi.json', clientClass: 'agent', agent: 'Claude-User', requests: 1 },
      { document: 'robots.txt', clientClass: 'crawler', agent: 'Googlebot', requests: 1 },
      { document: 'sitemap', clientClass: 'crawler', agent: 'ClaudeBot', requests: 1 },
    ]);
  });

  it('writes no address, no User-Agent and no text below k to the database file', async () => {
    await site.server.context.insight!.flush();
    const file = join(site.dataDir, 'frontdoor.sqlite');
    const bytes = [file, `${file}-wal`]
      .map((path) => {
        try {
          return readFileSync(path).toString('latin1');
        } catch {
          return '';
        }
      })
      .join('');
    expect(bytes).toContain('protocol amendments');
    for (const secret of ['10.0.', 'jane.doe', 'schedule of activities', 'Firefox', 'curl/'])
      expect(bytes).not.toContain(secret);
  });
});
