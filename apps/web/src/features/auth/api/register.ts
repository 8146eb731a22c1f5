import type { RegisterBody } from '@pollscope/contract';
import { apiPost } from '../../../lib/api-client';

export function register(body: RegisterBody) {
  return apiPost('/api/auth/register/', { body }, { anonymous: true });
}
