import { apiPath } from '../../../lib/api-path';
import { useApiData } from '../../../lib/api-data';
import { referenceData } from '../../../lib/swr-config';

export const countriesKey = apiPath('/api/polls/countries/');

export function useCountries() {
  return useApiData(countriesKey, referenceData);
}
