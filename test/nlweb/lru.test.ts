import { describe, expect, it } from 'vitest';
import { LruCache } from '../../src/nlweb/index.js';

describe('LruCache', () => {
  it('drops the least recently used entry when full; a read counts as use', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1); // a is now the most recent
    cache.set('c', 3); // drops b
    expect(cache.has('b')).toBe(false);
    expect(cache.has('a')).toBe(true);
    expect(cache.has('c')).toBe(true);
    expect(cache.size).toBe(2);
  });

  it('replaces a value without growing, and makes a missing one once', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('a', 2);
    expect(cache.size).toBe(1);
    expect(cache.get('a')).toBe(2);
    let made = 0;
    const make = () => ++made;
    expect(cache.getOrSet('x', make)).toBe(1);
    expect(cache.getOrSet('x', make)).toBe(1);
    expect(made).toBe(1);
  });

  it('keeps nothing at capacity 0 and refuses a bad capacity', () => {
    const none = new LruCache<string, number>(0);
    none.set('a', 1);
    expect(none.size).toBe(0);
    expect(none.getOrSet('a', () => 5)).toBe(5);
    expect(none.size).toBe(0);
    expect(() => new LruCache(-1)).toThrow(RangeError);
    expect(() => new LruCache(1.5)).toThrow(RangeError);
  });
});
