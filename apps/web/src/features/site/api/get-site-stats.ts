import { api, type SiteStats } from '@pollscope/contract';
import useSWR from 'swr';

export const siteStatsKey = api.siteStats;

export function useSiteStats() {
  return useSWR<SiteStats>(siteStatsKey);
}
