import { api, type Question } from '@pollscope/contract';
import useSWR from 'swr';

export const questionKey = (id: string | number) => api.question(id);

export function useQuestion(id: string) {
  return useSWR<Question>(questionKey(id));
}
