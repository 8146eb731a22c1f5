import { api, type Account, type AccountUpdateBody } from '@pollscope/contract';
import { mutate } from 'swr';
import { ApiError, apiPost } from '../../../lib/api-client';
import { accountKey } from './get-account';

export async function updateAccount(body: AccountUpdateBody) {
  const result = await apiPost<Account>(api.account, body);
  if (!(result instanceof ApiError)) await mutate(accountKey, result, { revalidate: false });
  return result;
}
