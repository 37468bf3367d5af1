/**
 * A bounded map that drops the least recently used entry when full: the /ask caches (answers,
 * analysed passages, parsed URLs) keep what is asked often and stay within a fixed size. A Map's
 * order is its insertion order, so a hit is moved to the end by re-inserting it.
 */
export class LruCache<K, V> {
  readonly #entries = new Map<K, V>();

  /** `capacity` 0 keeps nothing. */
  constructor(readonly capacity: number) {
    if (!(Number.isInteger(capacity) && capacity >= 0))
      throw new RangeError('capacity must be a whole number ≥ 0');
  }

  get size(): number {
    return this.#entries.size;
  }

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  /** The value, now the most recently used; undefined when absent. */
  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    if (this.capacity === 0) return;
    this.#entries.delete(key);
    if (this.#entries.size >= this.capacity) this.#entries.delete(this.#entries.keys().next().value as K);
    this.#entries.set(key, value);
  }

  /** The cached value, or `make()`'s, which is then kept. */
  getOrSet(key: K, make: () => V): V {
    let value = this.get(key);
    if (value === undefined) {
      value = make();
      this.set(key, value);
    }
    return value;
  }
}
