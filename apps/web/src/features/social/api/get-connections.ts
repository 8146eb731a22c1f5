import { apiPath } from '../../../lib/api-path';
import { useApiData } from '../../../lib/api-data';

export const connectionsKey = apiPath('/api/auth/connections/');

export function useConnections() {
  return useApiData(connectionsKey);
}
