import type { RelatePrivacy } from '@pollscope/contract';
import { BadRequestError } from '../../errors.js';
import { countVariance } from '../../private-release/marginals.js';
import { PUBLIC_MARGINALS } from '../../private-release/relate-design.js';
import { roundTo2 } from '../../views/results.js';
import { questionToAct, type Reader } from '../../views/pipeline.js';
import { mayRelate } from '../../views/rules.js';
import type { ViewerState } from '../../views/viewer-states.js';
import { exploredOf, type ExploredQuestion } from './access.js';
import { associationOf, type RelateRow, type TestedAssociation } from './association.js';
import { mayShow, nonNegative, totalOf } from './breakdown.js';
import { bucketsOf, type Buckets } from './buckets.js';
import { latestReach, type PairNoise, type PairTables } from './pair-tables.js';

/**
 * The two questions of a relate, in order: both exist (404), no block stands between the viewer
 * and their authors (403), they differ and the second is multiple choice (400), and the viewer
 * answered both (403).
 */
export async function questionsToRelate(
  reader: Reader & { viewer: ViewerState },
  firstId: number,
  secondId: number,
): Promise<[ExploredQuestion, ExploredQuestion]> {
  const first = await questionToAct(reader, firstId);
  const second = await questionToAct(reader, secondId);
  if (first.card.id === second.card.id)
    throw new BadRequestError('errors.relate.twoDifferent', { b: 'errors.relate.otherThanFirst' });
  if (second.card.kind.type !== 'MC')
    throw new BadRequestError('errors.relate.secondMc', { b: 'errors.relate.pickMc' });
  mayRelate(reader.viewer, first.card, second.card);
  return [exploredOf(first), exploredOf(second)];
}

export interface RelateTable {
  /**
   * Every choice of the second question with the first question's released votes among its voters, per bucket, in
   * order.
   */
  rows: RelateRow[];
  /** The choices whose voters' noisy count says enough to be shown. */
  shown: Set<number>;
  /** The first question's buckets: the columns of each row's counts. */
  buckets: Buckets;
  /** The variance of the noise in each count of a row, and in a row's count of voters. */
  variance: number;
  countVariance: number;
  privacy: NonNullable<RelatePrivacy>;
  tested: TestedAssociation | null;
}

/**
 * The first question's votes among the voters of each choice of the second, from the pair's
 * relate release (docs/insights.md, Privacy), and how the two are linked; null when the pair
 * cannot be released because a question of it has spent its relate budget.
 */
export async function relateTable(
  tables: PairTables,
  first: ExploredQuestion,
  second: ExploredQuestion,
  k: number,
): Promise<RelateTable | null> {
  const table = await tables.current(first.id, second.id);
  if (!table) return null;
  const firstIsLow = table.low === first.id;
  const [buckets, secondBuckets] = [bucketsOf(first.kind), bucketsOf(second.kind)];
  const [lowBuckets, highBuckets] = firstIsLow ? [buckets, secondBuckets] : [secondBuckets, buckets];
  const noise = await tables.noiseOf(table, lowBuckets, highBuckets);
  // True counts by the second question's bucket (its choice) and the first's.
  const exact = second.labels.map(() => new Array<number>(buckets.count).fill(0));
  for (const [lowAnswer, byHigh] of table.cells) {
    for (const [highAnswer, count] of byHigh) {
      const [firstAnswer, secondAnswer] = firstIsLow ? [lowAnswer, highAnswer] : [highAnswer, lowAnswer];
      exact[secondBuckets.of(secondAnswer)][buckets.of(firstAnswer)] += count;
    }
  }
  const noiseIn = (row: number, column: number) =>
    noise.fitted[firstIsLow ? column * highBuckets.count + row : row * highBuckets.count + column];
  const rows = second.labels.map((label, row) => ({
    key: row + 1,
    label,
    counts: nonNegative(exact[row].map((count, column) => count + noiseIn(row, column))),
  }));
  const variance = noiseVariance(noise, [1, 1]);
  const countVariance = noiseVariance(noise, firstIsLow ? [lowBuckets.count, 1] : [1, highBuckets.count]);
  const countSd = Math.sqrt(countVariance);
  const shownRows = rows.filter((row) => mayShow(totalOf(row.counts), countSd, k));
  const reach = latestReach(table.epochs);
  return {
    rows,
    shown: new Set(shownRows.map((row) => row.key)),
    buckets,
    variance,
    countVariance,
    privacy: {
      first_counted: firstIsLow ? reach.low : reach.high,
      second_counted: firstIsLow ? reach.high : reach.low,
      count_sd: roundTo2(countSd),
    },
    tested: associationOf({
      first: first.kind,
      firstLabels: first.labels,
      buckets,
      variance: linkVariance(noise),
      rows: shownRows,
    }),
  };
}

/** The variance of the noise in a sum of a pair's cells, `chosen` answers of each question, over every part. */
function noiseVariance(noise: PairNoise, chosen: [number, number]): number {
  return noise.lambdas.reduce((sum, lambda) => sum + countVariance(noise.sizes, lambda, PUBLIC_MARGINALS, chosen), 0);
}

/**
 * The variance the test of the whole table allows for in each cell: what its noise leaves of a
 * cell once its row and column are taken out (the residual of both questions' answers, measured by
 * the full tables alone) is what noise of this variance in every cell, independent, would leave.
 * The rows' and columns' noise, less, only moves the expected counts.
 */
export function linkVariance(noise: Pick<PairNoise, 'lambdas'>): number {
  return noise.lambdas.reduce((sum, lambda) => sum + 1 / lambda[3], 0);
}
