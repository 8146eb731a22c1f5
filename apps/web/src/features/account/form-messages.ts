import { PASSWORD_MIN_LENGTH } from '@pollscope/contract';
import type { FormMessage } from '../../lib/form-message';

/** The texts the account forms make in the browser. */
export const accountMessages = {
  loadFailed: { id: 'account.loadFailed' },
  required: { id: 'account.validation.required' },
  email: { id: 'account.validation.email' },
  mismatch: { id: 'account.validation.mismatch' },
  passwordLength: { id: 'account.validation.passwordLength', values: { min: PASSWORD_MIN_LENGTH } },
  settingsSaved: { id: 'account.settings.saved' },
  settingsFailed: { id: 'account.settings.failed' },
  personalInfoSaved: { id: 'account.personalInfo.saved' },
  currentPasswordHint: { id: 'account.settings.currentPasswordHint' },
} as const satisfies Record<string, FormMessage>;
