import type { IntlShape } from 'react-intl';
import type { MessageId } from '../i18n/catalogs';

/**
 * A text a form shows beside a field or under it: one of the catalogs' messages, said in the
 * language on screen when shown (so a switch of language changes it too), or the server's own
 * words as they came (the server writes them in the person's language).
 */
export type FormMessage = { id: MessageId; values?: Record<string, string | number> } | { text: string };

/** A form message in words, in the language on screen. */
export function say(intl: IntlShape, message: FormMessage): string;
export function say(intl: IntlShape, message: FormMessage | undefined): string | undefined;
export function say(intl: IntlShape, message: FormMessage | undefined): string | undefined {
  if (message === undefined) return undefined;
  return 'id' in message ? intl.formatMessage({ id: message.id }, message.values) : message.text;
}
