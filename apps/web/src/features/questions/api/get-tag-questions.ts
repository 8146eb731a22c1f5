import { apiPath } from '../../../lib/api-path';
import { useQuestionPages } from './question-pages';

export const tagQuestionsKey = (tag: string) => apiPath('/api/polls/tag/:tag/', { params: { tag } });

export function useTagQuestions(tag: string) {
  return useQuestionPages(tagQuestionsKey(tag));
}
