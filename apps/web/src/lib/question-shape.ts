import type { McAnswer, Question, Result, ValueAnswer } from '@pollscope/contract';

export type McChoice = { key: number; value: string };
export type Range = { min: number; max: number };

/** The slider's bounds when a question carries none. */
const DEFAULT_RANGE: Range = { min: 0, max: 10 };

export function mcChoices(question: Pick<Question, 'choices'>): McChoice[] {
  return Array.isArray(question.choices) ? question.choices : [];
}

export function rangeOf(question: Pick<Question, 'choices'>): Range {
  return Array.isArray(question.choices) ? DEFAULT_RANGE : question.choices;
}

export function mcAnswers(result: Result): McAnswer[] {
  return result.answers.filter((answer): answer is McAnswer => 'key' in answer);
}

export function valueAnswers(result: Result): ValueAnswer[] {
  return result.answers.filter((answer): answer is ValueAnswer => 'choice' in answer);
}

/** The mean of the votes, from the server when it gives one. */
export function averageOf(result: Result): number | null {
  if (result.average !== undefined) return result.average;
  const answers = valueAnswers(result);
  const count = answers.reduce((sum, answer) => sum + answer.count, 0);
  if (count === 0) return null;
  return answers.reduce((sum, answer) => sum + answer.choice * answer.count, 0) / count;
}

export function formatAverage(value: number): string {
  return value.toFixed(2);
}

export function choiceLabel(question: Pick<Question, 'choices'>, key: number): string {
  return mcChoices(question).find((choice) => choice.key === key)?.value ?? `Choice ${key}`;
}

export const typeLabels: Record<Question['type'], string> = {
  MC: 'Multiple choice',
  RS: 'Rate 1 to 10',
  N: 'Number',
};

/*
 * Counts and dates on a question card are written out here rather than with Intl: a page's first
 * use of Intl loads its locale data, which costs a fresh page 15 to 70 ms before it can show its
 * first card. They read as Intl writes them in English ("en", and "en-GB" in UTC).
 */

/** A whole number with its thousands set apart by commas: "12,345". */
export function formatCount(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

export function votesLabel(count: number): string {
  return `${formatCount(count)} ${count === 1 ? 'vote' : 'votes'}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sept', 'Oct', 'Nov', 'Dec'];

/** A day in UTC: "4 May 2026". */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}
