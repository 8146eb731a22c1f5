/** Votes per choice. */
export type Counts = Map<number, number>;

export function addCount(counts: Counts, choice: number, count: number): void {
  counts.set(choice, (counts.get(choice) ?? 0) + count);
}
