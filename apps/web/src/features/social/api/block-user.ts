import { api } from '@pollscope/contract';
import { apiPost } from '../../../lib/api-client';

export function setBlocking(user: number, blocked: boolean) {
  return apiPost<{ blocked: boolean }>(blocked ? api.ban(user) : api.unban(user));
}
