import type { Applier } from '../../changes/reactions.js';
import type { EventStreams } from './event-stream.js';
import type { LiveHub } from './hub.js';

/**
 * What the live results' streams do with each committed change, once the copies they read (the cards, the viewers'
 * states, what is withheld) have taken it: registered after them.
 */
export function liveApplier(live: LiveHub): Applier {
  const questionChanged = (change: { questionId: number }) => live.changed(change.questionId);
  // Both see the other's questions, and what the other did, differently from now on.
  const bothChanged = (change: { blockerId: number; blockedId: number }) => {
    live.viewerChanged(change.blockerId);
    live.viewerChanged(change.blockedId);
  };
  return {
    voted: (change) => {
      // The voter may see the result now.
      live.viewerChanged(change.voterId);
      live.changed(change.questionId);
    },
    liked: questionChanged,
    unliked: questionChanged,
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
    notified: null,
    notificationsRead: null,
    accountDeleted: ({ questionIds, touchedQuestionIds }) => {
      live.deleted(questionIds);
      for (const questionId of touchedQuestionIds) live.changed(questionId);
    },
    questionModerated: (change) => live.withheldChanged(change.questionId),
    // The suspended person's questions' streams end for everyone else.
    userSuspended: () => live.withheldChanged(),
    userUnsuspended: null,
    moderatorActed: null,
    reported: null,
    missed: () => live.missed(),
  };
}

/** What the instance's event streams do with each committed change: those of sessions that ended end with them. */
export function eventStreamsApplier(streams: EventStreams): Applier {
  const everySessionEnded = (change: { userId: number }) => streams.sessionsEnded(change.userId, null);
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
    blocked: null,
    unblocked: null,
    sessionEnded: (change) => streams.sessionEnded(change.userId, change.tokenHash),
    passwordChanged: (change) => streams.sessionsEnded(change.userId, change.keptTokenHash),
    notified: null,
    notificationsRead: null,
    accountDeleted: everySessionEnded,
    questionModerated: null,
    userSuspended: everySessionEnded,
    userUnsuspended: null,
    moderatorActed: null,
    reported: null,
    missed: null,
  };
}
