import { api, type CreateQuestionBody, type Question } from '@pollscope/contract';
import { apiPost } from '../../../lib/api-client';

export function createQuestion(body: CreateQuestionBody) {
  return apiPost<{ question: Question }>(api.create, body);
}
