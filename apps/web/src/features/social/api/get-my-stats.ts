import { apiPath } from '../../../lib/api-path';
import { useApiData } from '../../../lib/api-data';

export const myStatsKey = apiPath('/api/polls/stats/');

export function useMyStats() {
  return useApiData(myStatsKey);
}
