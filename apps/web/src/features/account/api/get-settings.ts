import { apiPath } from '../../../lib/api-path';
import { useApiData } from '../../../lib/api-data';
import { referenceData } from '../../../lib/swr-config';

export const settingsKey = apiPath('/api/auth/settings/');

export function useSettings() {
  return useApiData(settingsKey, referenceData);
}
