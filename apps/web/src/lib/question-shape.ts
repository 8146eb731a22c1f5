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

export function votesLabel(count: number): string {
  return `${count.toLocaleString('en')} ${count === 1 ? 'vote' : 'votes'}`;
}

const dateFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateFormat.format(date);
}
