import type { Db } from '../../db/index.js';
import type { ReleaseNoiseTable } from '../../db/schema.js';
import { nodeId, prefixNodes } from '../../lib/continual-release.js';
import { cryptoRandom, discreteGaussian, type CryptoRandom } from '../../lib/discrete-noise.js';
import { asFraction } from './privacy-budget.js';

/** Cells of one release read together: `cells` cells from `firstCell`, with noise of one variance. */
export interface NoiseBlock {
  questionId: number;
  /** The other question of a relate pair; 0 for a breakdown. */
  otherId: number;
  firstCell: number;
  cells: number;
  variance: number;
}

/** Rows written per statement: 5 values each, well within SQLite's limit on a statement's values. */
const ROWS_PER_INSERT = 500;

/**
 * The noise of private releases, drawn once and kept in `release_noise`: each node of the binary
 * tree over a release's epochs gets, per cell, one discrete Gaussian draw, written with "insert
 * unless there", so that when instances draw the same node at once, the first write stands and
 * every instance reads it back. Nothing redraws a kept node: noise drawn afresh for a count
 * already released could be averaged with the old.
 */
export class NoiseStore {
  constructor(
    private readonly db: Db,
    private readonly random: CryptoRandom = cryptoRandom,
  ) {}

  /** Each cell's noise in its count over epochs 1 to `epoch`: the sum of the draws of the nodes that tile them. */
  async sums(block: NoiseBlock, epoch: number): Promise<Int32Array> {
    const sums = new Int32Array(block.cells);
    const nodes = prefixNodes(epoch).map(nodeId);
    if (nodes.length === 0) return sums;
    let rows = await this.read(block, nodes);
    const drawn = new Set(rows.map((row) => `${row.cell}:${row.node}`));
    const missing: ReleaseNoiseTable[] = [];
    const variance = asFraction(block.variance);
    for (let cell = block.firstCell; cell < block.firstCell + block.cells; cell += 1) {
      for (const node of nodes) {
        if (!drawn.has(`${cell}:${node}`)) missing.push({ question_id: block.questionId, other_id: block.otherId, cell, node, noise: discreteGaussian(this.random, variance) });
      }
    }
    if (missing.length > 0) {
      // Another instance drew some of them first when fewer rows went in: its draws are the ones kept.
      rows = (await this.write(missing)) < missing.length ? await this.read(block, nodes) : [...rows, ...missing];
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

  /** Writes the draws not already there; returns how many went in. */
  private async write(rows: ReleaseNoiseTable[]): Promise<number> {
    let inserted = 0;
    for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
      const result = await this.db
        .insertInto('release_noise')
        .values(rows.slice(start, start + ROWS_PER_INSERT))
        .onConflict((conflict) => conflict.columns(['question_id', 'other_id', 'cell', 'node']).doNothing())
        .executeTakeFirst();
      inserted += Number(result.numInsertedOrUpdatedRows ?? 0n);
    }
    return inserted;
  }
}
