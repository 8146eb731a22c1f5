import { apiPost } from '../../../lib/api-client';

export function setLiked(id: number, liked: boolean) {
  return apiPost(liked ? '/api/polls/like/:id/' : '/api/polls/unlike/:id/', { params: { id } });
}
