import { api, type Stats } from '@pollscope/contract';
import useSWR from 'swr';

export const myStatsKey = api.myStats;

export function useMyStats() {
  return useSWR<Stats>(myStatsKey);
}
