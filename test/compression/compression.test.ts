import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  CodedVariants,
  codedEtag,
  compress,
  GzipSplice,
  KEPT_BEST_MAX_BYTES,
} from '../../src/compression/index.js';
import { BUNDLED_CONTENT_DIR } from '../../src/config/index.js';
import { loadSite, type Site } from '../../src/content/index.js';
import { AnswerCoder } from '../../src/http/ask-answer.js';
import { negotiateCoding } from '../../src/http/negotiation.js';
import type { AskOutcome } from '../../src/nlweb/index.js';
import { renderSite } from '../../src/site/render-cache.js';

const BOTH = ['br', 'gzip'] as const;

describe('negotiateCoding (Accept-Encoding)', () => {
  const cases: [string | undefined, 'br' | 'gzip' | null][] = [
    [undefined, null], // no header: identity
    ['', null], // empty: only identity is acceptable
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['GZIP', 'gzip'],
    ['gzip, deflate, br', 'br'], // a tie: the server's order
    ['br;q=0.5, gzip', 'gzip'],
    ['br;q=0, gzip;q=0.1', 'gzip'],
    ['br;q=0, gzip;q=0', null],
    ['identity', null],
    ['identity;q=1, gzip;q=0.5', null],
    ['identity;q=0.2, gzip;q=0.5', 'gzip'],
    ['compress, deflate, zstd', null], // only codings the server does not send
    ['*', 'br'],
    ['*;q=0', null],
    ['gzip;q=0.8, *;q=0.1', 'gzip'],
    ['br;q=0, *', 'gzip'],
    ['br;q=2, gzip;q=0.9', 'br'], // an invalid q is ignored: br keeps q=1
    ['br;q=0.0001', 'br'], // four decimals are not a qvalue: ignored
    [' br ; q=0.9 ,gzip; q=0.8', 'br'],
  ];
  for (const [header, expected] of cases)
    it(`${JSON.stringify(header)} → ${expected ?? 'identity'}`, () => {
      expect(negotiateCoding(header, BOTH)).toBe(expected);
    });

  it('reads a header sent several times as one list', () => {
    expect(negotiateCoding(['br;q=0', 'gzip'], BOTH)).toBe('gzip');
  });

  it('breaks a tie by the order it is given', () => {
    expect(negotiateCoding('br, gzip', ['gzip', 'br'])).toBe('gzip');
  });
});

describe('coded variants', () => {
  const text = Buffer.from('Informed consent, schedule of activities. '.repeat(200));

  it('decompress to the same bytes, at every effort', () => {
    for (const effort of ['fresh', 'kept', 'best'] as const) {
      expect(brotliDecompressSync(compress(text, 'br', effort)).equals(text)).toBe(true);
      expect(gunzipSync(compress(text, 'gzip', effort)).equals(text)).toBe(true);
    }
  });

  it('have an ETag per coding, different from the identity one and from each other', () => {
    expect(codedEtag('"abc"', 'br')).toBe('"abc.br"');
    expect(codedEtag('"abc"', 'gzip')).toBe('"abc.gzip"');
    expect(codedEtag('"abc"', null)).toBe('"abc"');
    const variants = new CodedVariants(text, '"t"', { mode: 'on-request' });
    expect(variants.get('br')!.etag).toBe('"t.br"');
    expect(variants.get('gzip')!.etag).toBe('"t.gzip"');
  });

  it('are made once and counted: on a coding’s first request', () => {
    const lazy = new CodedVariants(text, '"t"', { mode: 'on-request' });
    expect(lazy.bytes).toBe(0);
    const br = lazy.get('br')!;
    expect(lazy.get('br')).toBe(br);
    expect(lazy.bytes).toBe(br.body.length);
    expect(br.body).toEqual(compress(text, 'br', 'best'));
  });

  it('are made in the background, each reported once stored, with the same bytes', async () => {
    let reported = 0;
    const background = new CodedVariants(text, '"t"', {
      mode: 'background',
      codings: ['br', 'gzip'],
      made: () => reported++,
    });
    expect(background.get('br')).toBeUndefined();
    await background.settled;
    expect(reported).toBe(2);
    expect(background.get('br')!.body).toEqual(compress(text, 'br', 'best'));
    expect(background.get('gzip')!.body).toEqual(compress(text, 'gzip', 'best'));
    expect(background.bytes).toBe(background.get('br')!.body.length + background.get('gzip')!.body.length);
  });

  it('compress a body too large for the best level at the kept level (same bytes as kept)', () => {
    const large = Buffer.alloc(KEPT_BEST_MAX_BYTES + 1, 'a');
    expect(new CodedVariants(large, '"l"', { mode: 'on-request' }).get('br')!.body).toEqual(
      compress(large, 'br', 'kept'),
    );
  });
});

