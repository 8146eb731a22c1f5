import type { McAnswer, Question, Result, ValueAnswer } from '@pollscope/contract';
import type { QuestionRow } from '../db/schema.js';

export type QuestionKind = { type: 'MC'; keys: number[] } | { type: 'RS' | 'N'; min: number; max: number };

type QuestionShape = Pick<QuestionRow, 'type' | 'choice_labels' | 'range_min' | 'range_max'>;

export function choiceLabels(row: Pick<QuestionRow, 'choice_labels'>): string[] {
  return row.choice_labels ? (JSON.parse(row.choice_labels) as string[]) : [];
}

/** The choices as the contract's Question has them: MC keys and labels, or a rating's or number's bounds. */
export function choicesOf(row: Pick<QuestionRow, 'choice_labels'>, kind: QuestionKind): Question['choices'] {
  return kind.type === 'MC'
    ? choiceLabels(row).map((value, index) => ({ key: index + 1, value }))
    : { min: kind.min, max: kind.max };
}

/** MC choices are keyed 1..n in the order they were written. */
export function questionKind(row: QuestionShape): QuestionKind {
  if (row.type === 'MC') return { type: 'MC', keys: choiceLabels(row).map((_, index) => index + 1) };
  return { type: row.type, min: row.range_min ?? 0, max: row.range_max ?? 0 };
}

/** Whole percentages that add up to exactly 100 (largest remainder), in the order of `counts`. */
export function percentages(counts: number[]): number[] {
  const total = counts.reduce((sum, count) => sum + count, 0);
  if (total === 0) return counts.map(() => 0);
  const exact = counts.map((count) => (count * 100) / total);
  const floors = exact.map(Math.floor);
  let missing = 100 - floors.reduce((sum, value) => sum + value, 0);
  const byRemainder = exact
    .map((value, index) => ({ index, remainder: value - floors[index] }))
    .sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (const { index } of byRemainder) {
    if (missing === 0) break;
    floors[index] += 1;
    missing -= 1;
  }
  return floors;
}

export function roundTo2(value: number): number {
  return Math.round(value * 100) / 100;
}

/** A question's result from its votes per choice: percentages for MC, a distribution and average otherwise. */
export function buildResult(kind: QuestionKind, votesByChoice: ReadonlyMap<number, number>): Result {
  if (kind.type === 'MC') {
    const counts = kind.keys.map((key) => votesByChoice.get(key) ?? 0);
    const percents = percentages(counts);
    const answers: McAnswer[] = kind.keys.map((key, index) => ({ key, percent: percents[index] }));
    return { count: counts.reduce((sum, count) => sum + count, 0), answers };
  }
  let count = 0;
  let sum = 0;
  for (const [choice, votes] of votesByChoice) {
    count += votes;
    sum += choice * votes;
  }
  // A rating shows every step of its scale; a free number shows the values people gave.
  const choices =
    kind.type === 'RS'
      ? Array.from({ length: kind.max - kind.min + 1 }, (_, index) => kind.min + index)
      : [...votesByChoice.keys()].filter((choice) => (votesByChoice.get(choice) ?? 0) > 0).sort((a, b) => a - b);
  const answers: ValueAnswer[] = choices.map((choice) => ({ choice, count: votesByChoice.get(choice) ?? 0 }));
  return count > 0 ? { count, answers, average: roundTo2(sum / count) } : { count, answers };
}
