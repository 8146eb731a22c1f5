import type { Comparison } from '@pollscope/contract';
import type { QuestionKind } from '../../views/results.js';
import { percentages, roundTo2 } from '../../views/results.js';
import { sampleOf, totalOf } from './breakdown.js';
import type { Counts } from './counts.js';

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

/** The answers of a question in the order it shows them: its choices, or the values voted. */
function answersOf(kind: QuestionKind, labels: string[], ...votes: Counts[]): { key: number; label: string }[] {
  if (kind.type === 'MC') return kind.keys.map((key, index) => ({ key, label: labels[index] ?? String(key) }));
  const values = new Set<number>();
  for (const counts of votes) for (const [value, count] of counts) if (count > 0) values.add(value);
  return [...values].sort((a, b) => a - b).map((value) => ({ key: value, label: String(value) }));
}

function percentsOf(answers: { key: number }[], votes: Counts): Map<number, number> {
  const shares = percentages(answers.map((answer) => votes.get(answer.key) ?? 0));
  return new Map(answers.map((answer, index) => [answer.key, shares[index]]));
}

export interface GroupLines {
  kind: QuestionKind;
  labels: string[];
  /** The group's votes per answer, or null when they may not be shown. */
  group: Counts | null;
  everyone: Counts;
  comparison: Comparison | null;
}

/**
 * The lines of one group beside everyone, each starting with `prefix`: one per answer (votes,
 * percent, margin of error, everyone's votes and percent, whether the difference is
 * significant), and for a rating or number a last line with the averages. A group that may not
 * be shown gets one line that says so.
 */
export function groupLines(prefix: Cell[], { kind, labels, group, everyone, comparison }: GroupLines): Cell[][] {
  if (group === null) return [[...prefix, null, null, null, null, null, null, null, TOO_FEW]];
  const answers = answersOf(kind, labels, group, everyone);
  const groupPercents = percentsOf(answers, group);
  const everyonePercents = percentsOf(answers, everyone);
  const lines: Cell[][] = answers.map((answer) => {
    const row = comparison?.rows.find((candidate) => candidate.key === answer.key);
    return [
      ...prefix,
      answer.label,
      group.get(answer.key) ?? 0,
      groupPercents.get(answer.key) ?? 0,
      row?.margin ?? null,
      everyone.get(answer.key) ?? 0,
      everyonePercents.get(answer.key) ?? 0,
      row?.significant ?? null,
      null,
    ];
  });
  if (kind.type !== 'MC' && totalOf(group) > 0) {
    const average = comparison?.average;
    lines.push([...prefix, 'average', roundTo2(sampleOf(group).mean), null, average?.margin ?? null, roundTo2(sampleOf(everyone).mean), null, average?.significant ?? null, null]);
  }
  return lines;
}

export const GROUP_COLUMNS = ['answer', 'votes', 'percent', 'margin_of_error', 'everyone_votes', 'everyone_percent', 'significant', 'note'];
