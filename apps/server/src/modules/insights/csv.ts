import type { Comparison } from '@pollscope/contract';
import type { QuestionKind } from '../../views/results.js';
import { percentages, roundTo2 } from '../../views/results.js';
import { sampleOf, totalOf, type ReleasedCounts } from './released-groups.js';
import type { Buckets } from './buckets.js';

type Cell = string | number | boolean | null;

/**
 * One CSV field (RFC 4180). Text a person wrote is kept from being read as a formula by a
 * spreadsheet: a leading =, +, - or @ gets a quote mark in front.
 */
function field(value: Cell): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(header: string[], rows: Cell[][]): string {
  return [header, ...rows].map((row) => row.map(field).join(',')).join('\r\n') + '\r\n';
}

export const TOO_FEW = 'too few voters match to show results';
export const BUDGET_SPENT =
  'not released: a question of the pair has been related to as many others as its privacy budget allows';

/** Each bucket's answer as a download names it: the choice, the rating, or the range of numbers. */
export function bucketLabels(kind: QuestionKind, labels: string[], buckets: Buckets): string[] {
  if (kind.type === 'MC') return kind.keys.map((key, index) => labels[index] ?? String(key));
  if (buckets.ranges) return buckets.ranges.map((range) => `from ${roundTo2(range.from)} to ${roundTo2(range.upto)}`);
  return buckets.values.map(String);
}

export interface GroupLines {
  kind: QuestionKind;
  /** Each bucket's answer (bucketLabels). */
  answers: string[];
  buckets: Buckets;
  /** The group's released votes per bucket, or null when too few match to show them. */
  group: ReleasedCounts | null;
  /** Everyone's votes per bucket as published (publicCounts), and for a rating or number their exact average. */
  everyone: number[];
  everyoneAverage: number | null;
  comparison: Comparison | null;
}

/**
 * The lines of one group beside everyone, each starting with `prefix`: one per answer (votes,
 * the standard deviation of the privacy noise in them, percent, margin of error, everyone's votes
 * and percent, whether the difference is significant), and for a rating or number a last line
 * with the averages. A group not shown gets one line that says why (`note`). A multiple-choice
 * question's exact counts are never written, as its result never shows them: everyone's votes are
 * their number on every line, and a group that is everyone (exact) has no votes per choice.
 */
export function groupLines(
  prefix: Cell[],
  { kind, answers, buckets, group, everyone, everyoneAverage, comparison }: GroupLines,
  note = TOO_FEW,
): Cell[][] {
  if (group === null) return [[...prefix, null, null, null, null, null, null, null, null, note]];
  const choices = kind.type === 'MC';
  const groupPercents = percentages(group.counts);
  const everyonePercents = percentages(everyone);
  const everyoneCount = Math.round(totalOf(everyone));
  const noiseSd = roundTo2(Math.sqrt(group.variance));
  const lines: Cell[][] = answers.map((answer, index) => {
    const row = comparison?.rows[index];
    return [
      ...prefix,
      answer,
      choices && group.variance === 0 ? null : group.counts[index],
      noiseSd,
      groupPercents[index],
      row?.margin ?? null,
      choices ? everyoneCount : everyone[index],
      everyonePercents[index],
      row?.significant ?? null,
      null,
    ];
  });
  if (everyoneAverage !== null && totalOf(group.counts) > 0) {
    const average = comparison?.average;
    const groupAverage = group.variance === 0 ? everyoneAverage : roundTo2(sampleOf(buckets.values, group.counts).mean);
    lines.push([
      ...prefix,
      'average',
      groupAverage,
      null,
      null,
      average?.margin ?? null,
      everyoneAverage,
      null,
      average?.significant ?? null,
      null,
    ]);
  }
  return lines;
}

export const GROUP_COLUMNS = [
  'answer',
  'votes',
  'noise_sd',
  'percent',
  'margin_of_error',
  'everyone_votes',
  'everyone_percent',
  'significant',
  'note',
];
