import type { Applier } from '../../changes/reactions.js';
import type { Sessions } from './sessions.js';

/**
 * What the sessions kept in memory do with each committed change: a session carries its person's state version and
 * what they see differently of others, so a change to either reads it again; one signed out, or every one of a person
 * deleted or suspended, is forgotten.
 */
export function sessionsApplier(sessions: Sessions): Applier {
  const stateMoved = (change: { userId: number; version: number }) =>
    sessions.stateMoved(change.userId, change.version);
  const changed = (change: { userId: number }) => sessions.changed(change.userId);
  const deleted = (change: { userId: number }) => sessions.deleted(change.userId);
  const followerChanged = (change: { followerId: number }) => sessions.changed(change.followerId);
  // Both see the other's questions, and what the other did, differently from now on.
  const bothChanged = (change: { blockerId: number; blockedId: number }) => {
    sessions.changed(change.blockerId);
    sessions.changed(change.blockedId);
  };
  return {
    voted: (change) => sessions.stateMoved(change.voterId, change.version),
    liked: stateMoved,
    unliked: stateMoved,
    passed: stateMoved,
    unpassed: stateMoved,
    asked: null,
    renamed: null,
    profileChanged: changed,
    followed: followerChanged,
    unfollowed: followerChanged,
    blocked: bothChanged,
    unblocked: bothChanged,
    sessionEnded: (change) => sessions.ended(change.userId, change.tokenHash),
    passwordChanged: changed,
    notified: null,
    notificationsRead: null,
    accountDeleted: deleted,
    questionModerated: null,
    userSuspended: deleted,
    userUnsuspended: null,
    moderatorActed: null,
    reported: null,
    missed: () => sessions.forgetAll(),
  };
}
