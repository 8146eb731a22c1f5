import type { Change, ChangeKind, ChangeMade, ChangeMadeOf } from '../../changes/change.js';
import type { Db } from '../../db/index.js';
import {
  isMilestone,
  notifyFollow,
  notifyLikes,
  notifyModeration,
  notifyVotes,
  type Liked,
  type Milestone,
} from './notify.js';

/** What a write's changes tell, gathered so that the likes and the milestones of a batch are told together. */
interface Telling {
  follows: ChangeMadeOf<'followed'>[];
  likes: Liked[];
  milestones: Milestone[];
  moderations: ChangeMadeOf<'moderatorActed'>[];
}

/** Which kind of change tells whom: null where a change tells nobody. */
const TOLD: { readonly [K in ChangeKind]: ((change: ChangeMadeOf<K>, telling: Telling) => void) | null } = {
  followed: (change, telling) => void telling.follows.push(change),
  liked: (change, telling) => void telling.likes.push({ likerId: change.userId, questionId: change.questionId }),
  voted: (change, telling) => {
    // Only a milestone is told: every other vote writes nothing more.
    if (isMilestone(change.count))
      telling.milestones.push({ voterId: change.voterId, questionId: change.questionId, votes: change.count });
  },
  moderatorActed: (change, telling) => void telling.moderations.push(change),
  unliked: null,
  passed: null,
  unpassed: null,
  asked: null,
  renamed: null,
  profileChanged: null,
  unfollowed: null,
  blocked: null,
  unblocked: null,
  sessionEnded: null,
  passwordChanged: null,
  notified: null,
  notificationsRead: null,
  accountDeleted: null,
  questionModerated: null,
  userSuspended: null,
  userUnsuspended: null,
  reported: null,
};

/**
 * Writes the notifications of what a write's changes did, in its transaction, so that both commit or neither: the one
 * place that knows which kind of change tells whom. Returns the changes of what it wrote, one per person notified. The
 * likes and the milestones of a batch are told together, in a few statements.
 */
export async function tellOf(trx: Db, changes: readonly ChangeMade[]): Promise<Change[]> {
  const telling: Telling = { follows: [], likes: [], milestones: [], moderations: [] };
  for (const change of changes)
    (TOLD[change.kind] as ((change: ChangeMade, telling: Telling) => void) | null)?.(change, telling);
  const notified = new Set<number>();
  for (const { followerId, followeeId } of telling.follows)
    notified.add(await notifyFollow(trx, followerId, followeeId));
  for (const author of await notifyLikes(trx, telling.likes)) notified.add(author);
  for (const author of await notifyVotes(trx, telling.milestones)) notified.add(author);
  for (const { userId, told, questionId } of telling.moderations)
    notified.add(await notifyModeration(trx, userId, told, questionId));
  return [...notified].map((userId) => ({ kind: 'notified', userId }));
}
