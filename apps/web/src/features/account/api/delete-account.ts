import type { DeleteAccountBody } from '@pollscope/contract';
import { apiPost } from '../../../lib/api-client';

/** Deletes the account and everything in it; answered with no content. */
export function deleteAccount(body: DeleteAccountBody) {
  return apiPost('/api/auth/delete/', { body });
}
