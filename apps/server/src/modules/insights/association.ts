import type { Association, UiLocale } from '@pollscope/contract';
import { message } from '../../i18n/messages.js';
import type { QuestionKind } from '../../views/results.js';
import { sampleOf } from './released-groups.js';
import type { Buckets } from './buckets.js';
import { chiSquareTest, strengthOf, type ChiSquareTest } from './stats.js';

/** Fewer people than this answering both questions make no test worth showing. */
export const MIN_TESTED = 30;
/** A rating or number is grouped into at most this many ranges of about equal size for the test. */
const VALUE_GROUPS = 4;
const SIGNIFICANCE = 0.05;

/**
 * The first question's answers as the columns of the test: its choices, or its buckets grouped
 * into ranges of about equal size, and how many buckets each column adds up.
 */
function columnsOf(input: AssociationInput): { count: number; columnOf: (bucket: number) => number; width: number[] } {
  const { buckets, rows } = input;
  const identity = {
    count: buckets.count,
    columnOf: (bucket: number) => bucket,
    width: new Array<number>(buckets.count).fill(1),
  };
  if (input.first.type === 'MC' || buckets.count <= VALUE_GROUPS + 1) return identity;
  const totals = Array.from({ length: buckets.count }, (_, bucket) =>
    rows.reduce((sum, row) => sum + row.counts[bucket], 0),
  );
  const share = totals.reduce((sum, count) => sum + count, 0) / VALUE_GROUPS;
  // Ranges filled in order, each closed once it holds its share of the votes: a range is never
  // made of buckets the noise alone put votes in, which would leave its expected counts too small.
  const groupOf: number[] = [];
  let group = 0;
  let filled = 0;
  for (const total of totals) {
    if (filled >= share && group < VALUE_GROUPS - 1) {
      group += 1;
      filled = 0;
    }
    groupOf.push(group);
    filled += total;
  }
  // A last range holding less than its share joins the one before.
  if (group > 0 && filled < share) {
    groupOf.forEach((value, bucket) => (groupOf[bucket] = Math.min(value, group - 1)));
    group -= 1;
  }
  const width = new Array<number>(group + 1).fill(0);
  for (const value of groupOf) width[value] += 1;
  return { count: group + 1, columnOf: (bucket) => groupOf[bucket], width };
}

/**
 * Cochran's rule for the chi-square approximation: no expected count below 1, and at most a
 * fifth of them below 5. Related questions ask more: every expected count at least 5.
 */
export function reliable(test: ChiSquareTest, strict = false): boolean {
  const expected = test.expected.flat();
  if (strict) return expected.every((count) => count >= 5);
  return test.minExpected >= 1 && expected.filter((count) => count < 5).length <= expected.length / 5;
}

export interface RelateRow {
  /** The choice of the second question. */
  key: number;
  label: string;
  /** The first question's released votes among that choice's voters, per bucket of its answers. */
  counts: number[];
}

export interface AssociationInput {
  first: QuestionKind;
  firstLabels: string[];
  buckets: Buckets;
  /** The variance of the noise in each count. */
  variance: number;
  /** The rows that may be shown, in the second question's order. */
  rows: RelateRow[];
}

/**
 * What the summary sentence says, in no language yet: the request's is known only when the release is shown
 * (`associationIn`), while the release itself is kept for every reader.
 */
export type Reading =
  | { kind: 'unreliable' | 'unlinked'; people: number }
  | { kind: 'choice'; row: string; column: string; rowPercent: number; othersPercent: number }
  | { kind: 'average'; row: string; rowMean: number; othersMean: number };

export interface TestedAssociation {
  association: Omit<Association, 'summary'>;
  reading: Reading;
  test: ChiSquareTest;
}

const twoDecimals = (value: number) => Math.round(value * 100) / 100;

