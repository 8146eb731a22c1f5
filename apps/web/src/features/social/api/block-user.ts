import { apiPost } from '../../../lib/api-client';

export function setBlocking(user: number, blocked: boolean) {
  return apiPost(blocked ? '/api/auth/ban/:user/' : '/api/auth/unban/:user/', { params: { user } });
}
