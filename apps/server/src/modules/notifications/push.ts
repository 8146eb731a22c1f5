import type { ModerationAction, Notification, PushPayload, UiLocale } from '@pollscope/contract';
import type { Db } from '../../db/index.js';
import { message, type MessageId } from '../../i18n/messages.js';
import { momentInWords, recipientLocale } from '../mail/index.js';
import { actorsOf } from './mail.js';
import { notificationsShown } from './queries.js';

/** What a moderator did, as the person concerned is told it: on their question, and on their account. */
const moderationTitles: Record<Exclude<ModerationAction, 'suspend'>, { question: MessageId; account: MessageId }> = {
  // A removal and a restoring act on a question only.
  remove: { question: 'push.moderation.remove', account: 'push.moderation.remove' },
  restore: { question: 'push.moderation.restore', account: 'push.moderation.restore' },
  unsuspend: { question: 'push.moderation.unsuspend', account: 'push.moderation.unsuspend' },
  warn: { question: 'push.moderation.warnQuestion', account: 'push.moderation.warn' },
  dismiss: { question: 'push.moderation.dismissQuestion', account: 'push.moderation.dismiss' },
};

/** What a moderator did, as the person concerned is told it in `locale`; `until` is a suspension's end. */
function moderationInWords(locale: UiLocale, action: ModerationAction, onQuestion: boolean, until: string | null) {
  if (action === 'suspend')
    return until
      ? message(locale, 'push.moderation.suspendUntil', { until: momentInWords(locale, until) })
      : message(locale, 'push.moderation.suspend');
  const titles = moderationTitles[action];
  return message(locale, onQuestion ? titles.question : titles.account);
}

/**
 * What a push of the notification says, in the recipient's language (`locale`): a line of what happened, the question
 * it is about (or a moderator's reason), and the app's path it opens, the page where the person sees more.
 */
export function pushPayloadOf(notification: Notification, locale: UiLocale): PushPayload {
  const about = { kind: notification.kind, notification_id: notification.id };
  const { question } = notification;
  switch (notification.kind) {
    case 'follow':
      return {
        ...about,
        title: message(locale, 'push.follow.title', actorsOf(notification)),
        body: message(locale, 'push.follow.body'),
        url: `/user/${notification.actors[0].id}`,
      };
    case 'like':
      return {
        ...about,
        title: message(locale, 'push.like.title', actorsOf(notification)),
        body: question!.title,
        url: `/question/${question!.id}`,
      };
    case 'votes':
      return {
        ...about,
        title: message(locale, 'push.votes.title', { count: notification.count! }),
        body: question!.title,
        url: `/question/${question!.id}`,
      };
    case 'moderation': {
      const { action, reason, until } = notification.moderation!;
      return {
        ...about,
        title: moderationInWords(locale, action, question !== null, until),
        body: reason,
        url: question ? `/question/${question.id}` : '/notifications',
      };
    }
  }
}

/**
 * The push of one of the person's notifications, in their language, or null when they do not see it (now): it shows
 * only people blocked either way, or it is gone, or it is another person's (the device's subscription passed to
 * someone else who signed in on it).
 */
export async function notificationPush(db: Db, userId: number, notificationId: number): Promise<PushPayload | null> {
  const [notification] = await notificationsShown(db, userId, [notificationId]);
  return notification ? pushPayloadOf(notification, await recipientLocale(db, userId)) : null;
}
