import { PASSWORD_RESET_MINUTES, type UiLocale } from '@pollscope/contract';
import type { Config } from '../../config.js';
import type { Db } from '../../db/index.js';
import { accountLocale } from '../../i18n/locale.js';
import { message, type MessageId } from '../../i18n/messages.js';
import { momentInWords, queueMail, renderMail } from '../mail/index.js';

/** The mails about the account itself: sent whatever the person chose for notification mail. */

/** The page a forgotten-password mail links to, with its token. */
export const resetPasswordUrl = (config: Pick<Config, 'publicUrl'>, token: string) =>
  `${config.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;

/**
 * Queues the mail with a link to choose a new password, in the transaction that stores its token, in the person's
 * `language` (i18n/catalogs). With a change of email `pending`, it says so: the owner learns that someone who knew the
 * password may be moving the account away, and that the new password stops it.
 */
export async function queueResetMail(
  trx: Db,
  config: Pick<Config, 'publicUrl'>,
  person: { email: string; first_name: string; language: string },
  token: string,
  pending: boolean,
): Promise<void> {
  const locale = accountLocale(person.language);
  const text = (id: MessageId, values?: Record<string, string | number>) => message(locale, id, values);
  const paragraphs = [
    text('mail.passwordReset.greeting', { name: person.first_name }),
    text('mail.passwordReset.intro', { minutes: PASSWORD_RESET_MINUTES }),
  ];
  if (pending) paragraphs.push(text('mail.passwordReset.pendingEmail'));
  paragraphs.push(text('mail.passwordReset.notYou'));
  await queueMail(trx, {
    to: person.email,
    subject: text('mail.passwordReset.subject'),
    ...renderMail({
      locale,
      title: text('mail.passwordReset.title'),
      paragraphs,
      action: { label: text('mail.passwordReset.action'), url: resetPasswordUrl(config, token) },
      footer: text('mail.passwordReset.footer'),
    }),
  });
}

/** What changed in the sign-in details: the new address, the password, or both. */
export interface SignInChange {
  /** The new address, when the email changed. */
  email?: string;
  password: boolean;
}

/**
 * The language of the account whose address `to` is, as a notice is queued while the address is still the account's
 * (a new one is saved only once its link is opened); English for none.
 */
async function localeOfAddress(trx: Db, to: string): Promise<UiLocale> {
  const person = await trx.selectFrom('users').select('language').where('email', '=', to).executeTakeFirst();
  return accountLocale(person?.language ?? 'en');
}

/**
 * Queues the notice of a changed email or password to `to`, the address the account had before, in the account's
 * `language`: what changed and when, and what to do if it was not them. With the email changed, whoever
 * changed it receives the account's mail from now on, so the way back is to write to us.
 */
export async function queueChangeNotice(
  trx: Db,
  config: Pick<Config, 'publicUrl'>,
  to: string,
  firstName: string,
  change: SignInChange,
  at = new Date(),
): Promise<void> {
  const locale = await localeOfAddress(trx, to);
  const text = (id: MessageId, values?: Record<string, string | number>) => message(locale, id, values);
  const what =
    change.email !== undefined && change.password ? 'both' : change.email !== undefined ? 'email' : 'password';
  const when = momentInWords(locale, at);
  const paragraphs = [text('mail.greeting', { name: firstName })];
  if (change.email !== undefined)
    paragraphs.push(text('mail.signInChange.email', { from: to, to: change.email, when }));
  if (change.password) paragraphs.push(text('mail.signInChange.password', { when }));
  paragraphs.push(text('mail.signInChange.wasYou'));
  paragraphs.push(
    change.email !== undefined ? text('mail.signInChange.notYouEmail') : text('mail.signInChange.notYouPassword'),
  );
  await queueMail(trx, {
    to,
    subject: text('mail.signInChange.subject', { what }),
    ...renderMail({
      locale,
      title: text('mail.signInChange.title', { what }),
      paragraphs,
      action:
        change.email !== undefined
          ? { label: text('mail.signInChange.writeToUs'), url: `${config.publicUrl}/contact` }
          : { label: text('mail.signInChange.choosePassword'), url: `${config.publicUrl}/forgot-password` },
      footer: text('mail.signInChange.footer'),
    }),
  });
}
