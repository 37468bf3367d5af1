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
  /** Each entry's weight as last counted (with `weigh`): an entry may grow after it is stored. */
  readonly #weights = new Map<K, number>();
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
    if (this.#weigh) {
      this.#weights.set(key, weight);
      this.#weight += weight;
    }
  }

  delete(key: K): void {
    if (!this.#entries.has(key)) return;
    if (this.#weigh) {
      this.#weight -= this.#weights.get(key)!;
      this.#weights.delete(key);
    }
    this.#entries.delete(key);
  }

  /**
   * Weighs `key`'s entry again, if it is still `value` (a rendered page whose compressed variants
   * were made after it was stored), and drops the least recently used others, or it, to stay
   * within the capacity. Its place in the order does not change.
   */
  reweigh(key: K, value: V): void {
    if (!this.#weigh || this.#entries.get(key) !== value) return;
    const weight = this.#weigh(value);
    if (weight > this.capacity) return this.delete(key);
    this.#weight += weight - this.#weights.get(key)!;
    this.#weights.set(key, weight);
    for (const other of this.#entries.keys()) {
      if (this.#weight <= this.capacity) break;
      if (other !== key) this.delete(other);
    }
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
