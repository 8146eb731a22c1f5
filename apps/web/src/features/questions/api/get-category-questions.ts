import { apiPath } from '../../../lib/api-path';
import { useQuestionPages } from './question-pages';

export const categoryQuestionsKey = (category: string) =>
  apiPath('/api/polls/category/:category/', { params: { category } });

export function useCategoryQuestions(category: string) {
  return useQuestionPages(categoryQuestionsKey(category));
}
