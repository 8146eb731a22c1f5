import type { CreateQuestionBody } from '@pollscope/contract';
import { apiPost } from '../../../lib/api-client';

export function createQuestion(body: CreateQuestionBody) {
  return apiPost('/api/polls/create/', { body });
}
