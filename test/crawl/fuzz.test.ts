import { isAbsolute, join, normalize, relative, sep } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mirrorPath } from '../../src/crawl/mirror.js';

// Issue 37's path class on the crawler's surface: a crawled URL can never name a file outside the
// mirror, nor one a file system refuses.

/** Path segments as a hostile sitemap could write them: dots, encoded separators, NUL, Unicode. */
const segment = fc.oneof(
  fc.constantFrom(
    '..',
    '.',
    '%2e%2e',
    '%2E%2e',
    '%2f',
    '%5c',
    '..%2f',
    '%00',
    '',
    '.git',
    '%ZZ',
    '~',
    'a%2F..',
  ),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.stringMatching(/^[a-z0-9._%-]{1,12}$/),
  fc.string({ unit: 'grapheme', minLength: 60, maxLength: 140 }),
);

describe('the crawl mirror', () => {
  it('never maps a URL to a file outside the mirror folder, however its path is written', () => {
    const root = join(sep, 'mirror', 'site');
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 8 }), fc.boolean(), (segments, trailingSlash) => {
        const path =
          '/' + segments.map((s) => encodeURI(s).replace(/%25/g, '%')).join('/') + (trailingSlash ? '/' : '');
        let url: URL;
        try {
          url = new URL(path, 'https://www.example.com');
        } catch {
          return;
        }
        const mapped = mirrorPath(url);
        if (mapped === null) return;
        expect(isAbsolute(mapped.file)).toBe(false);
        expect(mapped.file).not.toMatch(/\0/);
        const inside = relative(root, normalize(join(root, mapped.file)));
        expect(inside.startsWith('..') || isAbsolute(inside), `${path} → ${mapped.file}`).toBe(false);
        expect(inside.split(sep).some((part) => part.startsWith('.'))).toBe(false);
        for (const part of inside.split(sep)) expect(Buffer.byteLength(part)).toBeLessThanOrEqual(255);
      }),
      { numRuns: 2_000 },
    );
  });
});
