import { describe, expect, it } from 'vitest';
import { MAX_FORM_FIELDS, parseFormBody } from '../../src/http/body-parsers.js';

/** A form body of about `bytes` bytes made of `field(i)` joined by `&`. */
function body(bytes: number, field: (i: number) => string): string {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < bytes; i += 1) {
    const part = field(i);
    parts.push(part);
    length += part.length + 1;
  }
  return parts.join('&');
}

/** Nanoseconds per byte of one timed round: `text` parsed until `totalBytes` bytes were parsed. */
function round(text: string, parse: (text: string) => unknown, totalBytes: number): number {
  const rounds = Math.max(1, Math.round(totalBytes / text.length));
  const started = process.hrtime.bigint();
  for (let i = 0; i < rounds; i += 1) parse(text);
  return Number(process.hrtime.bigint() - started) / (rounds * text.length);
}

/**
 * Per-byte cost at the large size over per-byte cost at the small one (8x larger): about 1 when
 * parsing is linear, about 8 when quadratic. The same number of bytes is parsed at both sizes, the
 * rounds alternate between them, and the fastest round of each is kept, so a busy machine (other
 * processes, a garbage collection) inflates neither size alone.
 */
function growth(
  field: (i: number) => string,
  parse: (text: string) => unknown,
  [smallBytes, largeBytes, totalBytes] = [8 * 1024, 64 * 1024, 512 * 1024],
): number {
  const small = body(smallBytes, field);
  const large = body(largeBytes, field);
  round(small, parse, totalBytes); // warm-up: JIT and caches
  round(large, parse, totalBytes);
  let [bestSmall, bestLarge] = [Infinity, Infinity];
  for (let trial = 0; trial < 9; trial += 1) {
    bestSmall = Math.min(bestSmall, round(small, parse, totalBytes));
    bestLarge = Math.min(bestLarge, round(large, parse, totalBytes));
  }
  return bestLarge / bestSmall;
}

/** Linear growth with room for a noisy machine; quadratic growth measures about 8. */
const LINEAR = 4;

describe('form body parsing is linear', () => {
  it('a repeated key (a=1&a=1&…, the attack) costs no more per byte at 64 KiB than at 8 KiB', () => {
    expect(
      growth(
        () => 'a=1',
        (text) => parseFormBody(text),
      ),
    ).toBeLessThan(LINEAR);
  });

  it('distinct keys, without the field cap, grow linearly', () => {
    expect(
      growth(
        (i) => `f${i}=%41+b`,
        (text) => parseFormBody(text, Infinity),
      ),
    ).toBeLessThan(LINEAR);
  });

  it('one long encoded value grows linearly', () => {
    // One field whose value is the whole body (é, x and + repeated).
    const oneField = (text: string) => parseFormBody(`message=${text.replace(/&/g, '')}`);
    expect(growth(() => '%C3%A9x+', oneField)).toBeLessThan(LINEAR);
  });

  it('the measure itself tells quadratic from linear (the old array-copying parser)', () => {
    // The parser this replaced: it copied the array of values on every repeat of a key.
    const copying = (text: string) => {
      const entries = new Map<string, string | string[]>();
      for (const [key, value] of new URLSearchParams(text)) {
        const previous = entries.get(key);
        if (previous === undefined) entries.set(key, value);
        else entries.set(key, Array.isArray(previous) ? [...previous, value] : [previous, value]);
      }
      return entries;
    };
    // Smaller sizes (the same 8x step) keep the quadratic control quick.
    expect(growth(() => 'a=1', copying, [1024, 8 * 1024, 16 * 1024])).toBeGreaterThan(LINEAR);
  });
});

describe('form body rules', () => {
  it('refuses a repeated key, naming it', () => {
    expect(parseFormBody('email=a%40b.co&name=A&name=B')).toEqual({
      ok: false,
      problem: { field: 'name', message: 'was sent more than once', fix: 'send the field once' },
    });
    expect(parseFormBody('a=&a=x').ok).toBe(false);
  });

  it(`refuses more than ${MAX_FORM_FIELDS} fields`, () => {
    const result = parseFormBody(body(4000, (i) => `x${i}=1`));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem.message).toBe(`has more than ${MAX_FORM_FIELDS} form fields`);
    expect(parseFormBody(body(200, (i) => `x${i}=1`)).ok).toBe(true);
  });

  it('decodes as browsers encode, drops empty values and keeps __proto__ as data', () => {
    const result = parseFormBody('name=Dana+Reyes&email=a%40b.co&company=&bad=%E0%A4%A&__proto__=x&&');
    expect(result).toEqual({
      ok: true,
      fields: {
        name: 'Dana Reyes',
        email: 'a@b.co',
        bad: new URLSearchParams('x=%E0%A4%A').get('x'),
        ['__proto__']: 'x',
      },
    });
    if (result.ok) expect(Object.getPrototypeOf(result.fields)).toBe(Object.prototype);
  });
});
