import { apiPost } from '../../../lib/api-client';

/** The first question's result among the voters of one choice of the second. */
export function filterRelate(first: number, second: number, choice: number) {
  return apiPost('/api/polls/relate/:a/:b/', { params: { a: first, b: second }, body: { choice } });
}
