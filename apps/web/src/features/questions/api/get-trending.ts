import { apiPath } from '../../../lib/api-path';
import { useQuestionPages } from './question-pages';

/** The questions answered most in the last 24 hours, sent whole. */
export function useTrending() {
  return useQuestionPages(apiPath('/api/polls/trending/'));
}
