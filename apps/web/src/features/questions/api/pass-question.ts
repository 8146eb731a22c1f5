import { apiPost } from '../../../lib/api-client';

/** Hides (passes) a question from the viewer's lists, or brings it back. */
export function setPassed(id: number, passed: boolean) {
  return apiPost(passed ? '/api/polls/pass/:id/' : '/api/polls/unpass/:id/', { params: { id } });
}
