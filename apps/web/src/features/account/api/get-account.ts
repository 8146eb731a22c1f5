import { api, type Account } from '@pollscope/contract';
import useSWR from 'swr';
import { referenceData } from '../../../lib/swr-config';

export const accountKey = api.account;

export function useAccount() {
  return useSWR<Account>(accountKey, referenceData);
}
