import { api, type BreakdownInfo } from '@pollscope/contract';
import useSWR from 'swr';
import { referenceData } from '../../../lib/swr-config';

export const breakdownKey = (question: string | number) => api.breakdown(question);

/** A question, the filters its breakdown offers, and each attribute's whole split. */
export function useBreakdown(question: string) {
  return useSWR<BreakdownInfo>(breakdownKey(question), referenceData);
}
