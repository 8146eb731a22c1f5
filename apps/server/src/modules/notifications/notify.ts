import type { NotificationModeration } from '@pollscope/contract';
import { sql } from 'kysely';
import type { Change } from '../../changes/change.js';
import { writeWithoutWaiting } from '../../db/pipelining.js';
import type { Db } from '../../db/index.js';
import { NotFoundError } from '../../errors.js';
import { SYSTEM_EMAIL } from '../../db/schema.js';
import { withdrawMail } from '../mail/index.js';
import { queuePush } from '../push/index.js';

/** 1, 10, 100, 1,000…: the vote counts a question's author is told of. */
export function isMilestone(votes: number): boolean {
  let milestone = 1;
  while (milestone < votes) milestone *= 10;
  return milestone === votes;
}

/** A value in the rows an `insert … select` writes: PostgreSQL does not infer a type for a bare parameter there. */
const typed = (value: string | number, type: 'text' | 'integer') => sql`cast(${value} as ${sql.raw(type)})`;

/** The last time, in ms, that this instance stamped a notification's actors with. */
let lastActorStamp = 0;

/**
 * The time to stamp actors with: now, or a millisecond after the last stamp when that was now
 * already, so that of two people added one after the other the later shows first, however fast the
 * machine. Two instances that stamp in the same millisecond leave their actors ordered by id.
 */
function actorStamp(): string {
  lastActorStamp = Math.max(Date.now(), lastActorStamp + 1);
  return new Date(lastActorStamp).toISOString();
}

/** Names people on notifications; nothing in the transaction reads it back, so it goes with the next statement. */
async function addActors(
  trx: Db,
  actors: readonly { notification_id: number; actor_id: number }[],
  at: string,
): Promise<void> {
  await writeWithoutWaiting(
    trx,
    trx
      .insertInto('notification_actors')
      .values(actors.map((actor) => ({ ...actor, created_at: at })))
      // Someone who liked, took it back and liked again is one person, now the most recent.
      .onConflict((conflict) => conflict.columns(['notification_id', 'actor_id']).doUpdateSet({ created_at: at })),
  );
}

/**
 * The questions of `questionIds` whose authors are told of what people do on them: not the site's
 * own account's, whose quiz questions nobody reads notifications of. Nor is an author told of
 * their own doing: the caller leaves that out.
 */
function questionsToTell(trx: Db, questionIds: readonly number[]) {
  return trx
    .selectFrom('questions')
    .innerJoin('users', 'users.id', 'questions.user_id')
    .where('questions.id', 'in', questionIds)
    .where('users.email', '<>', SYSTEM_EMAIL);
}

