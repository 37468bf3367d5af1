import { describe, expect, it } from 'vitest';
import { acceptPrefersEventStream } from '../../src/http/negotiation.js';
import { clientKey } from '../../src/http-primitives/index.js';
import {
  normaliseQuery,
  parseAskBody,
  parseAskQueryString,
  parseBooleanParam,
  StreamRegistry,
} from '../../src/nlweb/index.js';

describe('Accept negotiation', () => {
  it.each([
    ['text/event-stream'],
    ['text/event-stream; charset=utf-8'],
    ['TEXT/EVENT-STREAM'],
    ['text/event-stream, application/json;q=0.9'],
    ['application/json;q=0.5, text/event-stream'],
    ['text/*'],
    ['text/event-stream, */*;q=0.1'],
    // A malformed q counts as 1.
    ['text/event-stream;q=abc, application/json;q=0.9'],
  ])('prefers the event stream for %j', (accept) => {
    expect(acceptPrefersEventStream(accept)).toBe(true);
  });

  it.each([
    [undefined],
    [''],
    ['*/*'],
    ['application/json'],
    ['text/event-stream, application/json'],
    ['application/json, text/event-stream'],
    ['text/event-stream;q=0.5, application/json'],
    ['text/event-stream;q=0'],
    ['text/event-stream;q=0.5, */*'],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'],
  ])('keeps JSON for %j', (accept) => {
    expect(acceptPrefersEventStream(accept)).toBe(false);
  });
});

describe('boolean parameters', () => {
  it.each([
    ['true', true],
    ['TRUE', true],
    ['True', true],
    ['1', true],
    ['false', false],
    ['FALSE', false],
    ['0', false],
  ])('%j is %s', (raw, expected) => expect(parseBooleanParam(raw)).toBe(expected));
  it.each(['', 'yes', 'no', '2', ' true', 'on', 't'])('%j is not a boolean', (raw) =>
    expect(parseBooleanParam(raw)).toBeNull(),
  );
});

describe('query normalisation', () => {
  it('collapses white space, control and format characters, trims and composes', () => {
    expect(normaliseQuery('  a\t\tb\r\nc\u0000d\u200be\u2028f  ')).toBe('a b c d e f');
    expect(normaliseQuery('Cafe\u0301')).toBe('Café');
    expect(normaliseQuery(' \n\t ')).toBe('');
  });
});

describe('GET parameters', () => {
  it('reads the recognised parameters with their defaults', () => {
    expect(parseAskQueryString({ query: 'widgets' })).toEqual({
      ok: true,
      query: { text: 'widgets', maxResults: 10, conversationId: null },
      delivery: { streaming: null },
    });
    expect(
      parseAskQueryString({
        query: 'widgets',
        streaming: '0',
        max_results: '7',
        conversation_id: 'c1',
        mode: 'list',
        site: ['a', 'b'],
      }),
    ).toEqual({
      ok: true,
      query: { text: 'widgets', maxResults: 7, conversationId: 'c1' },
      delivery: { streaming: false },
    });
  });

  it('tells a missing query (ask for one) from an invalid request', () => {
    expect(parseAskQueryString({})).toMatchObject({ ok: false, reason: 'missing' });
    expect(parseAskQueryString({ query: '\u0000 ' })).toMatchObject({ ok: false, reason: 'missing' });
    expect(parseAskQueryString({ query: 'x', streaming: 'maybe' })).toMatchObject({
      ok: false,
      reason: 'invalid',
    });
    // An invalid parameter is reported even when the query is missing.
    expect(parseAskQueryString({ streaming: ['1', '0'] })).toMatchObject({ ok: false, reason: 'invalid' });
  });
});

describe('POST bodies', () => {
  it('reads query.text, prefer and meta', () => {
    expect(
      parseAskBody({
        query: { text: 'widgets', site: ['a'] },
        prefer: { streaming: true, mode: 'list', max_results: 80 },
        meta: { conversation_id: 'c2' },
        context: {},
      }),
    ).toEqual({
      ok: true,
      query: { text: 'widgets', maxResults: 50, conversationId: 'c2' },
      delivery: { streaming: true },
    });
  });

  it('refuses objects with a prototype-polluting key as unknown members', () => {
    const parsed = parseAskBody(JSON.parse('{"query": {"text": "x"}, "__proto__": {"polluted": true}}'));
    expect(parsed).toMatchObject({ ok: false, reason: 'invalid' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('stream limits', () => {
  it('groups IPv6 clients by /64 and IPv4-mapped addresses with IPv4', () => {
    expect(clientKey('203.0.113.9')).toBe('203.0.113.9');
    expect(clientKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(clientKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:0db8:0001:0002:ffff:0:0:9')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
  });

  it('caps streams per client and in total, and releases each slot once', () => {
    const registry = new StreamRegistry({ maxStreams: 3, maxStreamsPerClient: 2 });
    const a1 = registry.tryAcquire('198.51.100.1')!;
    const a2 = registry.tryAcquire('198.51.100.1')!;
    expect(registry.tryAcquire('198.51.100.1')).toBeNull();
    expect(registry.tryAcquire('2001:db8:1:2::5')).not.toBeNull();
    expect(registry.active).toBe(3);
    expect(registry.tryAcquire('192.0.2.7')).toBeNull();
    a1();
    a1();
    expect(registry.active).toBe(2);
    expect(registry.activeFor('198.51.100.1')).toBe(1);
    // The second address of the same /64 counts as the same client.
    expect(registry.tryAcquire('2001:db8:1:2::6')).not.toBeNull();
    expect(registry.activeFor('2001:db8:1:2::7')).toBe(2);
    a2();
    expect(registry.tryAcquire('2001:db8:1:2::7')).toBeNull();
    expect(registry.activeFor('198.51.100.1')).toBe(0);
    expect(registry.tryAcquire('192.0.2.7')).not.toBeNull();
  });
});
