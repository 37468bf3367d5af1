import { beforeAll, describe, expect, it } from 'vitest';
import { BUNDLED_CONTENT_DIR } from '../../src/config/index.js';
import { loadSite, type Site } from '../../src/content/index.js';
import {
  AskResultSchema,
  createValidator,
  MAX_SECTIONS_PER_PAGE,
  type AskResult,
  type NlWebContentItem,
  type NlWebResponse,
} from '../../src/contract/index.js';
import { answerBody, answerFrame, answerParts } from '../../src/http/ask-answer.js';
import {
  ANSWER_DOORKEEPER_SIZE,
  contentOf,
  createAskService,
  type AskQuery,
  type AskService,
} from '../../src/nlweb/index.js';
import { handSite, loadFixtureSite, PUBLIC_BASE_URL } from './helpers.js';

const validateResult = createValidator(AskResultSchema);
const REQUEST_ID = '00000000-0000-4000-8000-000000000000';

function query(text: string, extra: Partial<AskQuery> = {}): AskQuery {
  return { text, maxResults: 10, conversationId: null, ...extra };
}

function results(answer: NlWebResponse): AskResult[] {
  return answer.content
    .filter((item): item is Extract<NlWebContentItem, { type: 'resource' }> => item.type === 'resource')
    .map((item) => item.resource.data as AskResult);
}

function summary(answer: NlWebResponse): string {
  const first = answer.content[0]!;
  expect(first.type).toBe('text');
  return (first as { text: string }).text;
}

function pageOf(result: AskResult): string {
  return new URL(result.url).pathname;
}

let site: Site;
let ask: AskService;
beforeAll(async () => {
  site = await loadFixtureSite();
  ask = createAskService(site, PUBLIC_BASE_URL);
});

