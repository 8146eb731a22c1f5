import { api, type QuizItem } from '@pollscope/contract';
import useSWR from 'swr';
import { referenceData } from '../../../lib/swr-config';

export const quizzesKey = api.quizes;

export function useQuizzes() {
  return useSWR<QuizItem[]>(quizzesKey, referenceData);
}