/** The cell furthest above what independence expects. */
function standoutOf(input: AssociationInput, table: number[][], test: ChiSquareTest): Reading {
  if (input.first.type !== 'MC') {
    // For a rating or number, the choice whose voters' average is furthest from the others'.
    const { values } = input.buckets;
    const all = values.map((_, bucket) => input.rows.reduce((sum, row) => sum + row.counts[bucket], 0));
    let best: { gap: number; reading: Reading } | null = null;
    for (const row of input.rows) {
      const rowMean = sampleOf(values, row.counts).mean;
      const othersMean = sampleOf(
        values,
        all.map((count, bucket) => count - row.counts[bucket]),
      ).mean;
      if (best === null || Math.abs(rowMean - othersMean) > best.gap) {
        best = {
          gap: Math.abs(rowMean - othersMean),
          reading: {
            kind: 'average',
            row: row.label,
            rowMean: twoDecimals(rowMean),
            othersMean: twoDecimals(othersMean),
          },
        };
      }
    }
    return best!.reading;
  }
  let best = { residual: -Infinity, row: 0, column: 0 };
  test.rows.forEach((row, i) =>
    test.columns.forEach((column, j) => {
      const residual = (table[row][column] - test.expected[i][j]) / Math.sqrt(test.expected[i][j]);
      if (residual > best.residual) best = { residual, row, column };
    }),
  );
  const rowTotal = table[best.row].reduce((sum, count) => sum + count, 0);
  const othersTotal = test.n - rowTotal;
  const othersInColumn = table.reduce((sum, row, index) => sum + (index === best.row ? 0 : row[best.column]), 0);
  const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part * 100) / whole) : 0);
  return {
    kind: 'choice',
    row: input.rows[best.row].label,
    column: input.firstLabels[best.column],
    rowPercent: percent(table[best.row][best.column], rowTotal),
    othersPercent: percent(othersInColumn, othersTotal),
  };
}

/** The association with its summary in `locale`: what the test found, said in a sentence. */
export function associationIn(tested: TestedAssociation, locale: UiLocale): Association {
  const { reading, association } = tested;
  const strength = message(locale, 'insights.association.strength', { strength: association.strength });
  const summary =
    reading.kind === 'unreliable'
      ? message(locale, 'insights.association.unreliable', { people: reading.people })
      : reading.kind === 'unlinked'
        ? message(locale, 'insights.association.unlinked', { people: reading.people })
        : reading.kind === 'choice'
          ? message(locale, 'insights.association.choice', { ...reading, strength })
          : message(locale, 'insights.association.average', { ...reading, strength });
  return { ...association, summary };
}

/**
 * The chi-square test of independence of the whole first-by-second table (the rows that may be
 * shown), on its noisy counts with the noise taken into account (stats.ts), Cramér's V, and a
 * sentence saying what they mean. Null when fewer than MIN_TESTED people
 * are in the table or it has fewer than two rows or columns with anyone in them.
 */
export function associationOf(input: AssociationInput): TestedAssociation | null {
  const columns = columnsOf(input);
  const table = input.rows.map((row) => {
    const cells = new Array<number>(columns.count).fill(0);
    row.counts.forEach((count, bucket) => (cells[columns.columnOf(bucket)] += count));
    return cells;
  });
  const noise = input.rows.map(() => columns.width.map((buckets) => buckets * input.variance));
  const test = chiSquareTest(table, noise);
  if (!test || test.n < MIN_TESTED) return null;
  const isReliable = reliable(test);
  const significant = isReliable && test.pValue < SIGNIFICANCE;
  const strength = strengthOf(test.cramersV, test.smallerDf);
  const reading: Reading = !isReliable
    ? { kind: 'unreliable', people: test.n }
    : significant
      ? standoutOf(input, table, test)
      : { kind: 'unlinked', people: test.n };
  return {
    test,
    association: {
      n: test.n,
      chi_square: Math.round(test.chiSquare * 1000) / 1000,
      df: test.df,
      p_value: test.pValue,
      cramers_v: Math.round(test.cramersV * 1000) / 1000,
      significant,
      strength,
    },
    reading,
  };
}
