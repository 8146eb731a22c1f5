import { displayId, type Notification } from '@pollscope/contract';
import { randomBytes } from 'node:crypto';
import type { Config } from '../../config.js';
import type { Db } from '../../db/index.js';
import { queueMail, renderMail } from '../mail/index.js';
import { unmailed, unmailedNotifications } from './queries.js';

/** Question titles longer than this are cut in a mail's lines. */
const TITLE_SHOWN = 40;

const questionOf = ({ question }: Notification) => {
  const title = question!.title.length > TITLE_SHOWN ? `${question!.title.slice(0, TITLE_SHOWN - 1).trimEnd()}…` : question!.title;
  return `${displayId('QID', question!.qid)} '${title}'`;
};

/** "Bob", "Bob and Ann", "Bob and 3 others": the most recent actor first. */
function whoOf({ actors, actor_count }: Notification): string {
  if (actor_count === 1) return actors[0].name;
  if (actor_count === 2) return `${actors[0].name} and ${actors[1].name}`;
  return `${actors[0].name} and ${actor_count - 1} others`;
}

/** One line of a notification mail. */
function inWords(notification: Notification): string {
  switch (notification.kind) {
    case 'follow':
      return `${whoOf(notification)} followed you`;
    case 'like':
      return `${whoOf(notification)} liked ${questionOf(notification)}`;
    case 'votes':
      return `Your question ${questionOf(notification)} reached ${notification.count} ${notification.count === 1 ? 'vote' : 'votes'}`;
  }
}

/** The link of a person's notification mail that turns notification mail off (RFC 8058). */
const unsubscribeUrl = (config: Config, token: string) => `${config.publicUrl}/api/unsubscribe/?token=${encodeURIComponent(token)}`;

/** Thrown to roll back a claim when the person has nothing to be mailed. */
class NothingToMail extends Error {}

/**
 * Mails the person what is new, if they are due. The update of `notifications_mailed_at` claims
 * them: of several instances at once, only the first transaction matches its condition, and the
 * others find the person mailed within the window. Their token is made with their first mail.
 */
async function mailPerson(db: Db, config: Config, userId: number, windowStart: string, now: string): Promise<boolean> {
  return db
    .transaction()
    .execute(async (trx) => {
      const person = await trx
        .updateTable('users')
        .set((eb) => ({ notifications_mailed_at: now, unsubscribe_token: eb.fn.coalesce('unsubscribe_token', eb.val(randomBytes(32).toString('base64url'))) }))
        .where('id', '=', userId)
        .where('notification', '=', 1)
        .where((eb) => eb.or([eb('notifications_mailed_at', 'is', null), eb('notifications_mailed_at', '<=', windowStart)]))
        .returning(['email', 'unsubscribe_token'])
        .executeTakeFirst();
      if (!person) return false;
      // Read after the claim, so that what another instance mailed before it is seen mailed.
      const notifications = await unmailedNotifications(trx, userId);
      if (notifications.length === 0) throw new NothingToMail();
      const lines = notifications.map(inWords);
      const unsubscribe = unsubscribeUrl(config, person.unsubscribe_token!);
      await queueMail(trx, {
        to: person.email,
        subject: lines.length === 1 ? lines[0] : `${lines.length} new notifications on Pollscope`,
        ...renderMail({
          title: 'What happened on Pollscope',
          paragraphs: lines,
          action: { label: 'See your notifications', url: `${config.publicUrl}/notifications` },
          footer: `You get this mail because notification mail is on in your settings. To stop it: ${unsubscribe}`,
        }),
        headers: { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
      });
      await trx
        .updateTable('notifications')
        .set({ mailed_at: now })
        .where(
          'id',
          'in',
          notifications.map((notification) => notification.id),
        )
        .execute();
      return true;
    })
    .catch((error: unknown) => {
      if (error instanceof NothingToMail) return false;
      throw error;
    });
}

/**
 * Queues a notification mail for each person with notification mail on, something unmailed, and
 * no notification mail in the last EMAIL_BATCH_SECONDS; returns how many were queued. Those with
 * only notifications they do not see (of people blocked either way) get none.
 */
export async function mailDueNotifications(db: Db, config: Config, at = new Date()): Promise<number> {
  const now = at.toISOString();
  const windowStart = new Date(at.getTime() - config.emailBatchSeconds * 1000).toISOString();
  const due = await db
    .selectFrom('notifications')
    .innerJoin('users', 'users.id', 'notifications.user_id')
    .select('users.id')
    .distinct()
    .where('users.notification', '=', 1)
    .where((eb) => eb.or([eb('users.notifications_mailed_at', 'is', null), eb('users.notifications_mailed_at', '<=', windowStart)]))
    .where(unmailed)
    .execute();
  let mailed = 0;
  for (const { id } of due) if (await mailPerson(db, config, id, windowStart, now)) mailed += 1;
  return mailed;
}
