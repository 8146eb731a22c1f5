import { apiPath } from '../../../lib/api-path';
import { useApiData } from '../../../lib/api-data';
import { referenceData } from '../../../lib/swr-config';

export const categoriesKey = apiPath('/api/polls/categories/');

export function useCategories() {
  return useApiData(categoriesKey, referenceData);
}
