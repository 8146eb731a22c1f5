import type { ModerationAction, Notification, PushPayload } from '@pollscope/contract';
import type { Db } from '../../db/index.js';
import { whoOf } from './mail.js';
import { notificationsShown } from './queries.js';

/** What a moderator did, as the person concerned is told it; `until` is a suspension's end. */
function moderationInWords(action: ModerationAction, onQuestion: boolean, until: string | null): string {
  switch (action) {
    case 'remove':
      return 'A moderator removed your question';
    case 'restore':
      return 'A moderator restored your question';
    case 'suspend':
      return until
        ? `Your account is suspended until ${until.slice(0, 16).replace('T', ' ')} UTC`
        : 'Your account is suspended';
    case 'unsuspend':
      return 'Your account is no longer suspended';
    case 'warn':
      return onQuestion ? 'A moderator warned you about your question' : 'A moderator warned you';
    case 'dismiss':
      return onQuestion
        ? 'A moderator reviewed the reports of your question'
        : 'A moderator reviewed the reports about you';
  }
}

/**
 * What a push of the notification says: a line of what happened, the question it is about (or a
 * moderator's reason), and the app's path it opens, the page where the person sees more.
 */
export function pushPayloadOf(notification: Notification): PushPayload {
  const about = { kind: notification.kind, notification_id: notification.id };
  const { question } = notification;
  switch (notification.kind) {
    case 'follow':
      return {
        ...about,
        title: `${whoOf(notification)} followed you`,
        body: 'See what they ask on Pollscope',
        url: `/user/${notification.actors[0].id}`,
      };
    case 'like':
      return {
        ...about,
        title: `${whoOf(notification)} liked your question`,
        body: question!.title,
        url: `/question/${question!.id}`,
      };
    case 'votes': {
      const votes = notification.count!;
      return {
        ...about,
        title: `Your question reached ${votes.toLocaleString('en-US')} ${votes === 1 ? 'vote' : 'votes'}`,
        body: question!.title,
        url: `/question/${question!.id}`,
      };
    }
    case 'moderation': {
      const { action, reason, until } = notification.moderation!;
      return {
        ...about,
        title: moderationInWords(action, question !== null, until),
        body: reason,
        url: question ? `/question/${question.id}` : '/notifications',
      };
    }
  }
}

/**
 * The push of one of the person's notifications, or null when they do not see it (now): it shows
 * only people blocked either way, or it is gone, or it is another person's (the device's
 * subscription passed to someone else who signed in on it).
 */
export async function notificationPush(db: Db, userId: number, notificationId: number): Promise<PushPayload | null> {
  const [notification] = await notificationsShown(db, userId, [notificationId]);
  return notification ? pushPayloadOf(notification) : null;
}