describe('GzipSplice', () => {
  const suffix = Buffer.from(
    `${JSON.stringify(Array.from({ length: 40 }, (_, i) => ({ url: `/p/${i}`, text: 'ü'.repeat(i) })))}}`,
  );
  const splice = new GzipSplice(suffix);

  it('gives a gzip member that decompresses to head + suffix, for any head', () => {
    for (const head of [
      '',
      '{',
      '{"_meta":{"request_id":"0f6c…"},"content":',
      'x'.repeat(70_000).slice(0, 65_535),
    ]) {
      const headBytes = Buffer.from(head);
      const { before, after } = splice.wrap(headBytes);
      // gunzip checks the trailer's CRC-32 and length.
      const whole = gunzipSync(Buffer.concat([before, splice.deflated, after]));
      expect(whole.equals(Buffer.concat([headBytes, suffix]))).toBe(true);
    }
  });

  it('shares the deflated suffix (smaller than the suffix) and refuses a head a stored block cannot hold', () => {
    expect(splice.bytes).toBe(splice.deflated.length);
    expect(splice.bytes).toBeLessThan(suffix.length);
    expect(splice.identityBytes).toBe(suffix.length);
    expect(() => splice.wrap(Buffer.alloc(65_536))).toThrow(RangeError);
  });
});

describe('rendered pages with coded variants', () => {
  let site: Site;
  beforeAll(async () => {
    site = (await loadSite(BUNDLED_CONTENT_DIR)).site;
  });

  it('keep a page’s variants beside its bytes and count them in the budget once made', async () => {
    const rendered = renderSite(site, 'https://www.example.test', { codings: ['br', 'gzip'] });
    const home = rendered.byPath.get('/')!;
    void home.html;
    const kept = home.html;
    const body = kept.body as Buffer;
    expect(kept.variants).toBeDefined();
    expect(rendered.keptBytes).toBe(body.length);
    await kept.variants!.settled;
    expect(brotliDecompressSync(kept.variants!.get('br')!.body).equals(body)).toBe(true);
    expect(gunzipSync(kept.variants!.get('gzip')!.body).equals(body)).toBe(true);
    expect(rendered.keptBytes).toBe(body.length + kept.variants!.bytes);
  });

  it('stay within a budget of bytes that counts the variants', async () => {
    const plain = renderSite(site, 'https://www.example.test', { keptBytes: Number.MAX_SAFE_INTEGER });
    const coded = renderSite(site, 'https://www.example.test', {
      keptBytes: Number.MAX_SAFE_INTEGER,
      codings: ['br', 'gzip'],
    });
    for (const rendered of [plain, coded])
      for (let round = 0; round < 2; round++) for (const page of rendered.byPath.values()) void page.html;
    await Promise.all([...coded.byPath.values()].map((page) => page.html.variants?.settled));
    expect(coded.keptBytes).toBeGreaterThan(plain.keptBytes);
    const budget = Math.floor(coded.keptBytes / 3);
    const bounded = renderSite(site, 'https://www.example.test', {
      keptBytes: budget,
      codings: ['br', 'gzip'],
    });
    // Variants made in the background while pages are asked and dropped: the budget holds throughout.
    for (let round = 0; round < 3; round++)
      for (const page of bounded.byPath.values()) {
        const made = page.html.variants?.settled;
        expect(bounded.keptBytes).toBeLessThanOrEqual(budget);
        await made;
        expect(bounded.keptBytes).toBeLessThanOrEqual(budget);
      }
    expect(bounded.keptBytes).toBeGreaterThan(budget / 2);
  });
});

describe('AnswerCoder', () => {
  const outcome = (i: number): AskOutcome =>
    Object.freeze({
      responseType: 'Answer',
      lang: null,
      contentJson: Buffer.from(
        JSON.stringify(
          Array.from({ length: 60 }, (_, j) => ({ url: `/p/${i}/${j}`, text: `passage ${j} of ${i}` })),
        ),
      ),
      summary: { resultCount: 1, queryTermCount: 1, weak: false, topScore: 1 },
    });
  const head = '{"_meta":{"response_type":"Answer","version":"0.55","request_id":"r-1"},"content":';

  it('answers a popular answer in gzip from its splice, byte-identical once decoded', () => {
    const coder = new AnswerCoder();
    const answer = outcome(1);
    const chunks = coder.coded(answer, head, 'gzip', true);
    expect(chunks).toHaveLength(3);
    const expected = Buffer.concat([Buffer.from(head), answer.contentJson, Buffer.from('}')]);
    expect(gunzipSync(Buffer.concat(chunks)).equals(expected)).toBe(true);
    // The deflated content is shared by the next response.
    expect(coder.coded(answer, head.replace('r-1', 'r-2'), 'gzip', true)[1]).toBe(chunks[1]);
    const [fresh] = coder.coded(answer, head, 'br', false);
    expect(brotliDecompressSync(fresh!).equals(expected)).toBe(true);
  });

  it('keeps its splices within its budget of bytes, identity content counted', () => {
    const one = new AnswerCoder();
    one.coded(outcome(0), head, 'gzip', true);
    const weight = one.keptBytes;
    expect(weight).toBeGreaterThan(outcome(0).contentJson.length);
    const budget = weight * 10;
    const coder = new AnswerCoder(budget);
    for (let i = 0; i < 50; i++) {
      coder.coded(outcome(i), head, 'gzip', true);
      expect(coder.keptBytes).toBeLessThanOrEqual(budget);
    }
    expect(coder.keptBytes).toBeGreaterThan(budget / 2);
  });
});
