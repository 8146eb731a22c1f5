import type { RoleBody } from '@pollscope/contract';
import { apiPost } from '../../../lib/api-client';

/** Makes a person a moderator, or a member again (admins only). */
export function setRole(body: RoleBody) {
  return apiPost('/api/moderation/roles/', { body });
}
