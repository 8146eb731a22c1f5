import type { Role } from '@pollscope/contract';
import { apiPath } from '../../../lib/api-path';
import { useApiData } from '../../../lib/api-data';
import { referenceData } from '../../../lib/swr-config';

/** The viewer's role, from their account (the same cached call as the personal info screen's). */
export function useRole(): Role | undefined {
  return useApiData(apiPath('/api/auth/account/'), referenceData).data?.role;
}

/** Moderators and admins read the reports and act on them. */
export const moderates = (role: Role | undefined) => role === 'moderator' || role === 'admin';
