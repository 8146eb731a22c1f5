import { api, type RoleBody, type RoleSet } from '@pollscope/contract';
import { apiPost } from '../../../lib/api-client';

/** Makes a person a moderator, or a member again (admins only). */
export function setRole(body: RoleBody) {
  return apiPost<RoleSet>(api.moderationRoles, body);
}
