import type { AccountUpdateBody } from '@pollscope/contract';
import { mutate } from 'swr';
import { ApiError, apiPost } from '../../../lib/api-client';
import { accountKey } from './get-account';

export async function updateAccount(body: AccountUpdateBody) {
  const result = await apiPost('/api/auth/account/', { body });
  if (!(result instanceof ApiError)) await mutate(accountKey, result, { revalidate: false });
  return result;
}
