import type { Db } from '../../db/index.js';
import { ClockCache, type CacheStats } from '../../lib/clock-cache.js';
import { asNumber } from '../../private-release/allocation.js';
import { prefixSize } from '../../private-release/binary-tree.js';
import { LEGACY } from '../../private-release/budget.js';
import { runningNoise, runningVariance } from '../../private-release/factorization.js';
import { cellsOf, estimate, precisions, type Measurement } from '../../private-release/marginals.js';
import { PUBLIC_MARGINALS } from '../../private-release/relate-design.js';
import { FIRST_RELEASE_POINT, PROBE_POINTS } from '../../private-release/schedule.js';
import type { Buckets } from './buckets.js';
import { addCount, type Counts } from './counts.js';
import type { NoiseStore } from './noise-store.js';
import { openPairIfNew, releaseNextEpoch, type RelateEpoch, type Reach } from './relate-releases.js';

/** Votes per choice of one question, then per choice of another: cells.get(a)?.get(b). */
export type Cells = Map<number, Counts>;

/**
 * The noise in the release's estimate of a pair's table, by the low question's bucket then the
 * high one's, and the precisions of each part of it (an epoch released alone, or the factorized
 * stream's running count), independent of each other, from which the variance of any sum of cells
 * follows.
 */
export interface PairNoise {
  sizes: [number, number];
  fitted: Float64Array;
  lambdas: Float64Array[];
}

/**
 * The people who answered both questions of a pair, counted by their two answers, up to the latest epoch of the pair's
 * relate release.
 */
export interface PairTable {
  low: number;
  high: number;
  /** The release's epochs: the latest counts up to where the table does. */
  epochs: RelateEpoch[];
  /** Each question's `votes_removed` when the table was counted: once more are removed, it is counted again. */
  removed: Reach;
  /**
   * Rows by the answer to the question with the lower id, columns by the answer to the other: the people the latest
   * epoch counts.
   */
  cells: Cells;
  /**
   * The same counted further, to the last release point of each question's votes (16 per
   * doubling): the next epoch is released when it holds twice the people `cells` does.
   */
  probe: { reach: Reach; cells: Cells };
  /** A tree pair that cannot move on: a question has spent its budget. */
  frozen: boolean;
  /** The noise of the release's estimate, once read. */
  noise: Promise<PairNoise> | null;
}

/** How far the latest of a pair's epochs counts. */
export function latestReach(epochs: readonly RelateEpoch[]): Reach {
  const latest = epochs[epochs.length - 1];
  return { low: latest.lowCounted, high: latest.highCounted };
}

function totalOf(cells: Cells): number {
  let total = 0;
  for (const byHigh of cells.values()) for (const count of byHigh.values()) total += count;
  return total;
}

function copyOf(cells: Cells): Cells {
  return new Map([...cells].map(([low, byHigh]) => [low, new Map(byHigh)]));
}

interface CellRow {
  low: number;
  high: number;
  voters: number;
}

