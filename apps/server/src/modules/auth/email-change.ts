import { EMAIL_CONFIRM_MINUTES } from '@pollscope/contract';
import { randomBytes } from 'node:crypto';
import type { Config } from '../../config.js';
import type { Db } from '../../db/index.js';
import { isUniqueViolation } from '../../db/database-errors.js';
import { BadRequestError, ConflictError } from '../../errors.js';
import { message, type MessageId } from '../../i18n/messages.js';
import { queueMail, recipientLocale, renderMail } from '../mail/index.js';
import { queueChangeNotice } from './notices.js';
import { hashToken } from './sessions.js';

export const EMAIL_LINK_UNUSABLE = 'errors.linkUnusable';

export const emailTaken = () => new ConflictError('errors.emailTaken', { email: 'errors.emailTaken' });

/** The page a confirmation mail links to, with its token. */
export const confirmEmailUrl = (config: Pick<Config, 'publicUrl'>, token: string) =>
  `${config.publicUrl}/confirm-email?token=${encodeURIComponent(token)}`;

/** Whether `email` is one of ADMIN_EMAILS: its account becomes an admin once the address is proven. */
export const isAdminEmail = (config: Pick<Config, 'adminEmails'>, email: string) =>
  config.adminEmails.includes(email.trim().toLowerCase());

/** The new address waiting to be confirmed, if a link to it still works; not a proof of the address the account has. */
export async function pendingEmail(db: Db, userId: number, now = new Date()): Promise<string | null> {
  const row = await db
    .selectFrom('email_change_tokens')
    .innerJoin('users', 'users.id', 'email_change_tokens.user_id')
    .select('email_change_tokens.email')
    .where('email_change_tokens.user_id', '=', userId)
    .whereRef('email_change_tokens.email', '!=', 'users.email')
    .where('email_change_tokens.expires_at', '>', now.toISOString())
    .orderBy('email_change_tokens.created_at', 'desc')
    .executeTakeFirst();
  return row?.email ?? null;
}

/**
 * Voids the links of every change of address the person asked for, as a new password does: whoever knew the old one may
 * have asked. A link proving the address the account has (an admin's) is no change, and stays.
 */
export async function forgetEmailChanges(trx: Db, userId: number): Promise<void> {
  await trx
    .deleteFrom('email_change_tokens')
    .where('user_id', '=', userId)
    .where('email', '!=', (eb) => eb.selectFrom('users').select('email').where('id', '=', userId))
    .execute();
}

/**
 * Asks for `email` to become the person's: a link that makes it so is mailed to it, and until it
 * is opened the account keeps its address. Only the latest such link works; an address another
 * account has is refused at once (409), as registering it would be.
 */
export async function requestEmailChange(
  trx: Db,
  config: Pick<Config, 'publicUrl'>,
  person: { id: number; first_name: string },
  email: string,
  now = new Date(),
): Promise<void> {
  const taken = await trx.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  if (taken) throw emailTaken();
  const token = await newEmailLink(trx, person.id, email, now);
  const locale = await recipientLocale(trx, person.id);
  const text = (id: MessageId, values?: Record<string, string | number>) => message(locale, id, values);
  await queueMail(trx, {
    to: email,
    // Written for this account, though the address is not its own yet: in its language.
    userId: person.id,
    subject: text('mail.emailChange.subject'),
    ...renderMail({
      locale,
      title: text('mail.emailChange.title'),
      paragraphs: [
        text('mail.greeting', { name: person.first_name }),
        text('mail.emailChange.intro', { minutes: EMAIL_CONFIRM_MINUTES }),
        text('mail.emailChange.notYou'),
      ],
      action: { label: text('mail.emailChange.action'), url: confirmEmailUrl(config, token) },
      footer: text('mail.emailChange.footer'),
    }),
  });
}

/** A single-use token, kept hashed, that proves `email` to be `userId`'s once opened; it replaces the person's others. */
async function newEmailLink(trx: Db, userId: number, email: string, now: Date): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await trx
    .deleteFrom('email_change_tokens')
    .where((eb) => eb.or([eb('user_id', '=', userId), eb('expires_at', '<=', now.toISOString())]))
    .execute();
  await trx
    .insertInto('email_change_tokens')
    .values({
      token_hash: hashToken(token),
      user_id: userId,
      email,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + EMAIL_CONFIRM_MINUTES * 60_000).toISOString(),
    })
    .execute();
  return token;
}

