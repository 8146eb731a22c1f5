import { api, type RegisterBody } from '@pollscope/contract';
import { apiPost } from '../../../lib/api-client';

export function register(body: RegisterBody) {
  return apiPost<{ token: string }>(api.register, body, { anonymous: true });
}
