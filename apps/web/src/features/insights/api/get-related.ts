import { apiPath } from '../../../lib/api-path';
import { useApiData } from '../../../lib/api-data';

export const relatedKey = (question: string | number) =>
  apiPath('/api/polls/related/:id/', { params: { id: question } });

export function useRelatedQuestions(question: number) {
  return useApiData(relatedKey(question));
}