/** Tells the followee; returns who was notified. */
export async function notifyFollow(trx: Db, followerId: number, followeeId: number): Promise<number> {
  const at = actorStamp();
  const { id } = await trx
    .insertInto('notifications')
    .values({ user_id: followeeId, kind: 'follow', created_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  await addActors(trx, [{ notification_id: id, actor_id: followerId }], at);
  await queuePush(trx, [id]);
  return followeeId;
}

export interface Liked {
  likerId: number;
  questionId: number;
}

/**
 * Tells each question's author in their unread like notification of the question, made here when
 * there is none, of the people who liked it (a batch of concurrent likes); returns who was
 * notified. Four statements however many likes: the authors, the notifications, the actors, the
 * pushes. An author is not told of their own like.
 */
export async function notifyLikes(trx: Db, likes: readonly Liked[]): Promise<number[]> {
  if (likes.length === 0) return [];
  const at = actorStamp();
  const authors = await questionsToTell(trx, [...new Set(likes.map((like) => like.questionId))])
    .select(['questions.id', 'questions.user_id'])
    .execute();
  const authorOf = new Map(authors.map((question) => [question.id, question.user_id]));
  /** The likers to name on each question's notification, each once. */
  const likersOf = new Map<number, Set<number>>();
  for (const { likerId, questionId } of likes) {
    const author = authorOf.get(questionId);
    if (author === undefined || author === likerId) continue;
    likersOf.set(questionId, (likersOf.get(questionId) ?? new Set()).add(likerId));
  }
  if (likersOf.size === 0) return [];
  const notifications = await trx
    .insertInto('notifications')
    .values(
      [...likersOf.keys()].map((questionId) => ({
        user_id: authorOf.get(questionId)!,
        kind: 'like' as const,
        question_id: questionId,
        created_at: at,
      })),
    )
    // The conflict is with the partial unique index of unread likes (migration 005), named by its
    // predicate as written there. Joining makes the notification unmailed again: the next mail
    // tells of the newcomer.
    .onConflict((conflict) =>
      conflict
        .columns(['user_id', 'question_id'])
        .where(sql<boolean>`kind = 'like' and read_at is null`)
        .doUpdateSet({ mailed_at: null }),
    )
    .returning(['id', 'user_id', 'question_id'])
    .execute();
  await addActors(
    trx,
    notifications.flatMap((notification) =>
      [...likersOf.get(notification.question_id!)!].map((likerId) => ({
        notification_id: notification.id,
        actor_id: likerId,
      })),
    ),
    at,
  );
  // Joining pushes it again, naming the newcomer; the pushes a device has not had yet are sent as one.
  await queuePush(
    trx,
    notifications.map((notification) => notification.id),
  );
  return [...new Set(notifications.map((notification) => notification.user_id))];
}

/** A vote that took its question to a milestone (isMilestone): its voter, and the count it reached. */
export interface Milestone {
  voterId: number;
  questionId: number;
  votes: number;
}

/** Few enough milestones that one statement's `union all` stays within SQLite's 500 terms. */
const MILESTONES_PER_STATEMENT = 250;

/**
 * Tells each question's author it reached its milestone (a batch of votes may bring many: a
 * question's first vote and its tenth, say), unless they cast that vote themselves; returns who
 * was notified. Two statements for up to 250 milestones (the notifications, then their pushes), one
 * more for each 250 past that: the vote writer's batches of at most 256 votes seldom reach it.
 */
export async function notifyVotes(trx: Db, milestones: readonly Milestone[]): Promise<number[]> {
  const createdAt = typed(new Date().toISOString(), 'text');
  const notified: { id: number; user_id: number }[] = [];
  for (let start = 0; start < milestones.length; start += MILESTONES_PER_STATEMENT) {
    const [first, ...rest] = milestones
      .slice(start, start + MILESTONES_PER_STATEMENT)
      .map(({ voterId, questionId, votes }) =>
        questionsToTell(trx, [questionId])
          .where('questions.user_id', '<>', voterId)
          .select([
            'questions.user_id',
            sql.lit('votes').as('kind'),
            'questions.id',
            typed(votes, 'integer').as('count'),
            createdAt.as('created_at'),
          ]),
      );
    notified.push(
      ...(await trx
        .insertInto('notifications')
        .columns(['user_id', 'kind', 'question_id', 'count', 'created_at'])
        .expression(rest.reduce((rows, next) => rows.unionAll(next), first))
        .returning(['id', 'user_id'])
        .execute()),
    );
  }
  await queuePush(
    trx,
    notified.map((notification) => notification.id),
  );
  return notified.map((notification) => notification.user_id);
}

/**
 * Tells the person what a moderator did, on their question when `questionId` is given: whatever
 * their notification setting. The action's own mail tells them at once (modules/moderation), so
 * the notification mail does not list it again.
 */
export async function notifyModeration(
  trx: Db,
  userId: number,
  moderation: NotificationModeration,
  questionId: number | null,
): Promise<number> {
  const at = new Date().toISOString();
  const { id } = await trx
    .insertInto('notifications')
    .values({
      user_id: userId,
      kind: 'moderation',
      question_id: questionId,
      created_at: at,
      mailed_at: at,
      moderation_action: moderation.action,
      moderation_reason: moderation.reason,
      moderation_until: moderation.until,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await queuePush(trx, [id]);
  return userId;
}

/**
 * Marks the person's notifications read: those of `ids`, each of which must be theirs, or all. Null when none was
 * unread.
 */
export async function markRead(trx: Db, userId: number, ids: number[] | undefined): Promise<Change | null> {
  if (ids) {
    const own = await trx
      .selectFrom('notifications')
      .select('id')
      .where('user_id', '=', userId)
      .where('id', 'in', ids)
      .execute();
    if (own.length < new Set(ids).size) throw new NotFoundError('No such notification');
  }
  let update = trx
    .updateTable('notifications')
    .set({ read_at: new Date().toISOString() })
    .where('user_id', '=', userId)
    .where('read_at', 'is', null);
  if (ids) update = update.where('id', 'in', ids);
  const { numUpdatedRows } = await update.executeTakeFirst();
  return numUpdatedRows > 0n ? { kind: 'notificationsRead', userId } : null;
}

/**
 * Deletes the person's notifications and their part in others', as their account is deleted: a
 * like or follow notification of someone else's that only they made goes too. Returns who had
 * such a notification, whose unread count may have moved.
 */
export async function removeNotificationsOf(trx: Db, userId: number): Promise<number[]> {
  // Who was told of something they did, and by which mails.
  const theirPart = await trx
    .selectFrom('notification_actors')
    .innerJoin('notifications', 'notifications.id', 'notification_actors.notification_id')
    .select(['notifications.user_id', 'notifications.mailed_in'])
    .where('notification_actors.actor_id', '=', userId)
    .where('notifications.user_id', '<>', userId)
    .execute();
  const notified = [...new Set(theirPart.map((row) => row.user_id))].sort((a, b) => a - b);
  // A mail that names them and is still waiting is taken back; what it listed is mailed again without them.
  const withdrawn = await withdrawMail(trx, [
    ...new Set(theirPart.flatMap((row) => (row.mailed_in === null ? [] : [row.mailed_in]))),
  ]);
  if (withdrawn.length > 0)
    await trx
      .updateTable('notifications')
      .set({ mailed_at: null, mailed_in: null })
      .where('mailed_in', 'in', withdrawn)
      .execute();
  // Those that only they made, with their actors; then their part in the others.
  await trx
    .deleteFrom('notifications')
    .where('kind', '<>', 'votes')
    .where('id', 'in', (eb) =>
      eb.selectFrom('notification_actors').select('notification_id').where('actor_id', '=', userId),
    )
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('notification_actors')
            .select('actor_id')
            .whereRef('notification_actors.notification_id', '=', 'notifications.id')
            .where('notification_actors.actor_id', '<>', userId),
        ),
      ),
    )
    .execute();
  await trx.deleteFrom('notification_actors').where('actor_id', '=', userId).execute();
  await trx.deleteFrom('notifications').where('user_id', '=', userId).execute();
  return notified;
}
