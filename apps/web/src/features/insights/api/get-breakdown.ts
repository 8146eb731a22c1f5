import { apiPath } from '../../../lib/api-path';
import { useApiData } from '../../../lib/api-data';
import { referenceData } from '../../../lib/swr-config';

export const breakdownKey = (question: string | number) =>
  apiPath('/api/polls/breakdown/:id/', { params: { id: question } });

/** A question, the filters its breakdown offers, and each attribute's whole split. */
export function useBreakdown(question: string) {
  return useApiData(breakdownKey(question), referenceData);
}
