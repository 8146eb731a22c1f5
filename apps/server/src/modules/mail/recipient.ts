import type { UiLocale } from '@pollscope/contract';
import type { Db } from '../../db/index.js';
import { accountLocale } from '../../i18n/locale.js';
import { intlFor } from '../../i18n/messages.js';

/**
 * A mail is written in its recipient's language (CONTRACT.md §7, Languages): the `language` of their account, not the
 * sender's nor the server's. An account not found (gone meanwhile) is written to in English.
 */
export async function recipientLocale(db: Db, userId: number): Promise<UiLocale> {
  const person = await db.selectFrom('users').select('language').where('id', '=', userId).executeTakeFirst();
  return accountLocale(person?.language ?? 'en');
}

/** The locale a date is written in: English as the spec writes it, day first ("5 March 2025", Intl's British English). */
export const dateLocale = (locale: UiLocale): string => (locale === 'en' ? 'en-GB' : locale);

const MOMENT: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'UTC',
  timeZoneName: 'short',
};

/**
 * A moment in UTC in the reader's words, through FormatJS's cached `Intl` formatters: "5 March 2025 at 14:05 UTC",
 * "5. März 2025 um 14:05 UTC", "2025年3月5日 14:05 UTC". A notice says when in a time anyone reads the same.
 */
export function momentInWords(locale: UiLocale, at: Date | string): string {
  return intlFor(locale).formatters.getDateTimeFormat(dateLocale(locale), MOMENT).format(new Date(at));
}
