import { apiGet } from '../../../lib/api-client';
import { apiPath } from '../../../lib/api-path';

/** The server's public key, which a subscription must be made with for the server's pushes to reach it. */
export function getPushKey() {
  return apiGet(apiPath('/api/push/key/'));
}