describe('the ask service over the loaded fixture site', () => {
  it('indexes every passage of every page once', () => {
    expect(ask.pageCount).toBe(site.pages.length);
    expect(ask.passageCount).toBe(site.pages.reduce((n, page) => n + page.passages.length, 0));
    expect(ask.siteName).toBe('Acme Widgets');
  });

  it('answers with a summary text item, then one resource per result, best first', () => {
    const answer = ask.answer(query('encryption'), REQUEST_ID);
    expect(answer._meta).toEqual({ response_type: 'Answer', version: '0.55', request_id: REQUEST_ID });
    const list = results(answer);
    expect(list.length).toBeGreaterThan(2);
    expect(answer.content.length).toBe(list.length + 1);
    expect(answer.content.slice(1).every((item) => item.type === 'resource')).toBe(true);
    const scores = list.map((r) => r.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(summary(answer)).toBe(
      `Found ${list.length} results for “encryption” on Acme Widgets. Top result: ${list[0]!.name} (${list[0]!.url}).`,
    );
  });

  it('gives one result per page, with its best matching sections inside', () => {
    // The security page has five passages that mention encryption.
    const list = results(ask.answer(query('encryption', { maxResults: 50 }), REQUEST_ID));
    const pages = list.map(pageOf);
    expect(new Set(pages).size).toBe(pages.length);
    expect([...pages].sort()).toEqual(['/docs/getting-started', '/pricing', '/security']);
    const security = list.find((r) => pageOf(r) === '/security')!;
    expect(security.sections).toHaveLength(MAX_SECTIONS_PER_PAGE);
    expect(security.sections.map((s) => s.score)).toEqual(
      [...security.sections.map((s) => s.score)].sort((a, b) => b - a),
    );
    for (const s of security.sections) {
      expect(new URL(s.url).pathname).toBe('/security');
      expect(s.highlights.map((h) => s.description.slice(h.start, h.end).toLowerCase())).toContain(
        'encryption',
      );
    }
    // The result quotes its best section.
    expect(security.description).toBe(security.sections[0]!.description);
    expect(security.highlights).toEqual(security.sections[0]!.highlights);
    for (const r of list) expect(validateResult(r)).toMatchObject({ ok: true });
  });

  it('describes each result as one schema.org-style object with absolute links', () => {
    const answer = ask.answer(query('AES-256 encryption at rest'), REQUEST_ID);
    const item = answer.content[1] as Extract<NlWebContentItem, { type: 'resource' }>;
    const top = item.resource.data as AskResult;
    expect(validateResult(top)).toMatchObject({ ok: true });
    expect(top).toMatchObject({
      '@type': 'WebPage',
      url: `${PUBLIC_BASE_URL}/security`,
      name: 'Security',
      site: 'www.acme.test',
      datePublished: '2025-03-03',
      dateModified: '2025-06-01',
      keywords: ['security', 'encryption'],
    });
    expect(item.resource.uri).toBe(top.url);
    expect(item.resource.mimeType).toBe('text/html');
    expect(top.sections[0]).toMatchObject({
      name: 'Encryption at rest',
      url: `${PUBLIC_BASE_URL}/security#encryption-at-rest`,
    });
    expect(top.description).toBe('Stored data uses AES-256 encryption with keys rotated every ninety days.');
    expect(top.matchedTerms).toEqual(expect.arrayContaining(['256', 'encrypt', 'rest']));
    // Highlights point at the matched words inside the description.
    expect(top.matchedWords).toContain('encryption');
    const highlighted = top.highlights.map((h) => top.description.slice(h.start, h.end));
    expect(highlighted).toContain('encryption');
    expect(new Set(highlighted)).toEqual(new Set(top.matchedWords));
  });

  it('marks documentation pages as TechArticle and leaves out dates and keywords the page lacks', () => {
    const list = results(ask.answer(query('switch on encryption settings page'), REQUEST_ID));
    const docs = list.find((r) => pageOf(r) === '/docs/getting-started')!;
    expect(docs['@type']).toBe('TechArticle');
    expect(docs.name).toBe('Getting started');
    expect(docs.sections[0]!.name).toBe('Turn on encryption');
    expect(docs.keywords).toBeUndefined();
    const pricing = list.find((r) => pageOf(r) === '/pricing')!;
    expect(pricing['@type']).toBe('WebPage');
    expect(pricing.datePublished).toBeUndefined();
    expect(pricing.name).toBe('Pricing');
    expect(pricing.url).toBe(`${PUBLIC_BASE_URL}/pricing`);
    for (const r of list) expect(validateResult(r)).toMatchObject({ ok: true });
  });

  it('honours maxResults', () => {
    expect(results(ask.answer(query('encryption', { maxResults: 1 }), REQUEST_ID))).toHaveLength(1);
    expect(results(ask.answer(query('encryption', { maxResults: 3 }), REQUEST_ID))).toHaveLength(3);
    const one = ask.answer(query('encryption', { maxResults: 1 }), REQUEST_ID);
    expect(summary(one)).toMatch(/^Found 1 result for “encryption”/);
  });

  it('answers an unmatched query with one text item suggesting how to rephrase', () => {
    const answer = ask.answer(query('zebra quasar'), REQUEST_ID);
    expect(answer._meta.response_type).toBe('Answer');
    expect(answer.content).toEqual([
      {
        type: 'text',
        text:
          'Nothing on Acme Widgets matched “zebra quasar”. Try other words for the same thing, the name of a ' +
          'product, feature or document, or fewer words.',
      },
    ]);
  });

  it.each(['the of and', '?!', '  to   be  ', '…', '\u0000'])(
    'asks what to search for when %j has nothing searchable',
    (text) => {
      const answer = ask.answer(query(text), REQUEST_ID);
      expect(answer._meta.response_type).toBe('Elicitation');
      expect(answer.content).toHaveLength(1);
      expect(summary(answer)).toMatch(/^What would you like to find on Acme Widgets\?/);
    },
  );

  it('echoes conversation_id when given', () => {
    const answer = ask.answer(query('widgets', { conversationId: 'conv-7' }), REQUEST_ID);
    expect(answer._meta).toEqual({
      response_type: 'Answer',
      version: '0.55',
      conversation_id: 'conv-7',
      request_id: REQUEST_ID,
    });
  });

  it('normalises the query: case, white space and control characters do not change the answer', () => {
    const plain = ask.answer(query('encryption keys'), REQUEST_ID);
    const messy = ask.answer(query('  Encryption\n\t KEYS\u0007 '), REQUEST_ID);
    expect(results(messy)).toEqual(results(plain));
    expect(summary(messy)).toContain('“Encryption KEYS”');
  });
});

describe('determinism', () => {
  /** The same site with its pages and each page's passages in another order. */
  function shuffled(original: Site, seed: number): Site {
    let state = seed;
    const random = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const shuffle = <T>(items: T[]): T[] => {
      const out = [...items];
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [out[i], out[j]] = [out[j]!, out[i]!];
      }
      return out;
    };
    const pages = shuffle(original.pages).map((page) => ({ ...page, passages: shuffle(page.passages) }));
    return { ...original, pages, byUrl: new Map(pages.map((p) => [p.url, p])) };
  }

  it('gives byte-identical answers from services built with passages in another order', () => {
    const other = createAskService(shuffled(site, 42), PUBLIC_BASE_URL);
    const reversed = shuffled(site, 7);
    const third = createAskService(reversed, PUBLIC_BASE_URL);
    expect(reversed.pages.map((p) => p.url)).not.toEqual(site.pages.map((p) => p.url));
    for (const text of [
      'encryption',
      'hosting region',
      'widgets',
      'key rotation',
      'zebra',
      'the',
      'TLS 1.2',
    ]) {
      for (const maxResults of [1, 3, 10, 50]) {
        const expected = JSON.stringify(ask.answer(query(text, { maxResults }), REQUEST_ID));
        expect(JSON.stringify(other.answer(query(text, { maxResults }), REQUEST_ID))).toBe(expected);
        expect(JSON.stringify(third.answer(query(text, { maxResults }), REQUEST_ID))).toBe(expected);
      }
    }
  });

  it('answers the same query twice with the same bytes apart from request_id', () => {
    const a = ask.answer(query('encryption'), 'id-1');
    const b = ask.answer(query('encryption'), 'id-2');
    expect(JSON.stringify({ ...a, _meta: { ...a._meta, request_id: 'x' } })).toBe(
      JSON.stringify({ ...b, _meta: { ...b._meta, request_id: 'x' } }),
    );
  });
});

