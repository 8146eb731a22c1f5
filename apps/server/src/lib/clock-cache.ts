interface Entry<V> {
  value: V;
  size: number;
  /** Used since the sweep last passed it. */
  used: boolean;
}

/** What a cache holds and how well it serves, for the metrics. */
export interface CacheStats {
  /** Lookups that found their key, and that did not, since the cache was made. */
  hits: number;
  misses: number;
  entries: number;
  /** The entries' sizes added up, in the cache's unit (bytes, cells, ids…), and the most it keeps. */
  used: number;
  budget: number;
}

/**
 * A map that drops what is least used once its entries' sizes pass a budget, by second chance:
 * a hit only marks its entry, and the sweep that makes room passes over the oldest entries,
 * dropping those unmarked and moving the marked to the back unmarked. Moving an entry on every
 * hit, as a strict least-recently-used order does, costs microseconds per hit in a large Map.
 */
export class ClockCache<K, V> {
  private readonly entries = new Map<K, Entry<V>>();
  private total = 0;
  private hits = 0;
  private misses = 0;

  /**
   * `dropped` is told of every value that stops being kept (swept, deleted, replaced or cleared),
   * so that what was made from it can tell it is no longer kept current.
   */
  constructor(
    private readonly budget: number,
    private readonly sizeOf: (value: V) => number = () => 1,
    private readonly dropped: (value: V) => void = () => {},
  ) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) {
      this.misses += 1;
      return undefined;
    }
    this.hits += 1;
    entry.used = true;
    return entry.value;
  }

  /** Whether the key is kept, without counting as a use, a hit or a miss. */
  has(key: K): boolean {
    return this.entries.has(key);
  }

  stats(): CacheStats {
    return { hits: this.hits, misses: this.misses, entries: this.entries.size, used: this.total, budget: this.budget };
  }

  set(key: K, value: V): void {
    this.delete(key);
    const size = this.sizeOf(value);
    this.entries.set(key, { value, size, used: false });
    this.total += size;
    if (this.total > this.budget) this.makeRoom(key);
  }

  /** The value of `key` changed in place: its size is counted again. */
  resized(key: K): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    const size = this.sizeOf(entry.value);
    this.total += size - entry.size;
    entry.size = size;
    if (this.total > this.budget) this.makeRoom(key);
  }

  delete(key: K): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.total -= entry.size;
    this.entries.delete(key);
    this.dropped(entry.value);
  }

  *values(): IterableIterator<V> {
    for (const entry of this.entries.values()) yield entry.value;
  }

  /** Each key with its value; changing what is kept while going through it is for after. */
  *keyed(): IterableIterator<[K, V]> {
    for (const [key, entry] of this.entries) yield [key, entry.value];
  }

  clear(): void {
    for (const { value } of this.entries.values()) this.dropped(value);
    this.entries.clear();
    this.total = 0;
  }

  private makeRoom(keep: K): void {
    // A Map iterates what is moved to its back too: each entry is met at most twice.
    for (const [key, entry] of this.entries) {
      if (this.total <= this.budget) return;
      if (key === keep) continue;
      this.entries.delete(key);
      if (entry.used) {
        entry.used = false;
        this.entries.set(key, entry);
      } else {
        this.total -= entry.size;
        this.dropped(entry.value);
      }
    }
  }
}
