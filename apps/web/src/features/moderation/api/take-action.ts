import { REPORT_STATUSES, type ModerationActionBody } from '@pollscope/contract';
import { useSWRConfig } from 'swr';
import { unstable_serialize } from 'swr/infinite';
import { ApiError, apiPost } from '../../../lib/api-client';
import { pageKeys } from '../../../lib/cursor-pages';
import { logKey } from './get-log';
import { openCountKey } from './get-open-count';
import { reportsKey } from './get-reports';

/**
 * Acts on a reported question or person, then asks again for what the action changed: both
 * tabs of the queue (its reports close), the log (a new entry) and the header's open count.
 * Resolves to the error when it failed.
 */
export function useTakeAction() {
  const { mutate } = useSWRConfig();
  return async (body: ModerationActionBody): Promise<ApiError | null> => {
    const result = await apiPost('/api/moderation/actions/', { body });
    if (result instanceof ApiError) return result;
    const lists = [...REPORT_STATUSES.map(reportsKey), logKey].map((path) =>
      mutate(unstable_serialize(pageKeys(path))),
    );
    await Promise.all([...lists, mutate(openCountKey)]);
    return null;
  };
}
