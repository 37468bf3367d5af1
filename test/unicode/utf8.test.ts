import { describe, expect, it } from 'vitest';
import { UTF8_SCRATCH_BYTES, utf8Bytes } from '../../src/unicode/index.js';

/** Texts whose bytes must come out exactly as Buffer.from writes them. */
const TEXTS = [
  '',
  'plain ASCII',
  'Latin-1: café, naïve, ½',
  'cut here…, “quoted”, · dot, — dash',
  'astral 😀 and 𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  'a lone high surrogate \ud800 and a lone low one \udc00 in the middle',
  'ends on a high surrogate \ud83d',
];

describe('utf8Bytes', () => {
  it('writes the bytes Buffer.from writes, lone surrogates included', () => {
    for (const text of TEXTS) {
      const bytes = utf8Bytes(text);
      expect(Buffer.isBuffer(bytes)).toBe(true);
      expect(bytes.equals(Buffer.from(text, 'utf8'))).toBe(true);
      expect(bytes.length).toBe(Buffer.byteLength(text, 'utf8'));
    }
  });

  it('gives each text its own bytes: a later call does not change an earlier result', () => {
    const first = utf8Bytes('first answer “one”');
    const second = utf8Bytes('second answer, longer than the first one…');
    expect(first.toString('utf8')).toBe('first answer “one”');
    expect(second.toString('utf8')).toBe('second answer, longer than the first one…');
  });

  it('encodes texts on both sides of the scratch buffer’s bound', () => {
    const fits = '…'.repeat(Math.floor(UTF8_SCRATCH_BYTES / 3));
    const beyond = `${fits}😀x`;
    for (const text of [fits, beyond, 'é'.repeat(UTF8_SCRATCH_BYTES)]) {
      expect(utf8Bytes(text).equals(Buffer.from(text, 'utf8'))).toBe(true);
    }
  });
});
