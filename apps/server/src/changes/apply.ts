import type { LiveHub } from '../modules/live/index.js';
import type { EventStreams } from '../modules/live/index.js';
import type { UnreadHub } from '../modules/notifications/index.js';
import type { Memory } from '../plugins/app/memory.js';
import { listsOfQuestion } from '../views/question-lists.js';
import type { HeardChange } from './change.js';

/**
 * The streams a change may have news for: a question's live result, a person's unread count, and every stream of a
 * session that ended.
 */
export interface Streams {
  live: LiveHub;
  unread: UnreadHub;
  eventStreams: EventStreams;
}

/** Where a change was committed: this instance knows the moment it committed, another does not. */
export type Origin = 'here' | 'elsewhere';

/**
 * Applies a committed change to everything this instance keeps in memory and to its live streams:
 * the one place that knows which copy each change touches. The same for changes made here and
 * heard from other instances, but where a copy can only be updated in place when the change is
 * known to have committed after it was read.
 */
export function applyChange(
  memory: Memory,
  { live, unread, eventStreams }: Streams,
  change: HeardChange,
  origin: Origin,
): void {
  const { cards, viewers, lists, sessions, trending, searches } = memory;
  switch (change.kind) {
    case 'voted': {
      const { questionId, voterId, choice, seq, version } = change;
      // The vote's place in its question's order tells whether a card counts every vote before it.
      cards.voteCounted(questionId, choice, seq);
      viewers.changed(voterId, version, (state) => state.votes.set(questionId, { choice, seq }));
      sessions.stateMoved(voterId, version);
      // The voter may see the result now.
      live.viewerChanged(voterId);
      live.changed(questionId);
      trending.voted(questionId, seq);
      return;
    }
    case 'liked':
    case 'unliked': {
      const { questionId, userId, version } = change;
      const liked = change.kind === 'liked';
      // A like has no place in an order: a card read elsewhere may count it already.
      if (origin === 'here') cards.likesChanged(questionId, liked ? 1 : -1);
      else cards.staled(questionId);
      viewers.changed(userId, version, (state) =>
        liked ? state.likes.add(questionId) : state.likes.delete(questionId),
      );
      sessions.stateMoved(userId, version);
      live.changed(questionId);
      return;
    }
    case 'passed':
    case 'unpassed': {
      const { questionId, userId, version } = change;
      const passed = change.kind === 'passed';
      viewers.changed(userId, version, (state) =>
        passed ? state.passes.add(questionId) : state.passes.delete(questionId),
      );
      sessions.stateMoved(userId, version);
      return;
    }
    case 'asked':
      lists.asked(change.questionId, listsOfQuestion(change.authorId, change.categoryId, change.tags));
      searches.questionsChanged();
      return;
    case 'renamed':
      cards.authorRenamed(change.userId);
      return;
    case 'profileChanged':
      sessions.changed(change.userId);
      return;
    case 'passwordChanged':
      sessions.changed(change.userId);
      eventStreams.sessionsEnded(change.userId, change.keptTokenHash);
      return;
    case 'followed':
    case 'unfollowed':
      sessions.changed(change.followerId);
      return;
    case 'blocked':
    case 'unblocked':
      // Both see the other's questions, and what the other did, differently from now on.
      sessions.changed(change.blockerId);
      sessions.changed(change.blockedId);
      live.viewerChanged(change.blockerId);
      live.viewerChanged(change.blockedId);
      unread.changed(change.blockerId);
      unread.changed(change.blockedId);
      return;
    case 'sessionEnded':
      sessions.ended(change.userId, change.tokenHash);
      eventStreams.sessionEnded(change.userId, change.tokenHash);
      return;
    case 'notified':
    case 'notificationsRead':
      unread.changed(change.userId);
      return;
    case 'accountDeleted': {
      // Every copy forgets the person and their questions; what counted their votes or likes is read again.
      const { userId, questionIds, touchedQuestionIds, notifiedIds } = change;
      const changedQuestions = [...questionIds, ...touchedQuestionIds];
      memory.moderation.forget(userId, questionIds);
      cards.forget(questionIds);
      for (const questionId of touchedQuestionIds) cards.staled(questionId);
      lists.deleted(userId, questionIds);
      memory.segmentTables.forget(changedQuestions);
      memory.pairTables.forget(changedQuestions);
      memory.related.forget(changedQuestions);
      searches.questionsChanged();
      // Their votes of the last day no longer count: read again from the votes left.
      trending.staled();
      viewers.forget(userId);
      memory.feedPages.forget(userId);
      sessions.deleted(userId);
      eventStreams.sessionsEnded(userId, null);
      live.deleted(questionIds);
      for (const questionId of touchedQuestionIds) live.changed(questionId);
      for (const notifiedId of notifiedIds) unread.changed(notifiedId);
      return;
    }
    case 'questionModerated':
      // Lists, search, trending, related, the share page and live streams ask the rules at each read; kept feed pages
      // see the version move.
      memory.moderation.questionMarked(change.questionId, change.moderation);
      live.withheldChanged(change.questionId);
      return;
    case 'userSuspended': {
      // Their questions and profile are withheld at each read; what they had open ends with their sessions.
      const { userId, until } = change;
      memory.moderation.suspended(userId, until);
      sessions.deleted(userId);
      memory.feedPages.forget(userId);
      eventStreams.sessionsEnded(userId, null);
      // Their questions' streams end for everyone else.
      live.withheldChanged();
      return;
    }
    case 'userUnsuspended':
      memory.moderation.suspended(change.userId, undefined);
      return;
    case 'reported':
      return;
    case 'missed':
      memory.moderation.staled();
      cards.staledAll();
      lists.staledAll();
      trending.staled();
      searches.questionsChanged();
      sessions.forgetAll();
      live.missed();
      unread.missed();
      return;
    default: {
      const unhandled: never = change;
      throw new Error(`A change of an unknown kind: ${JSON.stringify(unhandled)}`);
    }
  }
}
