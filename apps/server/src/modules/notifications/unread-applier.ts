import type { Applier } from '../../changes/reactions.js';
import type { UnreadHub } from './hub.js';

/** What the unread counts' streams do with each committed change: tell each person whose count may have moved. */
export function unreadApplier(unread: UnreadHub): Applier {
  const countChanged = (change: { userId: number }) => unread.changed(change.userId);
  // What the other did is shown, or hidden, in each one's notifications from now on.
  const bothChanged = (change: { blockerId: number; blockedId: number }) => {
    unread.changed(change.blockerId);
    unread.changed(change.blockedId);
  };
  return {
    voted: null,
    liked: null,
    unliked: null,
    passed: null,
    unpassed: null,
    asked: null,
    renamed: null,
    profileChanged: null,
    followed: null,
    unfollowed: null,
    blocked: bothChanged,
    unblocked: bothChanged,
    sessionEnded: null,
    passwordChanged: null,
    notified: countChanged,
    notificationsRead: countChanged,
    accountDeleted: (change) => {
      for (const notifiedId of change.notifiedIds) unread.changed(notifiedId);
    },
    questionModerated: null,
    userSuspended: null,
    userUnsuspended: null,
    moderatorActed: null,
    reported: null,
    missed: () => unread.missed(),
  };
}
