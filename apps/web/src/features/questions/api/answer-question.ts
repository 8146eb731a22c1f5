import { api, type AnswerBody, type Question } from '@pollscope/contract';
import { apiPost } from '../../../lib/api-client';

/** Casts the viewer's vote; the answer is the question with the vote and the result. */
export function answerQuestion(id: number, choice: number) {
  return apiPost<Question>(api.answer(id), { choice } satisfies AnswerBody);
}
