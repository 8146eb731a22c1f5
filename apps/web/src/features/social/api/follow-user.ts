import { api } from '@pollscope/contract';
import { apiPost } from '../../../lib/api-client';

/** Connects to (follows) a user, or disconnects. */
export function setFollowing(user: number, connected: boolean) {
  return apiPost<{ connected: boolean }>(connected ? api.follow(user) : api.unfollow(user));
}
