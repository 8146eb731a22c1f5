import { PASSWORD_MIN_LENGTH } from '@pollscope/contract';
import type { IntlShape } from 'react-intl';
import type { MessageId } from '../../i18n/i18n-provider';

/**
 * A text a form shows beside a field: one of the catalogs' messages, said in the language on
 * screen when shown (so a switch of language changes it too), or the server's own words as they
 * came (the server writes them in the person's language).
 */
export type FormMessage = { id: MessageId; values?: Record<string, string | number> } | { text: string };

/** The texts the sign-up and new-password forms make in the browser. */
export const authMessages = {
  required: { id: 'register.validation.required' },
  email: { id: 'register.validation.email' },
  mismatch: { id: 'register.validation.mismatch' },
  passwordLength: { id: 'register.validation.passwordLength', values: { min: PASSWORD_MIN_LENGTH } },
} as const satisfies Record<string, FormMessage>;

/** A form message in words, in the language on screen. */
export function say(intl: IntlShape, message: FormMessage | undefined): string | undefined {
  if (message === undefined) return undefined;
  return 'id' in message ? intl.formatMessage({ id: message.id }, message.values) : message.text;
}
