import { displayId, type Notification, type UiLocale } from '@pollscope/contract';
import { randomBytes } from 'node:crypto';
import type { Config } from '../../config.js';
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { DialectName } from '../../db/dialect.js';
import { lockedForUpdate } from '../../db/locks.js';
import type { Db } from '../../db/index.js';
import type { Database } from '../../db/schema.js';
import { accountLocale } from '../../i18n/locale.js';
import { message } from '../../i18n/messages.js';
import { plainLine, queueMail, renderMail } from '../mail/index.js';
import { notificationsShown, unmailed } from './queries.js';

/** Question titles longer than this are cut in a mail's lines. */
const TITLE_SHOWN = 40;

/**
 * A question as a mail's line names it: its id and its title, made one plain line and then cut (between characters,
 * never within one).
 */
const questionOf = (locale: UiLocale, { question }: Notification) => {
  const characters = [...plainLine(question!.title)];
  const cut = characters
    .slice(0, TITLE_SHOWN - 1)
    .join('')
    .trimEnd();
  const title = characters.length > TITLE_SHOWN ? `${cut}…` : characters.join('');
  return message(locale, 'mail.questionName', { qid: displayId('QID', question!.qid), title });
};

/**
 * Who did it, as the values of a message that names them ("Bob", "Bob and Ann", "Bob and 3 others", the most recent
 * first): `count` people in all, `first` and `second` named, and `others` besides the first.
 */
export const actorsOf = ({ actors, actor_count }: Notification) => ({
  count: actor_count,
  first: actors[0]?.name ?? '',
  second: actors[1]?.name ?? '',
  others: actor_count - 1,
});

/** One line of a notification mail, in the recipient's language. */
function inWords(locale: UiLocale, notification: Notification): string {
  switch (notification.kind) {
    case 'follow':
      return message(locale, 'mail.notifications.follow', actorsOf(notification));
    case 'like':
      return message(locale, 'mail.notifications.like', {
        ...actorsOf(notification),
        question: questionOf(locale, notification),
      });
    case 'votes':
      return message(locale, 'mail.notifications.votes', {
        question: questionOf(locale, notification),
        count: notification.count ?? 0,
      });
    // Mailed on its own as it is made (modules/moderation), and marked mailed then: listed here only as a line, should
    // it ever be.
    case 'moderation': {
      const reason = notification.moderation?.reason ?? '';
      return notification.question
        ? message(locale, 'mail.notifications.moderationQuestion', {
            question: questionOf(locale, notification),
            reason,
          })
        : message(locale, 'mail.notifications.moderationAccount', { reason });
    }
  }
}

/** The link of a person's notification mail that turns notification mail off (RFC 8058). */
const unsubscribeUrl = (config: Config, token: string) =>
  `${config.publicUrl}/api/unsubscribe/?token=${encodeURIComponent(token)}`;

/**
 * Mails the person what is new, if they are due. Their row is locked first, so that of several
 * instances at once one mails them and the others then find them mailed within the window; their
 * unmailed notifications next, so that a like joining one waits for this mail and then makes it
 * unmailed again, never marked mailed without being listed. Notifications they do not see (of
 * people blocked either way) are marked too, and not looked at again. Their unsubscribe token is
 * made with their first mail.
 */
async function mailPerson(
  db: Db,
  dialect: DialectName,
  config: Config,
  userId: number,
  windowStart: string,
  now: string,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const person = await lockedForUpdate(
      dialect,
      trx
        .selectFrom('users')
        .select(['email', 'unsubscribe_token', 'language'])
        .where('id', '=', userId)
        .where('notification', '=', 1)
        .where(dueForMail(windowStart)),
    ).executeTakeFirst();
    if (!person) return false;
    const pending = await lockedForUpdate(
      dialect,
      trx.selectFrom('notifications').select('id').where('user_id', '=', userId).where(unmailed),
    ).execute();
    if (pending.length === 0) return false;
    const ids = pending.map(({ id }) => id);
    const notifications = await notificationsShown(trx, userId, ids);
    if (notifications.length === 0) {
      await trx.updateTable('notifications').set({ mailed_at: now }).where('id', 'in', ids).execute();
      return false;
    }

    const token = person.unsubscribe_token ?? randomBytes(32).toString('base64url');
    await trx
      .updateTable('users')
      .set({ notifications_mailed_at: now, unsubscribe_token: token })
      .where('id', '=', userId)
      .execute();
    // In the recipient's language, whoever did what it tells.
    const locale = accountLocale(person.language);
    const lines = notifications.map((notification) => inWords(locale, notification));
    const unsubscribe = unsubscribeUrl(config, token);
    const messageId = await queueMail(trx, {
      to: person.email,
      subject: lines.length === 1 ? lines[0] : message(locale, 'mail.notifications.subject', { count: lines.length }),
      ...renderMail({
        locale,
        title: message(locale, 'mail.notifications.title'),
        paragraphs: lines,
        action: { label: message(locale, 'mail.notifications.action'), url: `${config.publicUrl}/notifications` },
        footer: message(locale, 'mail.notifications.footer', { url: unsubscribe }),
      }),
      headers: { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    });
    await trx
      .updateTable('notifications')
      .set({ mailed_at: now, mailed_in: messageId })
      .where('id', 'in', ids)
      .execute();
    return true;
  });
}

/** A person not mailed of notifications since the window began. */
const dueForMail =
  (windowStart: string) =>
  (eb: ExpressionBuilder<Database, 'users'>): Expression<SqlBool> =>
    eb.or([eb('users.notifications_mailed_at', 'is', null), eb('users.notifications_mailed_at', '<=', windowStart)]);

/**
 * Queues a notification mail for each person with notification mail on, something unmailed, and
 * no notification mail in the last EMAIL_BATCH_SECONDS; returns how many were queued.
 */
export async function mailDueNotifications(
  db: Db,
  dialect: DialectName,
  config: Config,
  at = new Date(),
): Promise<number> {
  const now = at.toISOString();
  const windowStart = new Date(at.getTime() - config.emailBatchSeconds * 1000).toISOString();
  const due = await db
    .selectFrom('notifications')
    .innerJoin('users', 'users.id', 'notifications.user_id')
    .select('users.id')
    .distinct()
    .where('users.notification', '=', 1)
    .where(dueForMail(windowStart))
    .where(unmailed)
    .execute();
  let mailed = 0;
  for (const { id } of due) if (await mailPerson(db, dialect, config, id, windowStart, now)) mailed += 1;
  return mailed;
}
