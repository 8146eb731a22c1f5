/**
 * Ids in ascending order, each with `width` numbers, in two plain arrays. Each signed-in person
 * kept in memory holds their answers, likes, hidden questions and blocks by the hundred: kept this
 * way, someone with 40 answers, 15 likes and 10 follows takes about 2 KB of V8's heap, where Maps
 * and Sets of the same took about 4.5 KB. (Typed arrays take less an id, but each is a buffer
 * allocated outside the heap: with them, every call that read a state ran at about half its
 * speed.) Lookups are binary searches; an insertion shifts the ids after it, cheap for the few
 * hundred ids a person has.
 */
export class IdTable implements Iterable<number> {
  private readonly ids: number[] = [];
  private readonly values: number[] = [];

  /** `rows` holds, for each id, the id then its `width` numbers; ids may come in any order. */
  constructor(
    private readonly width: number,
    rows: readonly (readonly number[])[] = [],
  ) {
    for (const [id, ...values] of [...rows].sort((a, b) => a[0] - b[0])) this.set(id, values);
  }

  get size(): number {
    return this.ids.length;
  }

  has(id: number): boolean {
    return this.indexOf(id) >= 0;
  }

  /** The `column`th number of `id`, undefined when `id` is not in the table. */
  value(id: number, column: number): number | undefined {
    const row = this.rowOf(id);
    return row < 0 ? undefined : this.at(row, column);
  }

  /** Where `id` is, to read several of its numbers with one search; -1 when it is not in the table. */
  rowOf(id: number): number {
    return Math.max(this.indexOf(id), -1);
  }

  /** The `column`th number of the id at `row`. */
  at(row: number, column: number): number {
    return this.values[row * this.width + column];
  }

  /** Adds `id` with `values`, or replaces its values. */
  set(id: number, values: readonly number[] = []): void {
    const row = values.slice(0, this.width);
    const index = this.indexOf(id);
    if (index >= 0) {
      this.values.splice(index * this.width, this.width, ...row);
      return;
    }
    const at = -index - 1;
    this.ids.splice(at, 0, id);
    this.values.splice(at * this.width, 0, ...row);
  }

  delete(id: number): boolean {
    const index = this.indexOf(id);
    if (index < 0) return false;
    this.ids.splice(index, 1);
    this.values.splice(index * this.width, this.width);
    return true;
  }

  [Symbol.iterator](): IterableIterator<number> {
    return this.ids.values();
  }

  /** Where `id` is, or -(where it would go) - 1. */
  private indexOf(id: number): number {
    const ids = this.ids;
    let low = 0;
    let high = ids.length - 1;
    // Appending in order, as reading from the database and most new answers do, skips the search.
    if (high < 0 || ids[high] < id) return -ids.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const found = ids[middle];
      if (found < id) low = middle + 1;
      else if (found > id) high = middle - 1;
      else return middle;
    }
    return -low - 1;
  }
}

/** A set of ids in the compact form of `IdTable`. */
export class IdSet extends IdTable {
  constructor(ids: readonly number[] = []) {
    super(
      0,
      ids.map((id) => [id]),
    );
  }

  add(id: number): void {
    this.set(id);
  }
}
