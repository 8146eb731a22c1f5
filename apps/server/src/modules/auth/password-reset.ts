import { PASSWORD_RESET_MINUTES, type UiLocale } from '@pollscope/contract';
import { randomBytes } from 'node:crypto';
import type { Change } from '../../changes/change.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/index.js';
import { BadRequestError } from '../../errors.js';
import { message } from '../../i18n/messages.js';
import { refuseSuspended } from '../moderation/index.js';
import { endSessionlessSubscriptions } from '../push/index.js';
import { SYSTEM_EMAIL } from '../../db/schema.js';
import { forgetEmailChanges, pendingEmail } from './email-change.js';
import { queueChangeNotice, queueResetMail } from './notices.js';
import { createSession, endOtherSessions, hashToken } from './sessions.js';

/** The answer to every request for a link, whether or not an account has the address. */
/** What a request for a link answers, in `locale`, whether or not an account has the address. */
export const resetRequested = (locale: UiLocale): string =>
  message(locale, 'auth.passwordReset.requested', { minutes: PASSWORD_RESET_MINUTES });
export const RESET_LINK_UNUSABLE = 'errors.linkUnusable';

/**
 * The answer to a request for a link waits until this long after the request came. Without an
 * account there is less to write, and no mail: the wait hides the difference, so that nobody
 * learns from the time taken whether an address has an account.
 */
export const RESET_ANSWER_MS = 250;

/**
 * Stores a new token for the account of `email`, if there is one (the quiz's author, who signs in
 * with no password, has none), and queues the mail with its link, in one transaction; the mail
 * says whether a change of email waits, which the new password would end. The token is made and
 * hashed either way. Lapsed tokens of anyone are deleted on the way.
 */
export async function requestPasswordReset(
  db: Db,
  config: Pick<Config, 'publicUrl'>,
  email: string,
  now = new Date(),
): Promise<void> {
  const token = randomBytes(32).toString('base64url');
  const tokenHash = hashToken(token);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('password_reset_tokens').where('expires_at', '<=', now.toISOString()).execute();
    const person = await trx
      .selectFrom('users')
      .select(['id', 'email', 'first_name', 'language'])
      .where('email', '=', email)
      .where('email', '<>', SYSTEM_EMAIL)
      .executeTakeFirst();
    if (!person) return;
    await trx
      .insertInto('password_reset_tokens')
      .values({
        token_hash: tokenHash,
        user_id: person.id,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + PASSWORD_RESET_MINUTES * 60_000).toISOString(),
      })
      .execute();
    await queueResetMail(trx, config, person, token, (await pendingEmail(trx, person.id, now)) !== null);
  });
}

/**
 * Uses a mailed token to set the password to `passwordHash`: every session of the person ends, with
 * all that a new password ends (`afterNewPassword`), and a new one begins, whose token is returned.
 * A token unknown, used or lapsed changes nothing (400). The address is told, as of any new password.
 */
export async function resetPassword(
  trx: Db,
  config: Pick<Config, 'publicUrl'>,
  token: string,
  passwordHash: string,
  now = new Date(),
): Promise<{ token: string; changes: Change[] }> {
  // Deleting it is what uses it: of two uses at once, one finds it gone.
  const used = await trx
    .deleteFrom('password_reset_tokens')
    .where('token_hash', '=', hashToken(token))
    .where('expires_at', '>', now.toISOString())
    .returning('user_id')
    .executeTakeFirst();
  if (!used) throw new BadRequestError(RESET_LINK_UNUSABLE);
  // A suspended person is not signed in (403): nothing changes, and the link works once the suspension ends.
  await refuseSuspended(trx, used.user_id, now);
  const person = await trx
    .updateTable('users')
    .set({ password_hash: passwordHash, unsubscribe_token: null })
    .where('id', '=', used.user_id)
    .returning(['email', 'first_name'])
    .executeTakeFirstOrThrow();
  const session = await createSession(trx, used.user_id);
  const passwordChanged = await afterNewPassword(trx, used.user_id, session);
  await queueChangeNotice(trx, config, person.email, person.first_name, { password: true }, now);
  return { token: session, changes: [passwordChanged] };
}

/**
 * What a new password ends, by a link or in the settings, in its transaction: every session of the person but
 * `keepToken`'s, with the push subscriptions each made (on delete cascade) and those of no session; the links mailed to
 * choose a new password; and changes of email waiting for their link, which whoever knew the old password may have
 * asked for to take the account.
 */
export async function afterNewPassword(trx: Db, userId: number, keepToken: string): Promise<Change> {
  await trx.deleteFrom('password_reset_tokens').where('user_id', '=', userId).execute();
  await forgetEmailChanges(trx, userId);
  await endSessionlessSubscriptions(trx, userId);
  return endOtherSessions(trx, userId, keepToken);
}
