import { api } from '@pollscope/contract';
import { apiPost } from '../../../lib/api-client';

export function setLiked(id: number, liked: boolean) {
  return apiPost<{ liked: boolean }>(liked ? api.like(id) : api.unlike(id));
}
