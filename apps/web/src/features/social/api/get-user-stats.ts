import { apiPath } from '../../../lib/api-path';
import { useApiData } from '../../../lib/api-data';

export const userStatsKey = (user: string | number) => apiPath('/api/polls/stats/:user/', { params: { user } });

export function useUserStats(user: string) {
  return useApiData(userStatsKey(user));
}
