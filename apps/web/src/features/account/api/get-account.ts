import { apiPath } from '../../../lib/api-path';
import { useApiData } from '../../../lib/api-data';
import { referenceData } from '../../../lib/swr-config';

export const accountKey = apiPath('/api/auth/account/');

export function useAccount() {
  return useApiData(accountKey, referenceData);
}
