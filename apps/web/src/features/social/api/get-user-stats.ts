import { api, type UserStats } from '@pollscope/contract';
import useSWR from 'swr';

export const userStatsKey = (user: string | number) => api.userStats(user);

export function useUserStats(user: string) {
  return useSWR<UserStats>(userStatsKey(user));
}
