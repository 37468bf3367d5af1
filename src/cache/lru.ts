/**
 * A bounded map that drops the least recently used entries when full: /ask's answers and scope
 * filters and the site's rendered pages keep what is asked often and stay within a fixed size. A Map's order is its insertion order, so a hit is moved to the end by
 * re-inserting it.
 *
 * The size is counted in entries, or in what `weigh` says an entry weighs (bytes, for the rendered
 * pages): a crawler that walks every page of a large site then costs renderings, not memory.
 */
export class LruCache<K, V> {
  readonly #entries = new Map<K, V>();
  readonly #weigh: ((value: V) => number) | null;
  #weight = 0;

  /**
   * `capacity` 0 keeps nothing. With `weigh`, the entries' weights add up to at most `capacity`,
   * and an entry heavier than that alone is not kept.
   */
  constructor(
    readonly capacity: number,
    weigh?: (value: V) => number,
  ) {
    if (!(Number.isInteger(capacity) && capacity >= 0))
      throw new RangeError('capacity must be a whole number ≥ 0');
    this.#weigh = weigh ?? null;
  }

  /** Entries kept. */
  get size(): number {
    return this.#entries.size;
  }

  /** What the entries kept weigh together (their number without `weigh`). */
  get weight(): number {
    return this.#weigh ? this.#weight : this.#entries.size;
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
    this.delete(key);
    const weight = this.#weigh ? this.#weigh(value) : 1;
    if (weight > this.capacity) return;
    while (this.weight + weight > this.capacity) this.delete(this.#entries.keys().next().value as K);
    this.#entries.set(key, value);
    this.#weight += this.#weigh ? weight : 0;
  }

  delete(key: K): void {
    if (!this.#entries.has(key)) return;
    if (this.#weigh) this.#weight -= this.#weigh(this.#entries.get(key) as V);
    this.#entries.delete(key);
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
