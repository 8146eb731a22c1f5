import { apiPath } from '../../../lib/api-path';
import { useApiData } from '../../../lib/api-data';

/**
 * People the viewer may want to follow, each with the reason: asked again each time they are shown, as following
 * changes them.
 */
export function useSuggestions() {
  return useApiData(apiPath('/api/auth/suggestions/'));
}
