import { api, type Association, type Question, type RelatePrivacy } from '@pollscope/contract';
import useSWR from 'swr';

export const relateKey = (first: string | number, second: string | number) => api.relate(first, second);

export interface RelatePair {
  first: Question;
  second: Question;
  association: Association | null;
  privacy: RelatePrivacy;
}

export function useRelatePair(first: string, second: string) {
  return useSWR<RelatePair>(relateKey(first, second));
}
