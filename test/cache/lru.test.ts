import { describe, expect, it } from 'vitest';
import { LruCache } from '../../src/cache/index.js';

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

  it('with a weight, keeps what fits in the capacity, dropping the least recently used first', () => {
    const cache = new LruCache<string, string>(10, (value) => value.length);
    cache.set('a', 'xxxx');
    cache.set('b', 'yyyy');
    expect(cache.weight).toBe(8);
    cache.get('a'); // b is now the least recently used
    cache.set('c', 'zzz'); // 11 > 10: drops b
    expect([cache.has('a'), cache.has('b'), cache.has('c')]).toEqual([true, false, true]);
    expect(cache.weight).toBe(7);
    cache.set('a', 'x'); // replaced: its old weight is given back
    expect(cache.weight).toBe(4);
    cache.set('d', 'wwwwwwwww'); // 4 + 9 > 10: drops c (3), the least recent; a (1) still fits
    expect([cache.has('a'), cache.has('c'), cache.has('d')]).toEqual([true, false, true]);
    expect(cache.weight).toBe(10);
    cache.set('e', 'v'.repeat(11)); // heavier than the capacity alone: not kept, nothing dropped
    expect([cache.has('e'), cache.has('a'), cache.has('d')]).toEqual([false, true, true]);
    cache.delete('d');
    cache.delete('a');
    expect([cache.size, cache.weight]).toEqual([0, 0]);
  });

  it('weighs an entry again when it grew after it was stored, dropping the least recent others', () => {
    // Values that grow in place, as a rendered page does when its compressed variants are made.
    const grown = new Map<string, number>();
    const cache = new LruCache<string, { name: string }>(10, (value) => grown.get(value.name) ?? 2);
    const [a, b, c] = [{ name: 'a' }, { name: 'b' }, { name: 'c' }];
    cache.set('a', a);
    cache.set('b', b);
    cache.set('c', c);
    expect(cache.weight).toBe(6);
    grown.set('c', 7);
    cache.reweigh('c', c); // 2 + 2 + 7 > 10: drops a, the least recent, not c
    expect([cache.has('a'), cache.has('b'), cache.has('c'), cache.weight]).toEqual([false, true, true, 9]);
    cache.reweigh('b', { name: 'b' }); // another value under the key: nothing happens
    expect(cache.weight).toBe(9);
    grown.set('c', 11);
    cache.reweigh('c', c); // heavier than the capacity alone: dropped
    expect([cache.has('c'), cache.weight]).toEqual([false, 2]);
    cache.delete('b');
    expect(cache.weight).toBe(0);
  });
});
