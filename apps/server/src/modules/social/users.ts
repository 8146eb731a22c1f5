import type { Connection, Stats, UserStats } from '@pollscope/contract';
import type { Change } from '../../changes/change.js';
import type { Db } from '../../db/index.js';
import { BadRequestError, ForbiddenError, NotFoundError } from '../../errors.js';
import { isBlockedEitherWay } from './blocks.js';

export async function userExists(db: Db, userId: number): Promise<boolean> {
  return (await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst()) !== undefined;
}

export async function ownStats(db: Db, userId: number): Promise<Stats> {
  const row = await db
    .selectFrom('users')
    .select(['question_count', 'answer_count', 'like_count'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return { question: row.question_count, answer: row.answer_count, like: row.like_count };
}

export async function userStats(db: Db, viewerId: number, userId: number): Promise<UserStats> {
  const row = await db
    .selectFrom('users')
    .innerJoin('countries', 'countries.id', 'users.country_id')
    .select([
      'users.id',
      'users.first_name',
      'users.birthdate',
      'countries.name as country',
      'question_count',
      'answer_count',
      'like_count',
    ])
    .select((eb) => [
      eb
        .exists(
          eb
            .selectFrom('blocks')
            .select('blocker_id')
            .where('blocker_id', '=', viewerId)
            .where('blocked_id', '=', userId),
        )
        .as('blocked'),
      eb
        .exists(
          eb
            .selectFrom('follows')
            .select('follower_id')
            .where('follower_id', '=', viewerId)
            .where('followee_id', '=', userId),
        )
        .as('connected'),
    ])
    .where('users.id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new NotFoundError('errors.noSuchUser');
  return {
    id: row.id,
    name: row.first_name,
    question: row.question_count,
    answer: row.answer_count,
    like: row.like_count,
    blocked: Boolean(row.blocked),
    connected: Boolean(row.connected),
    birthdate: row.birthdate,
    livein: row.country,
  };
}

/** The users the viewer follows, most recent first, with their activity counts. */
export async function listConnections(db: Db, viewerId: number): Promise<Connection[]> {
  const rows = await db
    .selectFrom('follows')
    .innerJoin('users', 'users.id', 'follows.followee_id')
    .select(['users.id', 'users.first_name', 'follows.created_at', 'question_count', 'answer_count', 'like_count'])
    .where('follows.follower_id', '=', viewerId)
    .orderBy('follows.created_at', 'desc')
    .orderBy('users.id', 'desc')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.first_name,
    time: row.created_at,
    question: row.question_count,
    answer: row.answer_count,
    like: row.like_count,
  }));
}

async function otherUser(db: Db, viewerId: number, userId: number): Promise<void> {
  if (userId === viewerId) throw new BadRequestError('errors.notToYourself');
  if (!(await userExists(db, userId))) throw new NotFoundError('errors.noSuchUser');
}

/** Follows or stops following; null when nothing changed. */
export async function setFollowing(
  trx: Db,
  viewerId: number,
  userId: number,
  following: boolean,
): Promise<Change | null> {
  await otherUser(trx, viewerId, userId);
  if (!following) {
    const { numDeletedRows } = await trx
      .deleteFrom('follows')
      .where('follower_id', '=', viewerId)
      .where('followee_id', '=', userId)
      .executeTakeFirst();
    if (numDeletedRows === 0n) return null;
    return { kind: 'unfollowed', followerId: viewerId, followeeId: userId };
  }
  if (await isBlockedEitherWay(trx, viewerId, userId)) throw new ForbiddenError('errors.cannotConnect');
  const { numInsertedOrUpdatedRows } = await trx
    .insertInto('follows')
    .values({ follower_id: viewerId, followee_id: userId, created_at: new Date().toISOString() })
    .onConflict((conflict) => conflict.columns(['follower_id', 'followee_id']).doNothing())
    .executeTakeFirst();
  if (Number(numInsertedOrUpdatedRows ?? 0n) === 0) return null;
  return { kind: 'followed', followerId: viewerId, followeeId: userId };
}

/** A block also ends the follows between the two users, both ways; null when nothing changed. */
export async function setBlocking(
  trx: Db,
  viewerId: number,
  userId: number,
  blocking: boolean,
): Promise<Change | null> {
  await otherUser(trx, viewerId, userId);
  const changed = blocking
    ? await trx
        .insertInto('blocks')
        .values({ blocker_id: viewerId, blocked_id: userId, created_at: new Date().toISOString() })
        .onConflict((conflict) => conflict.columns(['blocker_id', 'blocked_id']).doNothing())
        .executeTakeFirst()
        .then((result) => Number(result.numInsertedOrUpdatedRows ?? 0n) > 0)
    : await trx
        .deleteFrom('blocks')
        .where('blocker_id', '=', viewerId)
        .where('blocked_id', '=', userId)
        .executeTakeFirst()
        .then((result) => result.numDeletedRows > 0n);
  if (!changed) return null;
  if (blocking) {
    await trx
      .deleteFrom('follows')
      .where((eb) =>
        eb.or([
          eb.and([eb('follower_id', '=', viewerId), eb('followee_id', '=', userId)]),
          eb.and([eb('follower_id', '=', userId), eb('followee_id', '=', viewerId)]),
        ]),
      )
      .execute();
  }
  return { kind: blocking ? 'blocked' : 'unblocked', blockerId: viewerId, blockedId: userId };
}

/** Ends the person's follows and blocks, both ways, as their account is deleted. */
export async function removeConnectionsOf(trx: Db, userId: number): Promise<void> {
  await trx
    .deleteFrom('follows')
    .where((eb) => eb.or([eb('follower_id', '=', userId), eb('followee_id', '=', userId)]))
    .execute();
  await trx
    .deleteFrom('blocks')
    .where((eb) => eb.or([eb('blocker_id', '=', userId), eb('blocked_id', '=', userId)]))
    .execute();
}
