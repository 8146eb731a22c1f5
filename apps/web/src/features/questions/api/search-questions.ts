import { apiPath } from '../../../lib/api-path';
import { useQuestionPages } from './question-pages';

/** Questions whose title, tags or choices hold the words searched, best match first, a page at a time. */
export function useSearchQuestions(query: string) {
  return useQuestionPages(apiPath('/api/polls/search/', { query: { q: query } }));
}
