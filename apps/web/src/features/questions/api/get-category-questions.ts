import { api } from '@pollscope/contract';
import { useQuestionPages } from './question-pages';

export const categoryQuestionsKey = (category: string) => api.category(category);

export function useCategoryQuestions(category: string) {
  return useQuestionPages(categoryQuestionsKey(category));
}
