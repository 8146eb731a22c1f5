import { apiPath } from '../../../lib/api-path';
import { useApiData } from '../../../lib/api-data';

/** People whose first name starts with `query`; nothing is asked for an empty query. */
export function usePeople(query: string) {
  return useApiData(query.trim() ? apiPath('/api/auth/people/', { query: { q: query.trim() } }) : null);
}
