import { apiPath } from '../../../lib/api-path';
import { useApiData } from '../../../lib/api-data';

export const questionKey = (id: string | number) => apiPath('/api/polls/question/:id/', { params: { id } });

export function useQuestion(id: string) {
  return useApiData(questionKey(id));
}