function countedCells(rows: CellRow[]): Cells {
  const cells: Cells = new Map();
  addCells(cells, rows);
  return cells;
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
   * reached, opening the pair's release if need be and releasing its next epoch when due (both
   * written: relate-releases.ts), made to show the voters of `second`'s choices; null when it
   * cannot be opened because a question of the pair has spent its relate budget.
   */
  async current(first: number, second: number): Promise<PairTable | null> {
    const [low, high] = first < second ? [first, second] : [second, first];
    const key = `${low}:${high}`;
    if (this.closed.get(key)) return null;
    await this.updates.get(key)?.catch(() => undefined);
    const { seqs, removed } = await this.voteCounts(low, high);
    const reach = {
      low: PROBE_POINTS.point(PROBE_POINTS.index(seqs.low)),
      high: PROBE_POINTS.point(PROBE_POINTS.index(seqs.high)),
    };
    const cached = this.kept(key, removed);
    if (cached && cached.probe.reach.low >= reach.low && cached.probe.reach.high >= reach.high) return cached;
    // One update of a pair at a time, each from where the last one stopped.
    let update = this.updates.get(key);
    if (!update) {
      update = this.update(key, low, high, second, reach, removed).finally(() => this.updates.delete(key));
      this.updates.set(key, update);
    }
    return update;
  }

  /**
   * The noise of the release's estimate of a table's cells, drawn (and written) the first time,
   * worked out once and kept with the table: each epoch released
   * alone fitted alone, and the factorized stream's running count fitted once, each by least
   * squares to the number of people it counts (the same whatever anyone answered, so exact and
   * free: private-release/marginals.ts), then added up. The fit is linear and exact on exact
   * tables, so the estimate is the exact counts plus the fit of the noise alone.
   */
  drawAndKeepNoise(table: PairTable, lowBuckets: Buckets, highBuckets: Buckets): Promise<PairNoise> {
    if (!table.noise) {
      const noise = this.fitNoise(table, [lowBuckets.count, highBuckets.count]);
      // A failed read is tried again by the next request.
      noise.catch(() => (table.noise = null));
      table.noise = noise;
    }
    return table.noise;
  }

  /** The fit of the release's noise in the pair's table, its draws made the first time any instance needs them. */
  private async fitNoise(table: PairTable, sizes: [number, number]): Promise<PairNoise> {
    const cells = sizes[0] * sizes[1];
    const release = { questionId: table.low, otherId: table.high };
    // An epoch that counts nobody (the opening one) only marks the pair open.
    const counting = table.epochs.filter((epoch) => epoch.lowCounted > 0 || epoch.highCounted > 0);
    const parts: Measurement[][] = [];
    for (const epoch of counting.filter((epoch) => epoch.tables === null))
      parts.push([
        epoch.variance === null
          ? {
              mask: 3,
              variance: prefixSize(epoch.epoch) * LEGACY.relateVariance,
              values: await this.noiseStore.drawAndKeepTreeSums(
                { ...release, firstCell: 0, cells, variance: LEGACY.relateVariance },
                epoch.epoch,
              ),
            }
          : {
              mask: 3,
              variance: epoch.variance,
              values: await this.noiseStore.drawAndKeepEpoch({ ...release, epoch: epoch.epoch }, [
                { cells, variance: { num: BigInt(epoch.variance), den: 1n } },
              ]),
            },
      ]);
    const stream = counting.filter((epoch) => epoch.tables !== null);
    if (stream.length > 0) parts.push(await this.streamMeasurements(table, sizes, stream));
    // Each part is held to the number of people it counts, public: its noise there is 0.
    const invariants = PUBLIC_MARGINALS.map((mask) => ({ mask, values: new Float64Array(cellsOf(sizes, mask)) }));
    const fitted = new Float64Array(cells);
    const lambdas: Float64Array[] = [];
    for (const measurements of parts) {
      const fit = estimate(sizes, measurements, invariants);
      for (let cell = 0; cell < cells; cell += 1) fitted[cell] += fit[cell];
      lambdas.push(precisions(sizes, measurements));
    }
    return { sizes, fitted, lambdas };
  }

  /**
   * The factorized stream's measurements of its running count: each table's noise decoded from
   * every epoch's release (private-release/factorization.ts), its cells' variance that of the
   * decoded sum. Each epoch's draws are its tables' cells one after another.
   */
  private async streamMeasurements(
    table: PairTable,
    sizes: [number, number],
    epochs: readonly RelateEpoch[],
  ): Promise<Measurement[]> {
    const tables = epochs[0].tables!;
    if (epochs.some((epoch) => epoch.tables!.map(({ mask }) => mask).join() !== tables.map(({ mask }) => mask).join()))
      throw new Error(`The epochs of the pair ${table.low}:${table.high}'s stream measure different tables`);
    const releases = await Promise.all(
      epochs.map((epoch) =>
        this.noiseStore.drawAndKeepEpoch(
          { questionId: table.low, otherId: table.high, epoch: epoch.epoch },
          epoch.tables!.map(({ mask, variance }) => ({ cells: cellsOf(sizes, mask), variance })),
        ),
      ),
    );
    let offset = 0;
    return tables.map(({ mask }, index) => {
      const cells = cellsOf(sizes, mask);
      const start = offset;
      offset += cells;
      return {
        mask,
        values: runningNoise(
          releases.map((draws) => draws.subarray(start, start + cells)),
          cells,
        ),
        variance: runningVariance(epochs.map((epoch) => asNumber(epoch.tables![index].variance))),
      };
    });
  }

  /** What is kept, for the metrics. */
  stats(): CacheStats {
    return this.tables.stats();
  }

  /**
   * The questions were deleted, or votes they had: the tables of their pairs go, and are counted again if asked for.
   */
  forget(questionIds: readonly number[]): void {
    const gone = new Set(questionIds);
    const keys: string[] = [];
    for (const table of this.tables.values())
      if (gone.has(table.low) || gone.has(table.high)) keys.push(`${table.low}:${table.high}`);
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
    const rows = await this.db
      .selectFrom('questions')
      .select(['id', 'vote_count', 'votes_removed'])
      .where('id', 'in', [low, high])
      .execute();
    const rowOf = (id: number) => rows.find((row) => row.id === id) ?? { vote_count: 0, votes_removed: 0 };
    const seqOf = (id: number) => rowOf(id).vote_count + rowOf(id).votes_removed;
    return {
      seqs: { low: seqOf(low), high: seqOf(high) },
      removed: { low: rowOf(low).votes_removed, high: rowOf(high).votes_removed },
    };
  }

  private async update(
    key: string,
    low: number,
    high: number,
    second: number,
    reach: Reach,
    removed: Reach,
  ): Promise<PairTable | null> {
    const previous = this.kept(key, removed);
    const opened = previous?.epochs ?? (await openPairIfNew(this.db, low, high, second));
    if (!opened) {
      this.closed.set(key, true);
      return null;
    }
    let epochs = opened;
    const probe = { reach, cells: await this.countedTo(low, high, reach, previous?.probe) };
    let frozen = previous?.frozen ?? false;
    let cells =
      previous && previous.epochs === epochs
        ? previous.cells
        : await this.cellsAt(low, high, latestReach(epochs), probe);
    const latest = epochs[epochs.length - 1];
    const further = reach.low > latest.lowCounted || reach.high > latest.highCounted;
    // The next epoch holds at least as many people as all before it: the epochs stay few, about log₂ of the people.
    if (!frozen && further && totalOf(probe.cells) >= Math.max(FIRST_RELEASE_POINT, 2 * totalOf(cells))) {
      const moved = await releaseNextEpoch(this.db, low, high, latest, reach, second);
      if (moved) {
        epochs = moved;
        cells = await this.cellsAt(low, high, latestReach(epochs), probe);
      } else {
        frozen = true;
      }
    }
    const unchanged = previous && previous.epochs === epochs;
    const table: PairTable = {
      low,
      high,
      epochs,
      removed,
      cells,
      probe,
      frozen,
      noise: unchanged ? previous.noise : null,
    };
    this.tables.set(key, table);
    return table;
  }

  /** The people an epoch reaching `at` counts: the probe's when it reaches as far. */
  private async cellsAt(low: number, high: number, at: Reach, probe: { reach: Reach; cells: Cells }): Promise<Cells> {
    return at.low === probe.reach.low && at.high === probe.reach.high
      ? copyOf(probe.cells)
      : this.countedFresh(low, high, at);
  }

  /**
   * The people among the first `reach` voters of each question, counted afresh: the voters' pairs of answers, and the
   * deleted people released epochs counted (kept-votes.ts), whom every reach from theirs on counts.
   */
  private async countedFresh(low: number, high: number, reach: Reach): Promise<Cells> {
    const cells = countedCells(await this.pairs(low, high, reach).execute());
    addCells(
      cells,
      await this.db
        .selectFrom('removed_vote_pairs')
        .select(['low_choice as low', 'high_choice as high', 'count as voters'])
        .where('low_id', '=', low)
        .where('high_id', '=', high)
        .execute(),
    );
    return cells;
  }

  /**
   * The people among the first `reach` voters of each question, counted by their two answers: from what `from` counted
   * when it counts less.
   */
  private async countedTo(
    low: number,
    high: number,
    reach: Reach,
    from?: { reach: Reach; cells: Cells },
  ): Promise<Cells> {
    // Votes up to a reach are committed and never change: no snapshot is needed.
    if (!from || from.reach.low > reach.low || from.reach.high > reach.high) return this.countedFresh(low, high, reach);
    const cells = copyOf(from.cells);
    addCells(cells, await this.newPairs(low, high, from.reach, reach));
    return cells;
  }

  /**
   * Voters among the low question's first `reach.low` joined with their vote among the high one's first `reach.high`,
   * counted by the two answers.
   */
  private pairs(low: number, high: number, upTo: Reach) {
    return this.db
      .selectFrom('votes as l')
      .innerJoin('votes as h', (join) => join.onRef('h.user_id', '=', 'l.user_id').on('h.question_id', '=', high))
      .select(['l.choice as low', 'h.choice as high', (eb) => eb.fn.countAll<number>().as('voters')])
      .where('l.question_id', '=', low)
      .where('l.seq', '<=', upTo.low)
      .where('h.seq', '<=', upTo.high)
      .groupBy(['l.choice', 'h.choice']);
  }

  /**
   * The pairs `reach` counts that `previous` did not: by a newly counted vote on the low question, or one on the high
   * question beside an old low one.
   */
  private async newPairs(low: number, high: number, previous: Reach, reach: Reach): Promise<CellRow[]> {
    const [byNewLow, byNewHigh] = [
      await this.pairs(low, high, reach).where('l.seq', '>', previous.low).execute(),
      await this.pairs(low, high, reach)
        .where('l.seq', '<=', previous.low)
        .where('h.seq', '>', previous.high)
        .execute(),
    ];
    return [...byNewLow, ...byNewHigh];
  }
}
