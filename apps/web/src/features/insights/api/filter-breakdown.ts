import type { BreakdownFilterBody } from '@pollscope/contract';
import { apiPost } from '../../../lib/api-client';

export function filterBreakdown(question: number, filter: BreakdownFilterBody) {
  return apiPost('/api/polls/breakdown/:id/', { params: { id: question }, body: filter });
}