describe('the per-page cap with a hand-built site', () => {
  const flood = handSite('Flood', [
    {
      url: '/flood',
      title: 'Flood',
      lead: 'gadget gadget gadget',
      sections: Array.from({ length: 20 }, (_, i) => ({
        heading: `Gadget part ${i + 1}`,
        text: 'gadget gadget gadget gadget',
      })),
    },
    { url: '/other', title: 'Other', lead: 'One gadget among many other words about unrelated things here.' },
  ]);
  const service = createAskService(flood, 'http://localhost:8080/site');

  it('looks past a page that fills the first candidates, to fill the list from other pages', () => {
    const list = results(service.answer(query('gadget', { maxResults: 4 }), REQUEST_ID));
    expect(list.map(pageOf)).toEqual(['/site/flood', '/site/other']);
    expect(list[0]!.sections).toHaveLength(MAX_SECTIONS_PER_PAGE);
    expect(service.passageCount).toBe(22);
  });

  it('keeps a path prefix of the public base URL and uses the page description for an empty passage', () => {
    const small = handSite('Small', [
      { url: '/other', title: 'Other', lead: 'Words about unrelated things.' },
      {
        url: '/empty',
        title: 'Empty',
        description: 'The gizmo overview.',
        sections: [{ heading: 'Gizmo', text: '' }],
      },
    ]);
    const prefixed = createAskService(small, 'http://localhost:8080/site');
    const list = results(prefixed.answer(query('gizmo', { maxResults: 5 }), REQUEST_ID));
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      url: 'http://localhost:8080/site/empty',
      name: 'Empty',
      description: 'The gizmo overview.',
      site: 'localhost:8080',
      matchedWords: ['gizmo'],
    });
    expect(list[0]!.sections[0]).toMatchObject({
      url: 'http://localhost:8080/site/empty#gizmo',
      name: 'Gizmo',
    });
  });

  it('refuses streaming options outside their bounds', () => {
    expect(() => createAskService(flood, PUBLIC_BASE_URL, { streaming: { heartbeatMs: 16_000 } })).toThrow(
      /heartbeatMs/,
    );
    expect(() => createAskService(flood, PUBLIC_BASE_URL, { streaming: { batchSize: 0 } })).toThrow(
      /batchSize/,
    );
  });
});

/** The bytes the HTTP layer sends for this answer. */
const bytesOf = (service: AskService, q: AskQuery, requestId: string) =>
  answerBody(service.outcome(q), q, requestId);

