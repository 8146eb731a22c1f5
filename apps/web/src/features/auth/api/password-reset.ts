import type { PasswordResetBody, PasswordResetConfirmBody } from '@pollscope/contract';
import { apiPost } from '../../../lib/api-client';

/** Asks for a link to choose a new password; the answer is the same whether or not the address has an account. */
export function requestPasswordReset(body: PasswordResetBody) {
  return apiPost('/api/auth/password-reset/', { body }, { anonymous: true });
}

/** Sets the new password with the mailed link's token; the answer signs its owner in. */
export function resetPassword(body: PasswordResetConfirmBody) {
  return apiPost('/api/auth/password-reset/confirm/', { body }, { anonymous: true });
}
