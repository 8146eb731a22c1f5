import { embedPath, type EmbedAnsweredMessage, type Question } from '@pollscope/contract';
import { mcChoices, rangeOf } from '../../lib/question-shape';

/**
 * The window an embed opens to vote (`embedVotePath`: `/q/{id}?answer=…`, which the server leads on to the question
 * screen with the same `answer`). The person confirms there with a click of their own; the window then tells the
 * embed that opened it and closes (docs/security.md, "Voting from an embed").
 */

/** The query parameter that carries the answer chosen in the embed. */
export const ANSWER_PARAMETER = 'answer';

/** The answer `raw` names, if the question offers it: a choice's key, a whole rating or a number within bounds. */
export function offeredChoice(question: Pick<Question, 'type' | 'choices'>, raw: string): number | null {
  const value = raw.trim() === '' ? NaN : Number(raw);
  if (!Number.isFinite(value)) return null;
  if (question.type === 'MC') return mcChoices(question).some((choice) => choice.key === value) ? value : null;
  if (question.type === 'RS' && !Number.isInteger(value)) return null;
  const range = rangeOf(question);
  return value >= range.min && value <= range.max ? value : null;
}

/**
 * The embed of `questionId` that opened this window, or null: opened directly, by another page of the site, or by
 * another site, which the opener's address, unreadable across origins, tells apart.
 */
export function openingEmbed(questionId: number): Window | null {
  const opener = window.opener as Window | null;
  if (!opener) return null;
  try {
    return opener.location.origin === window.location.origin && opener.location.pathname === embedPath(questionId)
      ? opener
      : null;
  } catch {
    return null;
  }
}

/** The message that tells the embed the person's answer and the result they may now see. */
export function answeredMessage(question: Question): EmbedAnsweredMessage | null {
  if (!question.answer || !question.result) return null;
  return {
    type: 'pollscope:answered',
    question_id: question.id,
    choice: question.answer.choice,
    result: question.result,
  };
}
