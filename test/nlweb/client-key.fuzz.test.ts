import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clientKey } from '../../src/http-primitives/index.js';

/**
 * The /ask and /search limits, the stream caps and insight's k threshold count clients by
 * clientKey. Properties over the textual forms an address can arrive in (compressed or not,
 * leading zeros, upper case, an embedded IPv4 tail, a zone): one /64 is one client, two /64s are
 * two, and an IPv4-mapped address is its IPv4 client whichever way it is written.
 */

const group = fc.integer({ min: 0, max: 0xffff });
const groups = (n: number) => fc.array(group, { minLength: n, maxLength: n });
const ipv4 = fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 4, maxLength: 4 });

interface Style {
  compress: boolean;
  pad: boolean;
  upper: boolean;
  zone: boolean;
}
const style = fc.record({
  compress: fc.boolean(),
  pad: fc.boolean(),
  upper: fc.boolean(),
  zone: fc.boolean(),
});

/** One of the many spellings of the same eight groups (RFC 4291 section 2.2). */
function spell(words: number[], s: Style, v4Tail?: number[]): string {
  let parts = words.map((w) => (s.pad ? w.toString(16).padStart(4, '0') : w.toString(16)));
  if (v4Tail) parts = [...parts.slice(0, 6), v4Tail.join('.')];
  let text = parts.join(':');
  if (s.compress) {
    // Compress the longest run of zero groups (in the hex part) to `::`.
    let best = [-1, 0];
    const limit = v4Tail ? 6 : 8;
    for (let i = 0; i < limit;) {
      let j = i;
      while (j < limit && words[j] === 0) j++;
      if (j - i > best[1]!) best = [i, j - i];
      i = j === i ? i + 1 : j;
    }
    if (best[1]! >= 1) {
      const [start, length] = best as [number, number];
      text = `${parts.slice(0, start).join(':')}::${parts.slice(start + length).join(':')}`;
    }
  }
  if (s.upper) text = text.toUpperCase();
  return s.zone ? `${text}%eth0` : text;
}

const v4Words = (v4: number[]) => [(v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!];

describe('clientKey', () => {
  it('maps every address of one /64 to one key, however written', () => {
    fc.assert(
      fc.property(groups(4), groups(4), groups(4), style, style, (net, a, b, s1, s2) => {
        expect(clientKey(spell([...net, ...a], s1))).toBe(clientKey(spell([...net, ...b], s2)));
      }),
      { numRuns: 500 },
    );
  });

  it('maps addresses of different /64s to different keys', () => {
    fc.assert(
      fc.property(groups(4), groups(4), groups(8), style, style, (net1, net2, hosts, s1, s2) => {
        fc.pre(net1.some((w, i) => w !== net2[i]));
        const one = clientKey(spell([...net1, ...hosts.slice(0, 4)], s1));
        const two = clientKey(spell([...net2, ...hosts.slice(4)], s2));
        expect(one).not.toBe(two);
      }),
      { numRuns: 500 },
    );
  });

  it('gives an IPv4-mapped address, in any spelling, its IPv4 key', () => {
    fc.assert(
      fc.property(ipv4, style, fc.boolean(), (v4, s, dotted) => {
        const words = [0, 0, 0, 0, 0, 0xffff, ...v4Words(v4)];
        const key = clientKey(spell(words, { ...s, zone: false }, dotted ? v4 : undefined));
        expect(key).toBe(v4.join('.'));
        expect(clientKey(v4.join('.'))).toBe(key);
      }),
      { numRuns: 500 },
    );
  });

  it('never gives an IPv6 client an IPv4 client key, nor two IPv4 addresses one key', () => {
    fc.assert(
      fc.property(ipv4, ipv4, groups(8), style, (a, b, words, s) => {
        fc.pre(a.join('.') !== b.join('.'));
        expect(clientKey(a.join('.'))).not.toBe(clientKey(b.join('.')));
        fc.pre(!(words.slice(0, 5).every((w) => w === 0) && words[5] === 0xffff));
        expect(clientKey(spell(words, s))).toMatch(/::\/64$/);
      }),
      { numRuns: 500 },
    );
  });
});