describe('the answer cache', () => {
  const questions = [
    'encryption',
    'how do I install widgets',
    'the',
    'pricing plans for teams',
    'encryption',
  ];

  it('gives the same answers as an uncached service, and the same bytes as JSON', () => {
    const uncached = createAskService(site, PUBLIC_BASE_URL, { cacheSize: 0 });
    for (const maxResults of [1, 3, 10]) {
      for (const text of questions) {
        const q = query(text, { maxResults, conversationId: 'c-1' });
        const fromCache = ask.answer(q, REQUEST_ID);
        expect(fromCache).toEqual(uncached.answer(q, REQUEST_ID));
        expect(bytesOf(ask, q, REQUEST_ID).toString('utf8')).toBe(JSON.stringify(fromCache));
        expect(bytesOf(uncached, q, REQUEST_ID).toString('utf8')).toBe(JSON.stringify(fromCache));
      }
    }
  });

  it('answers a query object changed after use by its new text and bound', () => {
    const q = query('encryption');
    const first = ask.answer(q, REQUEST_ID);
    q.text = 'pricing';
    expect(ask.answer(q, REQUEST_ID)).toEqual(ask.answer(query('pricing'), REQUEST_ID));
    q.text = 'encryption';
    expect(ask.answer(q, REQUEST_ID)).toEqual(first);
    q.maxResults = 1;
    expect(ask.answer(q, REQUEST_ID).content).toHaveLength(2); // the summary and one result
  });

  it('keeps each request id apart and cannot be changed through an answer', () => {
    const first = ask.answer(query('encryption'), 'id-1');
    first.content.splice(0, first.content.length);
    const second = ask.answer(query('encryption'), 'id-2');
    expect(second._meta.request_id).toBe('id-2');
    expect(second.content.length).toBeGreaterThan(1);
  });

  it('keeps each answer as its JSON bytes, and gives its items back as new objects', () => {
    const q = query('encryption');
    const outcome = ask.outcome(q);
    expect(Object.keys(outcome).sort()).toEqual(['contentJson', 'lang', 'responseType', 'summary']);
    expect(contentOf(outcome)).toEqual(ask.answer(q, REQUEST_ID).content);
    expect(contentOf(outcome)).not.toBe(contentOf(outcome));
  });

  it('stays bounded, dropping the least recently used answer', () => {
    const small = createAskService(site, PUBLIC_BASE_URL, { cacheSize: 2 });
    const twice = (text: string) => {
      small.outcome(query(text));
      return small.outcome(query(text));
    };
    const a = twice('encryption');
    twice('pricing');
    expect(small.outcome(query('  encryption '))).toBe(a); // the same normalised query: refreshes it
    expect(small.cachedAnswerCount).toBe(2);
    twice('install'); // evicts "pricing", the least recently used
    expect(small.cachedAnswerCount).toBe(2);
    expect(small.isCached(query('encryption'))).toBe(true);
    expect(small.isCached(query('install'))).toBe(true);
    expect(small.isCached(query('pricing'))).toBe(false);
    expect(small.outcome(query('encryption'))).toBe(a);
    expect(createAskService(site, PUBLIC_BASE_URL, { cacheSize: 0 }).cachedAnswerCount).toBe(0);
  });

  it('keeps an answer from its second ask, so questions asked once cannot push out the popular ones', () => {
    const small = createAskService(site, PUBLIC_BASE_URL, { cacheSize: 2 });
    const popular = small.outcome(query('encryption'));
    expect(small.isCached(query('encryption'))).toBe(false);
    small.outcome(query('pricing'));
    const kept = small.outcome(query('encryption')); // asked again: computed again, kept from now on
    expect(kept).toEqual(popular);
    expect(small.isCached(query('encryption'))).toBe(true);
    for (const text of ['install', 'teams', 'widgets', 'sso', 'security review']) small.outcome(query(text));
    expect(small.cachedAnswerCount).toBe(1);
    expect(small.isCached(query('encryption'))).toBe(true);
    expect(small.counts).toMatchObject({ answers: 8, cacheHits: 0 });
    expect(small.outcome(query('encryption'))).toBe(kept);
    expect(small.counts.cacheHits).toBe(1);
  });

  it('gives the summary of the answer just computed without computing it again or keeping it', () => {
    const fresh = createAskService(site, PUBLIC_BASE_URL);
    const outcome = fresh.outcome(query('schedule of activities'));
    expect(fresh.summary(query('schedule of activities'))).toBe(outcome.summary);
    expect(fresh.cachedAnswerCount).toBe(0);
    expect(fresh.counts).toMatchObject({ answers: 1, cacheHits: 0 });
    // The same question twice in a row is one computation, and then kept.
    expect(fresh.outcome(query('schedule of activities'))).toBe(outcome);
    expect(fresh.counts).toMatchObject({ answers: 2, cacheHits: 1 });
    expect(fresh.cachedAnswerCount).toBe(1);
  });

  it('forgets questions asked once in one piece when the doorkeeper is full', () => {
    const fresh = createAskService(site, PUBLIC_BASE_URL);
    const first = fresh.outcome(query('question 0'));
    for (let i = 1; i <= ANSWER_DOORKEEPER_SIZE; i++) fresh.outcome(query(`question ${i}`));
    // "question 0" was forgotten with the rest: asked again it counts as a first ask.
    const again = fresh.outcome(query('question 0'));
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
    expect(fresh.isCached(query('question 0'))).toBe(false);
    fresh.outcome(query(`question ${ANSWER_DOORKEEPER_SIZE}`));
    expect(fresh.isCached(query(`question ${ANSWER_DOORKEEPER_SIZE}`))).toBe(true);
  });
});

