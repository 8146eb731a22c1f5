import type { Db } from '../../db/index.js';
import { ClockCache, type CacheStats } from '../../lib/clock-cache.js';
import { addCount, type Counts } from './counts.js';

/** Votes per choice of one question, then per choice of another: cells.get(a)?.get(b). */
export type Cells = Map<number, Counts>;

/** The people who answered both questions of a pair, counted by their two choices. */
export interface PairTable {
  low: number;
  high: number;
  /** The seq of the last vote of each question the table counts: its `vote_count + votes_removed` then. */
  lowSeq: number;
  highSeq: number;
  /** Each question's `votes_removed` then: once more are removed, the table is counted again. */
  lowRemoved: number;
  highRemoved: number;
  /** Rows by the choice on the question with the lower id, columns by the choice on the other. */
  cells: Cells;
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

/**
 * The cross-tables of question pairs that relate and related questions read, kept in memory and
 * brought up to date from the votes cast since: a vote's `seq` (its place in its question's
 * order, handed out in commit order) says which votes a table has counted. Building a table
 * costs one index probe per voter of the smaller question; keeping it current costs one per new
 * vote. Each server instance keeps its own, read from the shared database, so instances agree.
 * The least used tables are dropped past `maxCells` cells in all (but the one just counted).
 */
export class PairTables {
  private readonly tables: ClockCache<string, PairTable>;
  private readonly updates = new Map<string, Promise<PairTable>>();

  /**
   * A cell takes 60 to 70 bytes in a table of 16 cells or more, and more in smaller ones, whose
   * Maps weigh more than their cells: the 4 cells of two yes-or-no questions take about 800
   * bytes. A table of no cells still takes room, so it weighs one.
   */
  constructor(
    private readonly db: Db,
    maxCells: number,
  ) {
    this.tables = new ClockCache(maxCells, (table) => Math.max(1, cellCount(table.cells)));
  }

  /** What is kept, for the metrics. */
  stats(): CacheStats {
    return this.tables.stats();
  }

  /** The table of a pair as of now, the pair given in either order. */
  async current(a: number, b: number): Promise<PairTable> {
    const [low, high] = a < b ? [a, b] : [b, a];
    const key = `${low}:${high}`;
    await this.updates.get(key)?.catch(() => undefined);
    const cached = this.tables.get(key);
    if (cached) {
      const { low: lowCounts, high: highCounts } = await this.voteCounts(this.db, low, high);
      if (lowCounts.seq === cached.lowSeq && highCounts.seq === cached.highSeq && lowCounts.removed === cached.lowRemoved && highCounts.removed === cached.highRemoved)
        return cached;
    }
    // One update of a pair at a time, each from where the last one stopped.
    let update = this.updates.get(key);
    if (!update) {
      update = this.update(key, low, high).finally(() => this.updates.delete(key));
      this.updates.set(key, update);
    }
    return update;
  }

  /** Each question's last seq and the votes removed from it. */
  private async voteCounts(db: Db, low: number, high: number): Promise<Record<'low' | 'high', { seq: number; removed: number }>> {
    const rows = await db.selectFrom('questions').select(['id', 'vote_count', 'votes_removed']).where('id', 'in', [low, high]).execute();
    const countsOf = (id: number) => {
      const row = rows.find((candidate) => candidate.id === id);
      return row ? { seq: row.vote_count + row.votes_removed, removed: row.votes_removed } : { seq: 0, removed: 0 };
    };
    return { low: countsOf(low), high: countsOf(high) };
  }

  /** The questions were deleted, or votes they had: the tables of their pairs go, and are counted again if asked for. */
  forget(questionIds: readonly number[]): void {
    const gone = new Set(questionIds);
    const keys: string[] = [];
    for (const table of this.tables.values()) if (gone.has(table.low) || gone.has(table.high)) keys.push(`${table.low}:${table.high}`);
    for (const key of keys) this.tables.delete(key);
  }

  private async update(key: string, low: number, high: number): Promise<PairTable> {
    const previous = this.tables.get(key);
    // One snapshot: the vote counts read are exactly the votes the queries see.
    const table = await this.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        const counts = await this.voteCounts(trx, low, high);
        const newVotes = previous ? counts.low.seq - previous.lowSeq + counts.high.seq - previous.highSeq : Infinity;
        // Votes removed since may be any the table counts: then it is counted again from the votes.
        const removedSince = previous ? counts.low.removed !== previous.lowRemoved || counts.high.removed !== previous.highRemoved : true;
        const cells: Cells = new Map();
        if (previous && !removedSince && newVotes < Math.min(counts.low.seq, counts.high.seq)) {
          for (const [lowChoice, byHigh] of previous.cells) cells.set(lowChoice, new Map(byHigh));
          addCells(cells, await this.newPairs(trx, low, high, previous));
        } else {
          addCells(cells, await this.allPairs(trx, low, high));
        }
        return { low, high, lowSeq: counts.low.seq, highSeq: counts.high.seq, lowRemoved: counts.low.removed, highRemoved: counts.high.removed, cells };
      });
    this.tables.set(key, table);
    return table;
  }

  /** Voters of the low question joined with their vote on the high one, counted by the two choices. */
  private pairs(trx: Db, low: number, high: number) {
    return trx
      .selectFrom('votes as l')
      .innerJoin('votes as h', (join) => join.onRef('h.user_id', '=', 'l.user_id').on('h.question_id', '=', high))
      .select(['l.choice as low', 'h.choice as high', (eb) => eb.fn.countAll<number>().as('voters')])
      .where('l.question_id', '=', low)
      .groupBy(['l.choice', 'h.choice']);
  }

  private allPairs(trx: Db, low: number, high: number): Promise<CellRow[]> {
    return this.pairs(trx, low, high).execute();
  }

  /** The pairs completed since `previous`: by a new vote on the low question, or by a new vote on the high one beside an old low one. */
  private async newPairs(trx: Db, low: number, high: number, previous: PairTable): Promise<CellRow[]> {
    const [byNewLow, byNewHigh] = [
      await this.pairs(trx, low, high).where('l.seq', '>', previous.lowSeq).execute(),
      await this.pairs(trx, low, high).where('l.seq', '<=', previous.lowSeq).where('h.seq', '>', previous.highSeq).execute(),
    ];
    return [...byNewLow, ...byNewHigh];
  }
}

/** A pair's table with rows by the choice on `second` and columns by the choice on `first`. */
export function orient(table: PairTable, first: number): { cells: Cells; firstVoters: number; secondVoters: number } {
  if (table.high === first) {
    return { cells: table.cells, firstVoters: table.highSeq - table.highRemoved, secondVoters: table.lowSeq - table.lowRemoved };
  }
  const cells: Cells = new Map();
  for (const [lowChoice, byHigh] of table.cells) {
    for (const [highChoice, count] of byHigh) {
      let row = cells.get(highChoice);
      if (!row) cells.set(highChoice, (row = new Map()));
      row.set(lowChoice, count);
    }
  }
  return { cells, firstVoters: table.lowSeq - table.lowRemoved, secondVoters: table.highSeq - table.highRemoved };
}
