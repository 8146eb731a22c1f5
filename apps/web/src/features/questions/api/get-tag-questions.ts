import { api } from '@pollscope/contract';
import { useQuestionPages } from './question-pages';

export const tagQuestionsKey = (tag: string) => api.tag(tag);

export function useTagQuestions(tag: string) {
  return useQuestionPages(tagQuestionsKey(tag));
}
