import { PASSWORD_MIN_LENGTH } from '@pollscope/contract';
import type { FormMessage } from '../../lib/form-message';

/** The texts the sign-up and new-password forms make in the browser, in the same words as the account forms. */
export const authMessages = {
  required: { id: 'account.validation.required' },
  email: { id: 'account.validation.email' },
  mismatch: { id: 'account.validation.mismatch' },
  passwordLength: { id: 'account.validation.passwordLength', values: { min: PASSWORD_MIN_LENGTH } },
} as const satisfies Record<string, FormMessage>;
