import { apiPath } from '../../../lib/api-path';
import { useApiData } from '../../../lib/api-data';

export const openCountKey = apiPath('/api/moderation/open/');

/** Reports arrive without telling anyone: the count is asked for again this often while it is shown. */
const REFRESH_MS = 60_000;

/** How many reported targets wait for a moderator; only asked for when `moderator`. */
export function useOpenCount(moderator: boolean): number | undefined {
  return useApiData(moderator ? openCountKey : null, { refreshInterval: REFRESH_MS }).data?.open;
}
