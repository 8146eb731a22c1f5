import { apiPost } from '../../../lib/api-client';

/** Connects to (follows) a user, or disconnects. */
export function setFollowing(user: number, connected: boolean) {
  return apiPost(connected ? '/api/auth/follow/:user/' : '/api/auth/unfollow/:user/', { params: { user } });
}