/**
 * An account with an address of ADMIN_EMAILS stays a member until the address is proven: a link
 * mailed to it, opened, makes the account an admin (`confirmEmailChange`). Registering an address
 * proves nothing, as anyone can type one. A link still working is not mailed again, and a pending
 * change of address is left alone: that link proves the new address instead.
 */
export async function mailAdminProof(
  trx: Db,
  config: Pick<Config, 'publicUrl' | 'adminEmails'>,
  person: { id: number; first_name: string; email: string; role: string },
  now = new Date(),
): Promise<void> {
  if (person.role === 'admin' || !isAdminEmail(config, person.email)) return;
  const live = await trx
    .selectFrom('email_change_tokens')
    .select('user_id')
    .where('user_id', '=', person.id)
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  if (live) return;
  const token = await newEmailLink(trx, person.id, person.email, now);
  const locale = await recipientLocale(trx, person.id);
  const text = (id: MessageId, values?: Record<string, string | number>) => message(locale, id, values);
  await queueMail(trx, {
    to: person.email,
    userId: person.id,
    subject: text('mail.adminProof.subject'),
    ...renderMail({
      locale,
      title: text('mail.adminProof.title'),
      paragraphs: [
        text('mail.greeting', { name: person.first_name }),
        text('mail.adminProof.intro', { minutes: EMAIL_CONFIRM_MINUTES }),
        text('mail.adminProof.notYou'),
      ],
      action: { label: text('mail.adminProof.action'), url: confirmEmailUrl(config, token) },
      footer: text('mail.adminProof.footer'),
    }),
  });
}

/**
 * Uses a mailed token to make its address the account's: the token and every other of the
 * person's go, with the links to choose a new password mailed to the old address and the old
 * unsubscribe links; the old address is told now, when the change takes effect. A token unknown,
 * used or lapsed changes nothing (400); an address registered meanwhile by someone else, 409.
 * A token for the address the account already has proves it: an address of ADMIN_EMAILS makes
 * the account an admin.
 */
export async function confirmEmailChange(
  trx: Db,
  config: Pick<Config, 'publicUrl' | 'adminEmails'>,
  token: string,
  now = new Date(),
): Promise<{ email: string; changes: [] }> {
  // Deleting it is what uses it: of two uses at once, one finds it gone.
  const used = await trx
    .deleteFrom('email_change_tokens')
    .where('token_hash', '=', hashToken(token))
    .where('expires_at', '>', now.toISOString())
    .returning(['user_id', 'email'])
    .executeTakeFirst();
  if (!used) throw new BadRequestError(EMAIL_LINK_UNUSABLE);
  const before = await trx
    .selectFrom('users')
    .select(['email', 'first_name'])
    .where('id', '=', used.user_id)
    .executeTakeFirstOrThrow();
  if (used.email === before.email) {
    // Read at the click, so an address taken out of ADMIN_EMAILS meanwhile proves nothing more.
    if (isAdminEmail(config, used.email))
      await trx.updateTable('users').set({ role: 'admin' }).where('id', '=', used.user_id).execute();
    return { email: used.email, changes: [] };
  }
  // Queued while the old address is still the account's, so that the notice is the account's mail.
  await queueChangeNotice(trx, config, before.email, before.first_name, { email: used.email, password: false }, now);
  try {
    // A new unsubscribe token is made with the next notification mail: links mailed to the old address stop working.
    await trx
      .updateTable('users')
      .set({ email: used.email, unsubscribe_token: null })
      .where('id', '=', used.user_id)
      .execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
  await trx.deleteFrom('email_change_tokens').where('user_id', '=', used.user_id).execute();
  await trx.deleteFrom('password_reset_tokens').where('user_id', '=', used.user_id).execute();
  // No copy in memory holds an email: nothing to apply.
  return { email: used.email, changes: [] };
}
