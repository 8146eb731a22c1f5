import { apiPath } from '../../../lib/api-path';
import { useApiData } from '../../../lib/api-data';

export const relateKey = (first: string | number, second: string | number) =>
  apiPath('/api/polls/relate/:a/:b/', { params: { a: first, b: second } });

/** Two questions, how their answers are linked, and the first's result among each choice's voters of the second. */
export function useRelatePair(first: string, second: string) {
  return useApiData(relateKey(first, second));
}
