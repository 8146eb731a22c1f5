import { api, type PasswordResetBody, type PasswordResetConfirmBody } from '@pollscope/contract';
import { apiPost } from '../../../lib/api-client';

/** Asks for a link to choose a new password; the answer is the same whether or not the address has an account. */
export function requestPasswordReset(body: PasswordResetBody) {
  return apiPost<{ message: string }>(api.passwordReset, body, { anonymous: true });
}

/** Sets the new password with the mailed link's token; the answer signs its owner in. */
export function resetPassword(body: PasswordResetConfirmBody) {
  return apiPost<{ token: string }>(api.passwordResetConfirm, body, { anonymous: true });
}
