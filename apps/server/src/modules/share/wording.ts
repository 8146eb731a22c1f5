import type { Question } from '@pollscope/contract';

/** The choices of a multiple-choice question, in order; none for a rating or a number. */
export function choiceValues(question: Pick<Question, 'choices'>): string[] {
  return Array.isArray(question.choices) ? question.choices.map((choice) => choice.value) : [];
}

/** How a rating or a number is answered, in words; null for a multiple choice. */
export function scaleText(question: Pick<Question, 'type' | 'choices'>): string | null {
  if (Array.isArray(question.choices)) return null;
  const { min, max } = question.choices;
  return question.type === 'RS'
    ? `Rate from ${min} to ${max}`
    : `Answer with a number from ${min.toLocaleString('en')} to ${max.toLocaleString('en')}`;
}

export function votesText(count: number): string {
  return `${count.toLocaleString('en')} ${count === 1 ? 'vote' : 'votes'}`;
}

/** What a link preview says under the title: who asked, how many answered, and the choices. */
export function previewDescription(question: Question): string {
  const choices = choiceValues(question);
  const answers = choices.length > 0 ? `${choices.join(' · ')}.` : `${scaleText(question)}.`;
  return `Asked by ${question.user_name} · ${votesText(question.vote_count)}. ${answers} Answer to see how people split.`;
}

/**
 * The vote count a picture shows: exact under 10, then rounded down to one significant digit
 * under 100 and two above ("40+", "1.2K+"), so a picture stays right, and cached, for many votes.
 */
export function shownVotes(count: number): string {
  if (count < 10) return `${count} ${count === 1 ? 'vote' : 'votes'}`;
  const digits = count < 100 ? 1 : 2;
  const unit = 10 ** (Math.floor(Math.log10(count)) - digits + 1);
  const rounded = Math.floor(count / unit) * unit;
  return `${new Intl.NumberFormat('en', { notation: 'compact' }).format(rounded)}+ votes`;
}

/** What a picture shows of a question: two questions alike in this get the same picture. */
export function shownOf(question: Question) {
  return {
    id: question.id,
    qid: question.qid,
    title: question.title,
    choices: choiceValues(question),
    scale: scaleText(question),
    tag: question.tags[0]?.name ?? null,
    author: question.user_name,
    votes: shownVotes(question.vote_count),
  };
}
export type Shown = ReturnType<typeof shownOf>;
