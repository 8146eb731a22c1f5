import type { EmailConfirmBody } from '@pollscope/contract';
import { mutate } from 'swr';
import { ApiError, apiPost } from '../../../lib/api-client';
import { settingsKey } from './get-settings';

/**
 * Makes the new email the account's with the token of the link mailed to it; no sign-in needed, the token is the proof.
 */
export async function confirmEmail(body: EmailConfirmBody) {
  const result = await apiPost('/api/auth/email/confirm/', { body }, { anonymous: true });
  // The preferences, if this device has them, show the new email and nothing waiting.
  if (!(result instanceof ApiError)) await mutate(settingsKey);
  return result;
}
