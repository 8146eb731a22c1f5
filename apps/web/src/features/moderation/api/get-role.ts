import { api, type Account, type Role } from '@pollscope/contract';
import useSWR from 'swr';
import { referenceData } from '../../../lib/swr-config';

/** The viewer's role, from their account (the same cached call as the personal info screen's). */
export function useRole(): Role | undefined {
  return useSWR<Account>(api.account, referenceData).data?.role;
}

/** Moderators and admins read the reports and act on them. */
export const moderates = (role: Role | undefined) => role === 'moderator' || role === 'admin';
