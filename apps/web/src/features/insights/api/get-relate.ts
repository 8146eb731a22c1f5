import { api, type RelatePair } from '@pollscope/contract';
import useSWR from 'swr';

export const relateKey = (first: string | number, second: string | number) => api.relate(first, second);

/** Two questions, how their answers are linked, and the first's result among each choice's voters of the second. */
export function useRelatePair(first: string, second: string) {
  return useSWR<RelatePair>(relateKey(first, second));
}
