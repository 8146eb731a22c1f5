import type { Db } from '../../db/index.js';
import { ClockCache, type CacheStats } from '../../lib/clock-cache.js';
import type { Buckets } from './buckets.js';
import { addCount, type Counts } from './counts.js';
import type { NoiseStore } from './noise-store.js';
import { RELATE_VARIANCE, RELEASES } from './privacy-budget.js';
import { latestEpoch, type RelateEpoch, type Reach } from './relate-releases.js';

/** Votes per choice of one question, then per choice of another: cells.get(a)?.get(b). */
export type Cells = Map<number, Counts>;

/** The people who answered both questions of a pair, counted by their two answers, at one epoch of the pair's relate release. */
export interface PairTable extends RelateEpoch {
  low: number;
  high: number;
  /** Each question's `votes_removed` when the table was counted: once more are removed, it is counted again. */
  removed: Reach;
  /** Rows by the answer to the question with the lower id, columns by the answer to the other. */
  cells: Cells;
  /** The noise of the release's cells at this epoch, once read, by the pair's buckets. */
  noise: Promise<Int32Array> | null;
}

interface CellRow {
  low: number;
  high: number;
  voters: number;
}

function addCells(cells: Cells, rows: CellRow[]): void {
  for (const row of rows) {
    let byHigh = cells.get(row.low);
    if (!byHigh) cells.set(row.low, (byHigh = new Map()));
    addCount(byHigh, row.high, Number(row.voters));
  }
}

function cellCount(cells: Cells): number {
  let count = 0;
  for (const byHigh of cells.values()) count += byHigh.size;
  return count;
}

/** How many pairs that can never be opened each instance remembers, so as not to ask the database again. */
const CLOSED_PAIRS_KEPT = 10_000;

/**
 * The cross-tables of question pairs that relate and related questions read, kept in memory at
 * the latest epoch of each pair's relate release (relate-releases.ts), and moved on from the
 * votes cast since: a vote's `seq` (its place in its question's order, handed out in commit
 * order) says which votes an epoch counts. Building a table costs one index probe per voter of
 * the lower question; moving it on, one per new vote. Each server instance keeps its own, read
 * from the shared database, so instances agree. The least used tables are dropped past
 * `maxCells` cells in all (but the one just counted).
 */
export class PairTables {
  private readonly tables: ClockCache<string, PairTable>;
  private readonly updates = new Map<string, Promise<PairTable | null>>();
  private readonly closed: ClockCache<string, true>;

  /**
   * A cell takes 60 to 70 bytes in a table of 16 cells or more, and more in smaller ones, whose
   * Maps weigh more than their cells: the 4 cells of two yes-or-no questions take about 800
   * bytes. A table of no cells still takes room, so it weighs one.
   */
  constructor(
    private readonly db: Db,
    private readonly noiseStore: NoiseStore,
    maxCells: number,
  ) {
    this.tables = new ClockCache(maxCells, (table) => Math.max(1, cellCount(table.cells)));
    this.closed = new ClockCache(CLOSED_PAIRS_KEPT);
  }

  /**
   * The table of a pair (given in either order) at the epoch its questions' vote counts have
   * reached, opening the pair's release if need be; null when it cannot be opened because a
   * question of the pair has spent its relate budget.
   */
  async current(a: number, b: number): Promise<PairTable | null> {
    const [low, high] = a < b ? [a, b] : [b, a];
    const key = `${low}:${high}`;
    if (this.closed.get(key)) return null;
    await this.updates.get(key)?.catch(() => undefined);
    const { seqs, removed } = await this.voteCounts(low, high);
    const reach = { low: RELEASES.point(RELEASES.index(seqs.low)), high: RELEASES.point(RELEASES.index(seqs.high)) };
    const cached = this.kept(key, removed);
    if (cached && cached.lowCounted >= reach.low && cached.highCounted >= reach.high) return cached;
    // One update of a pair at a time, each from where the last one stopped.
    let update = this.updates.get(key);
    if (!update) {
      update = this.update(key, low, high, reach, removed).finally(() => this.updates.delete(key));
      this.updates.set(key, update);
    }
    return update;
  }

