import { api, type Trending } from '@pollscope/contract';
import { useQuestionPages } from './question-pages';

/** The questions answered most in the last 24 hours, sent whole. */
export function useTrending() {
  return useQuestionPages<Trending>(api.trending);
}
