import { displayId, type Comparison, type RelateChoice, type RelatePrivacy, type Result } from '@pollscope/contract';
import { BadRequestError } from '../../errors.js';
import { countVariance } from '../../private-release/marginals.js';
import { PUBLIC_MARGINALS } from '../../private-release/relate-design.js';
import { buildResult, roundTo2 } from '../../views/results.js';
import { questionToAct, type Reader } from '../../views/pipeline.js';
import { mayRelate } from '../../views/rules.js';
import type { ViewerState } from '../../views/viewer-states.js';
import { exploredOf, type ExploredQuestion } from './access.js';
import { associationOf, type RelateRow, type TestedAssociation } from './association.js';
import { bucketsOf, type Buckets } from './buckets.js';
import type { Counts } from './counts.js';
import { BUDGET_SPENT, bucketLabels, GROUP_COLUMNS, groupLines, TOO_FEW, toCsv } from './csv.js';
import { latestReach, type PairNoise, type PairTables } from './pair-tables.js';
import {
  bucketResult,
  compareWithEveryone,
  mayShow,
  nonNegative,
  publicCounts,
  releasedGroupOf,
  suppressedResult,
  totalOf,
  type ReleasedCounts,
} from './released-groups.js';

/**
 * A relate read goes the way a breakdown read does: the pair's table (pair-tables.ts: the people
 * who answered both, counted in memory up to the epochs the pair's release has reached), then the
 * release's noise in it (drawn and kept, through the table it is kept with), then what the API
 * answers, worked out here and in released-groups.ts from those two.
 */

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
  const noise = await tables.drawAndKeepNoise(table, lowBuckets, highBuckets);
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

/** The key of the second question's choice, or 400 naming the field. */
export function choiceOf(second: ExploredQuestion, choice: number): number {
  if (!Number.isInteger(choice) || choice < 1 || choice > second.labels.length) {
    throw new BadRequestError('errors.relate.pickSecondChoice', {
      choice: { id: 'errors.useKey', values: { count: second.labels.length } },
    });
  }
  return choice;
}

/** A row's counts as a released group, when its voters' noisy count says enough to be shown. */
function shownCounts(table: RelateTable | null, key: number): ReleasedCounts | null {
  const row = table?.rows[key - 1];
  if (!table || !row || !table.shown.has(key)) return null;
  return { counts: row.counts, variance: table.variance, countVariance: table.countVariance };
}

/** The first question's result among the voters of each choice of the second, side by side; none when not released. */
export function relateChoices(
  first: ExploredQuestion,
  second: ExploredQuestion,
  table: RelateTable | null,
  k: number,
): RelateChoice[] {
  if (!table) return [];
  return table.rows.map((row) => ({
    key: row.key,
    ...releasedGroupOf(
      first.kind,
      first.labels,
      table.buckets,
      second.labels[row.key - 1],
      { counts: row.counts, variance: table.variance, countVariance: table.countVariance },
      k,
    ),
  }));
}

/**
 * The first question's result among the voters of one choice of the second, beside everyone's
 * who answered the first; suppressed when their noisy count says too little.
 */
export function choiceResult(
  first: ExploredQuestion,
  table: RelateTable | null,
  choice: number,
): { result: Result; comparison: Comparison | null } {
  const group = shownCounts(table, choice);
  if (!table || !group) return { result: suppressedResult(), comparison: null };
  return {
    result: bucketResult(first.kind, table.buckets, group.counts),
    comparison: compareWithEveryone(first.kind, first.labels, table.buckets, group, new Map(first.votes)),
  };
}

/** The first question's result among the voters of the second's choices (`keys`) as a CSV file. */
export function relateCsv(
  first: ExploredQuestion,
  second: ExploredQuestion,
  table: RelateTable | null,
  keys: number[],
): { filename: string; csv: string } {
  const buckets = bucketsOf(first.kind);
  const everyoneVotes: Counts = new Map(first.votes);
  const answers = bucketLabels(first.kind, first.labels, buckets);
  const lines = keys.flatMap((key) => {
    const shown = shownCounts(table, key);
    return groupLines(
      [first.id, first.title, second.id, second.title, second.labels[key - 1]],
      {
        kind: first.kind,
        answers,
        buckets,
        group: shown,
        everyone: publicCounts(first.kind, buckets, everyoneVotes),
        everyoneAverage: buildResult(first.kind, everyoneVotes).average ?? null,
        comparison: shown && compareWithEveryone(first.kind, first.labels, buckets, shown, everyoneVotes),
      },
      table ? TOO_FEW : BUDGET_SPENT,
    );
  });
  const header = [
    'first_question_id',
    'first_question',
    'second_question_id',
    'second_question',
    'second_answer',
    ...GROUP_COLUMNS,
  ];
  return {
    filename: `${displayId('QID', first.id)}-${displayId('QID', second.id)}-relate.csv`,
    csv: toCsv(header, lines),
  };
}
