import { api, type BreakdownFilterBody, type BreakdownResult } from '@pollscope/contract';
import { apiPost } from '../../../lib/api-client';

export function filterBreakdown(question: number, filter: BreakdownFilterBody) {
  return apiPost<BreakdownResult>(api.breakdown(question), filter);
}