describe('answer bytes', () => {
  it('lays out an answer around its request id as answerParts writes it', () => {
    const ids = [REQUEST_ID, 'proxy.id:42@edge/7+x=y_z-0'];
    for (const text of ['encryption', 'the']) {
      for (const conversationId of [null, 'c', 'gespräch “7”', 'a "quoted" \\u0000 id', '\\"\\u0000']) {
        const q = query(text, { conversationId });
        const outcome = ask.outcome(q);
        const frame = answerFrame(outcome, q);
        expect(frame, String(conversationId)).not.toBeNull();
        for (const requestId of ids) {
          const { head, content, tail } = answerParts(outcome, q, requestId);
          expect(frame!.before + requestId + frame!.after).toBe(head);
          expect(frame!.bytes + requestId.length).toBe(
            Buffer.byteLength(head) + content.length + tail.length,
          );
        }
      }
    }
  });

  it('gives no frame when another member shows the id mark (the writer then uses answerParts)', () => {
    for (const conversationId of ['\u0000', 'x"\u0000']) {
      const q = query('encryption', { conversationId });
      expect(answerFrame(ask.outcome(q), q)).toBeNull();
    }
  });

  it('gives the same bytes whole and in parts', () => {
    for (const text of ['encryption', 'the', 'pricing plans']) {
      for (const conversationId of [null, 'c', 'gespräch “7”']) {
        const q = query(text, { conversationId });
        for (const requestId of [REQUEST_ID, 'id "quoted" \\ ü']) {
          const { head, content, tail } = answerParts(ask.outcome(q), q, requestId);
          const whole = Buffer.concat([Buffer.from(head), content, Buffer.from(tail)]);
          expect(whole).toEqual(bytesOf(ask, q, requestId));
          expect(whole.toString('utf8')).toBe(JSON.stringify(ask.answer(q, requestId)));
        }
      }
    }
  });
});

describe('analysing snippet texts ahead of the questions', () => {
  let sample: Site;
  beforeAll(async () => {
    sample = (await loadSite(BUNDLED_CONTENT_DIR)).site;
  });

  it('goes through every passage in slices and changes no answer', () => {
    const analysed = createAskService(sample, PUBLIC_BASE_URL, { cacheSize: 0 });
    const plain = createAskService(sample, PUBLIC_BASE_URL, { cacheSize: 0 });
    expect(analysed.passageCount).toBeGreaterThan(64);
    // A budget of 0 still analyses 32 passages before the clock is read: one slice per 32.
    let slices = 1;
    while (!analysed.analyseSnippetTexts(0)) slices++;
    expect(slices).toBe(Math.ceil(analysed.passageCount / 32));
    expect(analysed.analyseSnippetTexts(0)).toBe(true);
    for (const text of [
      'protocol amendments',
      'informed consent form draft',
      'schedule of activities',
      'SSO',
    ]) {
      const asked = query(text);
      expect(answerBody(analysed.outcome(asked), asked, REQUEST_ID)).toEqual(
        answerBody(plain.outcome(asked), asked, REQUEST_ID),
      );
    }
  });

  it('finishes in one call when the budget allows', () => {
    const analysed = createAskService(sample, PUBLIC_BASE_URL, { cacheSize: 0 });
    let slices = 1;
    while (!analysed.analyseSnippetTexts(1000)) slices++;
    // A whole second is far more than the sample site's passages take.
    expect(slices).toBe(1);
  });
});
