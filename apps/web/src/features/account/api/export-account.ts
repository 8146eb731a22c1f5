import { api } from '@pollscope/contract';
import { apiDownload } from '../../../lib/api-client';

/** Everything stored about the person, as the JSON file the server names. */
export function exportAccount() {
  return apiDownload(api.exportAccount, 'pollscope-data.json');
}
