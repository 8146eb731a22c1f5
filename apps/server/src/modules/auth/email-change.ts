import { EMAIL_CONFIRM_MINUTES } from '@pollscope/contract';
import { randomBytes } from 'node:crypto';
import type { Config } from '../../config.js';
import type { Db } from '../../db/index.js';
import { isUniqueViolation } from '../../db/dialect.js';
import { BadRequestError, ConflictError } from '../../errors.js';
import { queueMail, renderMail } from '../mail/index.js';
import { queueChangeNotice } from './notices.js';
import { forgetResetTokens } from './password-reset.js';
import { hashToken } from './sessions.js';

export const EMAIL_LINK_UNUSABLE = 'This link does not work any more: it was used, it lapsed, or it is not one we sent';

export const emailTaken = () =>
  new ConflictError('This email is already registered', { email: 'This email is already registered' });

/** The page a confirmation mail links to, with its token. */
export const confirmEmailUrl = (config: Pick<Config, 'publicUrl'>, token: string) =>
  `${config.publicUrl}/confirm-email?token=${encodeURIComponent(token)}`;

/** The new address waiting to be confirmed, if a link to it still works. */
export async function pendingEmail(db: Db, userId: number, now = new Date()): Promise<string | null> {
  const row = await db
    .selectFrom('email_change_tokens')
    .select('email')
    .where('user_id', '=', userId)
    .where('expires_at', '>', now.toISOString())
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  return row?.email ?? null;
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
  const token = randomBytes(32).toString('base64url');
  await trx
    .deleteFrom('email_change_tokens')
    .where((eb) => eb.or([eb('user_id', '=', person.id), eb('expires_at', '<=', now.toISOString())]))
    .execute();
  await trx
    .insertInto('email_change_tokens')
    .values({
      token_hash: hashToken(token),
      user_id: person.id,
      email,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + EMAIL_CONFIRM_MINUTES * 60_000).toISOString(),
    })
    .execute();
  await queueMail(trx, {
    to: email,
    // Written for this account, though the address is not its own yet.
    userId: person.id,
    subject: 'Confirm your new Pollscope email',
    ...renderMail({
      title: 'Confirm your new email',
      paragraphs: [
        `Hi ${person.first_name},`,
        `Someone, probably you, asked for this address to become the email of a Pollscope account. The link below makes it so; it works once, for ${EMAIL_CONFIRM_MINUTES} minutes. Until then the account keeps its address.`,
        'If it was not you, ignore this mail: nothing changes without the link.',
      ],
      action: { label: 'Confirm this email', url: confirmEmailUrl(config, token) },
      footer: 'You get this mail because this address was given as the new email of a Pollscope account.',
    }),
  });
}

/**
 * Uses a mailed token to make its address the account's: the token and every other of the
 * person's go, with the links to choose a new password mailed to the old address and the old
 * unsubscribe links; the old address is told now, when the change takes effect. A token unknown,
 * used or lapsed changes nothing (400); an address registered meanwhile by someone else, 409.
 */
export async function confirmEmailChange(
  trx: Db,
  config: Pick<Config, 'publicUrl'>,
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
  await forgetResetTokens(trx, used.user_id);
  // No copy in memory holds an email: nothing to apply.
  return { email: used.email, changes: [] };
}
