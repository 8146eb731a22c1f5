import { apiDownload } from '../../../lib/api-client';
import { apiPath } from '../../../lib/api-path';

/** Everything stored about the person, as the JSON file the server names. */
export function exportAccount() {
  return apiDownload(apiPath('/api/auth/export/'), 'pollscope-data.json');
}
