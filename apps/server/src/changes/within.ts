import type { Db } from '../db/index.js';
import {
  isMilestone,
  notifyFollow,
  notifyLikes,
  notifyVotes,
  type Liked,
  type Milestone,
} from '../modules/notifications/index.js';
import type { Change, ChangeMade } from './change.js';

/**
 * Writes what a write's changes cause besides themselves, in its transaction before it commits,
 * so that both commit or neither: the notifications of what people did. Returns the changes of
 * what it wrote, one per person notified, to be applied with the write's own. The one place that
 * knows which kind of change tells whom. The likes and the milestones of a batch are told together, in a few
 * statements.
 */
export async function within(trx: Db, changes: readonly ChangeMade[]): Promise<Change[]> {
  const notified = new Set<number>();
  const tell = (userId: number | null) => {
    if (userId !== null) notified.add(userId);
  };
  const likes: Liked[] = [];
  const milestones: Milestone[] = [];
  for (const change of changes) {
    switch (change.kind) {
      case 'followed':
        tell(await notifyFollow(trx, change.followerId, change.followeeId));
        break;
      case 'liked':
        likes.push({ likerId: change.userId, questionId: change.questionId });
        break;
      case 'voted':
        // Only a milestone is told: every other vote writes nothing more.
        if (isMilestone(change.count))
          milestones.push({ voterId: change.voterId, questionId: change.questionId, votes: change.count });
        break;
      case 'unliked':
      case 'passed':
      case 'unpassed':
      case 'asked':
      case 'renamed':
      case 'profileChanged':
      case 'unfollowed':
      case 'blocked':
      case 'unblocked':
      case 'sessionEnded':
      case 'passwordChanged':
      case 'notified':
      case 'notificationsRead':
      case 'accountDeleted':
      case 'questionModerated':
      case 'userSuspended':
      case 'userUnsuspended':
      case 'reported':
        break;
      default: {
        const unhandled: never = change;
        throw new Error(`A change of an unknown kind: ${JSON.stringify(unhandled)}`);
      }
    }
  }
  for (const author of await notifyLikes(trx, likes)) tell(author);
  for (const author of await notifyVotes(trx, milestones)) tell(author);
  return [...notified].map((userId) => ({ kind: 'notified', userId }));
}
