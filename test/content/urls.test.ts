import { describe, expect, it } from 'vitest';
import { absoluteUrl, encodePagePath } from '../../src/content/index.js';

describe('absoluteUrl', () => {
  it('percent-encodes each segment of a decoded page URL, keeping the slashes', () => {
    expect(absoluteUrl('https://example.com', '/places/Ħal Far')).toBe(
      'https://example.com/places/%C4%A6al%20Far',
    );
    expect(absoluteUrl('https://example.com', '/tldr/common/%')).toBe('https://example.com/tldr/common/%25');
  });

  it('keeps a path prefix of the public base URL and plain paths as they are', () => {
    expect(absoluteUrl('https://example.com/site', '/')).toBe('https://example.com/site/');
    expect(absoluteUrl('https://example.com/site', '/.well-known/api-catalog')).toBe(
      'https://example.com/site/.well-known/api-catalog',
    );
  });

  it('agrees with encodePagePath, the href form of the same URL', () => {
    const url = '/docs/a b/ü?#';
    expect(absoluteUrl('https://example.com', url)).toBe(`https://example.com${encodePagePath(url)}`);
  });
});
