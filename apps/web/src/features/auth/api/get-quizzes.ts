import { apiPath } from '../../../lib/api-path';
import { useApiData } from '../../../lib/api-data';
import { referenceData } from '../../../lib/swr-config';

export const quizzesKey = apiPath('/api/polls/quizes/');

export function useQuizzes() {
  return useApiData(quizzesKey, referenceData);
}
