import { api, type BreakdownFilters, type Question } from '@pollscope/contract';
import useSWR from 'swr';
import { referenceData } from '../../../lib/swr-config';

export const breakdownKey = (question: string | number) => api.breakdown(question);

export function useBreakdown(question: string) {
  return useSWR<{ question: Question; filters: BreakdownFilters }>(breakdownKey(question), referenceData);
}
