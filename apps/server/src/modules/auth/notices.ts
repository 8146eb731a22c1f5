import { PASSWORD_RESET_MINUTES } from '@pollscope/contract';
import type { Config } from '../../config.js';
import type { Db } from '../../db/index.js';
import { accountLocale } from '../../i18n/locale.js';
import { message, type MessageId } from '../../i18n/messages.js';
import { queueMail, renderMail } from '../mail/index.js';

/** The mails about the account itself: sent whatever the person chose for notification mail. */

/** "5 March 2025 at 14:05 UTC": a notice says when, in words anyone reads the same. */
function inWords(at: Date): string {
  return `${new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(at)} UTC`;
}

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
 * Queues the notice of a changed email or password to `to`, the address the account had before:
 * what changed and when, and what to do if it was not them. With the email changed, whoever
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
  const what =
    change.email !== undefined && change.password
      ? 'email and password'
      : change.email !== undefined
        ? 'email'
        : 'password';
  const when = inWords(at);
  const paragraphs = [`Hi ${firstName},`];
  if (change.email !== undefined)
    paragraphs.push(
      `The email of your Pollscope account was changed from ${to} to ${change.email} on ${when}. Mail about the account now goes there.`,
    );
  if (change.password)
    paragraphs.push(
      `The password of your Pollscope account was changed on ${when}, and every other device signed out.`,
    );
  paragraphs.push('If this was you, there is nothing to do.');
  paragraphs.push(
    change.email !== undefined
      ? 'If it was not you, someone else has your password: write to us at once from this address, so that we give the account back to you.'
      : 'If it was not you, someone else had your password: choose a new one at once with "Forgot password?" on the sign-in page, which signs them out.',
  );
  await queueMail(trx, {
    to,
    subject: `Your Pollscope ${what} ${what.includes(' and ') ? 'were' : 'was'} changed`,
    ...renderMail({
      title: `Your ${what} ${what.includes(' and ') ? 'were' : 'was'} changed`,
      paragraphs,
      action:
        change.email !== undefined
          ? { label: 'Write to us', url: `${config.publicUrl}/contact` }
          : { label: 'Choose a new password', url: `${config.publicUrl}/forgot-password` },
      footer:
        'You get this mail because the sign-in details of a Pollscope account with this address changed. It is sent whatever your notification settings say.',
    }),
  });
}
