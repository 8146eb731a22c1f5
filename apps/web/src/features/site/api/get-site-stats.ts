import { apiPath } from '../../../lib/api-path';
import { useApiData } from '../../../lib/api-data';

export const siteStatsKey = apiPath('/api/polls/site-stats/');

export function useSiteStats() {
  return useApiData(siteStatsKey);
}
