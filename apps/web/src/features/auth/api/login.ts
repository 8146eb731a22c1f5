import type { LoginBody } from '@pollscope/contract';
import { apiPost } from '../../../lib/api-client';

export function login(body: Pick<LoginBody, 'email' | 'password'>) {
  return apiPost('/api/login/', { body }, { anonymous: true });
}
