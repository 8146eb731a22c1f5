import { api, type RelatedQuestion } from '@pollscope/contract';
import useSWR from 'swr';

export const relatedKey = (question: string | number) => api.related(question);

export function useRelatedQuestions(question: number) {
  return useSWR<{ related: RelatedQuestion[] }>(relatedKey(question));
}
