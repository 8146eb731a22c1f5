import { apiPost } from '../../../lib/api-client';

/** Casts the viewer's vote; the answer is the question with the vote and the result. */
export function answerQuestion(id: number, choice: number) {
  return apiPost('/api/polls/answer/:id/', { params: { id }, body: { choice } });
}
