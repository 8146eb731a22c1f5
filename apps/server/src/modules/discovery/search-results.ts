import type { SearchMatch } from '../../db/search-index.js';
import { ClockCache, type CacheStats } from '../../lib/clock-cache.js';

/**
 * Pages of search matches kept by their words and place, for everyone: the same words searched
 * again (a popular topic, the prefixes people type on the way to it) are answered without the
 * full-text index. What a page holds depends on the questions alone; whom each is shown to is
 * decided later, per reader (views/rules.ts). A question asked or deleted anywhere can change
 * any page, so every page goes then (its applier, plugins/app/memory.ts); a read that began before is not kept,
 * nor one from a replica that may not have replayed that change yet.
 */
export class SearchResults {
  private readonly pages: ClockCache<string, SearchMatch[]>;
  /** Moves whenever the questions change: a page read before that is not kept. */
  private generation = 0;
  /** When the questions last changed (Date.now()). */
  private changedAt = -Infinity;

  constructor(maxPages: number) {
    this.pages = new ClockCache(maxPages);
  }

  /**
   * The page of `key`, kept or read; `settledMs`: `read` sees only what committed that long ago (a replica), 0 for the
   * primary.
   */
  async page(key: string, read: () => Promise<SearchMatch[]>, settledMs: number): Promise<SearchMatch[]> {
    const kept = this.pages.get(key);
    if (kept) return kept;
    const generation = this.generation;
    const settled = Date.now() - this.changedAt >= settledMs;
    const matches = await read();
    if (generation === this.generation && settled) this.pages.set(key, matches);
    return matches;
  }

  /** Questions were asked or deleted, here or elsewhere, or changes may have gone unheard. */
  questionsChanged(): void {
    this.generation += 1;
    this.changedAt = Date.now();
    this.pages.clear();
  }

  /** What is kept, for the metrics. */
  stats(): CacheStats {
    return this.pages.stats();
  }
}