  /** The noise of a table's cells at its epoch, by the low question's bucket then the high one's, drawn or read once. */
  noiseOf(table: PairTable, lowBuckets: Buckets, highBuckets: Buckets): Promise<Int32Array> {
    if (!table.noise) {
      const noise = this.noiseStore.sums(
        { questionId: table.low, otherId: table.high, firstCell: 0, cells: lowBuckets.count * highBuckets.count, variance: RELATE_VARIANCE },
        table.epoch,
      );
      // A failed read is tried again by the next request.
      noise.catch(() => (table.noise = null));
      table.noise = noise;
    }
    return table.noise;
  }

  /** What is kept, for the metrics. */
  stats(): CacheStats {
    return this.tables.stats();
  }

  /** The questions were deleted, or votes they had: the tables of their pairs go, and are counted again if asked for. */
  forget(questionIds: readonly number[]): void {
    const gone = new Set(questionIds);
    const keys: string[] = [];
    for (const table of this.tables.values()) if (gone.has(table.low) || gone.has(table.high)) keys.push(`${table.low}:${table.high}`);
    for (const key of keys) this.tables.delete(key);
  }

  /** The pair's kept table, unless votes were removed since it was counted: they may be any it counts. */
  private kept(key: string, removed: Reach): PairTable | undefined {
    const table = this.tables.get(key);
    return table && table.removed.low >= removed.low && table.removed.high >= removed.high ? table : undefined;
  }

  /**
   * Each question's last seq and the votes removed from it. Seqs go on past the votes deleted
   * with their voters' accounts: the last is `vote_count + votes_removed`.
   */
  private async voteCounts(low: number, high: number): Promise<{ seqs: Reach; removed: Reach }> {
    const rows = await this.db.selectFrom('questions').select(['id', 'vote_count', 'votes_removed']).where('id', 'in', [low, high]).execute();
    const rowOf = (id: number) => rows.find((row) => row.id === id) ?? { vote_count: 0, votes_removed: 0 };
    const seqOf = (id: number) => rowOf(id).vote_count + rowOf(id).votes_removed;
    return { seqs: { low: seqOf(low), high: seqOf(high) }, removed: { low: rowOf(low).votes_removed, high: rowOf(high).votes_removed } };
  }

  private async update(key: string, low: number, high: number, reach: Reach, removed: Reach): Promise<PairTable | null> {
    const previous = this.kept(key, removed);
    const epoch = await latestEpoch(this.db, low, high, reach, previous);
    if (!epoch) {
      this.closed.set(key, true);
      return null;
    }
    if (previous?.epoch === epoch.epoch) return previous;
    const cells: Cells = new Map();
    // Votes up to an epoch's counts are committed and never change: no snapshot is needed.
    if (previous && previous.lowCounted <= epoch.lowCounted && previous.highCounted <= epoch.highCounted) {
      for (const [lowChoice, byHigh] of previous.cells) cells.set(lowChoice, new Map(byHigh));
      addCells(cells, await this.newPairs(low, high, previous, epoch));
    } else {
      addCells(cells, await this.pairs(low, high, epoch).execute());
    }
    const table: PairTable = { low, high, ...epoch, removed, cells, noise: null };
    this.tables.set(key, table);
    return table;
  }

  /** Voters among the low question's first `lowCounted` joined with their vote among the high one's first `highCounted`, counted by the two answers. */
  private pairs(low: number, high: number, upTo: RelateEpoch) {
    return this.db
      .selectFrom('votes as l')
      .innerJoin('votes as h', (join) => join.onRef('h.user_id', '=', 'l.user_id').on('h.question_id', '=', high))
      .select(['l.choice as low', 'h.choice as high', (eb) => eb.fn.countAll<number>().as('voters')])
      .where('l.question_id', '=', low)
      .where('l.seq', '<=', upTo.lowCounted)
      .where('h.seq', '<=', upTo.highCounted)
      .groupBy(['l.choice', 'h.choice']);
  }

  /** The pairs an epoch counts that `previous` did not: by a newly counted vote on the low question, or one on the high question beside an old low one. */
  private async newPairs(low: number, high: number, previous: RelateEpoch, epoch: RelateEpoch): Promise<CellRow[]> {
    const [byNewLow, byNewHigh] = [
      await this.pairs(low, high, epoch).where('l.seq', '>', previous.lowCounted).execute(),
      await this.pairs(low, high, epoch).where('l.seq', '<=', previous.lowCounted).where('h.seq', '>', previous.highCounted).execute(),
    ];
    return [...byNewLow, ...byNewHigh];
  }
}
