import type { InsertResult } from 'kysely';
import type { Db } from '../../db/index.js';
import type { EpochNoiseTable, ReleaseNoiseTable } from '../../db/schema.js';
import { nodeId, prefixNodes } from '../../private-release/binary-tree.js';
import {
  cryptoRandom,
  discreteGaussian,
  type CryptoRandom,
  type Fraction,
} from '../../private-release/discrete-noise.js';

/** Cells of one release read together: `cells` cells from `firstCell`, with noise of one variance. */
export interface NoiseBlock {
  questionId: number;
  /** The other question of a relate pair; 0 for a breakdown. */
  otherId: number;
  firstCell: number;
  cells: number;
  variance: number;
}

/** An epoch of a release, whose cells are drawn together. */
export interface EpochOf {
  questionId: number;
  /** The other question of a relate pair; 0 for a breakdown. */
  otherId: number;
  epoch: number;
}

/** A run of an epoch's cells with noise of one variance. */
export interface CellRun {
  cells: number;
  variance: Fraction;
}

/** Cells of an epoch named by their keys, with noise of one variance. */
export interface KeyedRun {
  keys: readonly number[];
  variance: Fraction;
}

/** Rows written per statement: 5 values each, well within SQLite's limit on a statement's values. */
const ROWS_PER_INSERT = 500;

/**
 * The noise of private releases, drawn once and kept: each epoch's cells in `epoch_noise`, and
 * each node of the binary tree of the release before in `release_noise`. A draw is one discrete
 * Gaussian sample written with "insert unless there", so that when instances draw the same cells
 * at once, the first write stands and every instance reads it back. Nothing redraws a kept cell:
 * noise drawn afresh for a count already released could be averaged with the old.
 */
export class NoiseStore {
  constructor(
    private readonly db: Db,
    private readonly random: CryptoRandom = cryptoRandom,
  ) {}

  /** The noise of every cell of an epoch, its runs of cells one after another, drawn and written the first time. */
  drawAndKeepEpoch(of: EpochOf, runs: readonly CellRun[]): Promise<Int32Array> {
    let first = 0;
    return this.drawAndKeepKeyed(
      of,
      runs.map(({ cells, variance }) => {
        const keys = Array.from({ length: cells }, (_, index) => first + index);
        first += cells;
        return { keys, variance };
      }),
    );
  }

  /**
   * The noise of an epoch's cells named by `keys`, run after run, drawn and written the first time: for
   * releases whose cells keep their keys as the tables grow (a country with its first voters).
   */
  async drawAndKeepKeyed(of: EpochOf, runs: readonly KeyedRun[]): Promise<Int32Array> {
    const wanted = new Map<number, Fraction>();
    for (const { keys, variance } of runs) for (const key of keys) wanted.set(key, variance);
    let rows = await this.readEpoch(of);
    const drawn = new Set(rows.map((row) => row.cell));
    const missing: EpochNoiseTable[] = [];
    for (const [cell, variance] of wanted)
      if (!drawn.has(cell))
        missing.push({
          question_id: of.questionId,
          other_id: of.otherId,
          epoch: of.epoch,
          cell,
          noise: discreteGaussian(this.random, variance),
        });
    if (missing.length > 0) {
      const inserted = await this.insertAll(missing, (chunk) =>
        this.db
          .insertInto('epoch_noise')
          .values(chunk)
          .onConflict((conflict) => conflict.columns(['question_id', 'other_id', 'epoch', 'cell']).doNothing())
          .executeTakeFirst(),
      );
      // Another instance drew some of them first when fewer rows went in: its draws are the ones kept.
      rows = inserted < missing.length ? await this.readEpoch(of) : [...rows, ...missing];
    }
    const byCell = new Map(rows.map((row) => [row.cell, row.noise]));
    const draws = new Int32Array(runs.reduce((sum, run) => sum + run.keys.length, 0));
    let index = 0;
    for (const { keys } of runs) for (const key of keys) draws[index++] = byCell.get(key)!;
    return draws;
  }

  private readEpoch(of: EpochOf): Promise<Pick<EpochNoiseTable, 'cell' | 'noise'>[]> {
    return this.db
      .selectFrom('epoch_noise')
      .select(['cell', 'noise'])
      .where('question_id', '=', of.questionId)
      .where('other_id', '=', of.otherId)
      .where('epoch', '=', of.epoch)
      .execute();
  }

  /**
   * Each cell's noise in its count over epochs 1 to `epoch` of the binary tree: the sum of the draws of the nodes that
   * tile them, each drawn and written the first time.
   */
  async drawAndKeepTreeSums(block: NoiseBlock, epoch: number): Promise<Int32Array> {
    const sums = new Int32Array(block.cells);
    const nodes = prefixNodes(epoch).map(nodeId);
    if (nodes.length === 0) return sums;
    let rows = await this.read(block, nodes);
    const drawn = new Set(rows.map((row) => `${row.cell}:${row.node}`));
    const missing: ReleaseNoiseTable[] = [];
    const variance = { num: BigInt(block.variance), den: 1n };
    for (let cell = block.firstCell; cell < block.firstCell + block.cells; cell += 1) {
      for (const node of nodes) {
        if (!drawn.has(`${cell}:${node}`))
          missing.push({
            question_id: block.questionId,
            other_id: block.otherId,
            cell,
            node,
            noise: discreteGaussian(this.random, variance),
          });
      }
    }
    if (missing.length > 0) {
      // Another instance drew some of them first when fewer rows went in: its draws are the ones kept.
      const inserted = await this.insertAll(missing, (chunk) =>
        this.db
          .insertInto('release_noise')
          .values(chunk)
          .onConflict((conflict) => conflict.columns(['question_id', 'other_id', 'cell', 'node']).doNothing())
          .executeTakeFirst(),
      );
      rows = inserted < missing.length ? await this.read(block, nodes) : [...rows, ...missing];
    }
    for (const row of rows) sums[row.cell - block.firstCell] += row.noise;
    return sums;
  }

  private read(block: NoiseBlock, nodes: number[]): Promise<Pick<ReleaseNoiseTable, 'cell' | 'node' | 'noise'>[]> {
    return this.db
      .selectFrom('release_noise')
      .select(['cell', 'node', 'noise'])
      .where('question_id', '=', block.questionId)
      .where('other_id', '=', block.otherId)
      .where('cell', '>=', block.firstCell)
      .where('cell', '<', block.firstCell + block.cells)
      .where('node', 'in', nodes)
      .execute();
  }

  /** Writes rows a statement at a time with `insert` ("insert unless there"); returns how many went in. */
  private async insertAll<Row>(rows: Row[], insert: (chunk: Row[]) => Promise<InsertResult>): Promise<number> {
    let inserted = 0;
    for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
      const result = await insert(rows.slice(start, start + ROWS_PER_INSERT));
      inserted += Number(result.numInsertedOrUpdatedRows ?? 0n);
    }
    return inserted;
  }
}
