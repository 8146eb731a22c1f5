import { api, type ModerationOpenCount } from '@pollscope/contract';
import useSWR from 'swr';

export const openCountKey = api.moderationOpenCount;

/** Reports arrive without telling anyone: the count is asked for again this often while it is shown. */
const REFRESH_MS = 60_000;

/** How many reported targets wait for a moderator; only asked for when `moderator`. */
export function useOpenCount(moderator: boolean): number | undefined {
  return useSWR<ModerationOpenCount>(moderator ? openCountKey : null, { refreshInterval: REFRESH_MS }).data?.open;
}
