import type { SelectQueryBuilder } from 'kysely';
import type { DialectName } from '../../db/dialect.js';
import { lockedForUpdate } from '../../db/locks.js';
import type { Db } from '../../db/index.js';
import type { Database } from '../../db/schema.js';
import { addActivity, type ActivityByDay } from '../site/index.js';
import { countInTallies, countsBy, moveVoteCounts } from './questions.js';

/**
 * Votes or likes deleted per statement, with every count they moved: few statements for most
 * people, and a person with 100,000 votes never held in memory at once.
 */
const ROWS_PER_BATCH = 2_000;

/** The ids of the rows of `T` to delete: each batch takes the next ones in id order. */
type RowIds<T extends 'votes' | 'likes'> = SelectQueryBuilder<Database, T, { id: number }>;

export interface RemovedContent {
  /** The person's own questions, deleted with everything on them. */
  questionIds: number[];
  /** Other people's questions whose votes or likes changed: the person's are gone. */
  touchedQuestionIds: number[];
}

/**
 * Locks the questions whose rows removing the person's content will change: theirs, and those
 * they voted on or liked, in id order, as a batch of votes locks its questions before anything
 * else. A vote on one of them waits for the removal, and then finds its question as it is after.
 */
export async function lockContentOf(trx: Db, dialect: DialectName, userId: number): Promise<void> {
  await lockedForUpdate(
    dialect,
    trx
      .selectFrom('questions')
      .select('id')
      .where((eb) =>
        eb.or([
          eb('user_id', '=', userId),
          eb('id', 'in', eb.selectFrom('votes').select('question_id').where('user_id', '=', userId)),
          eb('id', 'in', eb.selectFrom('likes').select('question_id').where('user_id', '=', userId)),
        ]),
      )
      .orderBy('id'),
  ).execute();
}

/**
 * Deletes the person's questions with every vote, like and pass on them, and their own votes,
 * likes and passes, moving every count that counted them by as much: the tallies and voter
 * groups, the questions' and the voters' counts, and the site's activity per day (added to
 * `activity`, for the caller to take away once it has changed everything else). Call
 * `lockContentOf` first in the same transaction.
 */
export async function removeContentOf(trx: Db, userId: number, activity: ActivityByDay): Promise<RemovedContent> {
  const questionIds = (
    await trx.selectFrom('questions').select('id').where('user_id', '=', userId).orderBy('id').execute()
  ).map((row) => row.id);
  const ownQuestions = trx.selectFrom('questions').select('id').where('user_id', '=', userId);
  const touched = new Set<number>();
  for (const questionId of await removeVotes(
    trx,
    trx.selectFrom('votes').select('id').where('user_id', '=', userId),
    activity,
  ))
    touched.add(questionId);
  await removeVotes(trx, trx.selectFrom('votes').select('id').where('question_id', 'in', ownQuestions), activity);
  for (const questionId of await removeLikes(
    trx,
    trx.selectFrom('likes').select('id').where('user_id', '=', userId),
    activity,
  ))
    touched.add(questionId);
  await removeLikes(trx, trx.selectFrom('likes').select('id').where('question_id', 'in', ownQuestions), activity);
  await trx.deleteFrom('passes').where('user_id', '=', userId).execute();
  await trx.deleteFrom('passes').where('question_id', 'in', ownQuestions).execute();

  // The day keeps no question of the day rather than another: it was chosen once for everyone.
  await trx
    .updateTable('questions_of_the_day')
    .set({ question_id: null })
    .where('question_id', 'in', ownQuestions)
    .execute();
  const asked = await trx.deleteFrom('questions').where('user_id', '=', userId).returning('published_at').execute();
  for (const { published_at } of asked) addActivity(activity, 'questions', published_at);
  for (const questionId of questionIds) touched.delete(questionId);
  return { questionIds, touchedQuestionIds: [...touched].sort((a, b) => a - b) };
}

/**
 * Deletes rows batch by batch: `removeBatch` deletes the next ones and returns what counted them,
 * `countOut` takes each batch out of its counts. Returns the questions the rows were on.
 */
async function removeInBatches<R extends { question_id: number }>(
  removeBatch: () => Promise<R[]>,
  countOut: (rows: R[]) => Promise<void>,
): Promise<Set<number>> {
  const questionIds = new Set<number>();
  for (;;) {
    const removed = await removeBatch();
    if (removed.length > 0) await countOut(removed);
    for (const row of removed) questionIds.add(row.question_id);
    if (removed.length < ROWS_PER_BATCH) return questionIds;
  }
}

/** Ids grouped by their count, so that one statement moves everyone's count by the same amount: the usual one each. */
function groupedByCount<K extends string>(
  rows: readonly (Record<K, number> & { count: number })[],
  key: K,
): Map<number, number[]> {
  const byCount = new Map<number, number[]>();
  for (const row of rows) byCount.set(row.count, [...(byCount.get(row.count) ?? []), row[key]]);
  return byCount;
}

/** Takes `column` of each row of `table` down by as many as `ids` names it, one statement per amount. */
async function countDown(
  trx: Db,
  table: 'users' | 'questions',
  column: 'answer_count' | 'like_count',
  ids: number[],
): Promise<void> {
  for (const [count, group] of groupedByCount(
    countsBy(ids, (id) => ({ id })),
    'id',
  )) {
    await trx
      .updateTable(table as 'users')
      .set(column, (eb) => eb(column, '-', count))
      .where('id', 'in', group)
      .execute();
  }
}

/** Deletes the votes of `ids` batch by batch, and takes each out of every count; returns the questions they were on. */
function removeVotes(trx: Db, ids: RowIds<'votes'>, activity: ActivityByDay): Promise<Set<number>> {
  return removeInBatches(
    () =>
      trx
        .deleteFrom('votes')
        .where('id', 'in', ids.orderBy('id').limit(ROWS_PER_BATCH))
        .returning(['question_id', 'user_id', 'choice', 'gender', 'birth_year', 'country_id', 'created_at'])
        .execute(),
    async (removed) => {
      await moveVoteCounts(
        trx,
        countsBy(removed, (vote) => ({ question_id: vote.question_id })),
        -1,
      );
      await countInTallies(
        trx,
        removed.map((vote) => ({ questionId: vote.question_id, choice: vote.choice, voter: vote })),
        -1,
      );
      await countDown(
        trx,
        'users',
        'answer_count',
        removed.map((vote) => vote.user_id),
      );
      for (const vote of removed) addActivity(activity, 'answers', vote.created_at);
    },
  );
}

/**
 * Deletes the likes of `ids` batch by batch, and takes each out of the questions' and likers' counts; returns the
 * questions they were on.
 */
function removeLikes(trx: Db, ids: RowIds<'likes'>, activity: ActivityByDay): Promise<Set<number>> {
  return removeInBatches(
    () =>
      trx
        .deleteFrom('likes')
        .where('id', 'in', ids.orderBy('id').limit(ROWS_PER_BATCH))
        .returning(['question_id', 'user_id', 'created_at'])
        .execute(),
    async (removed) => {
      await countDown(
        trx,
        'questions',
        'like_count',
        removed.map((like) => like.question_id),
      );
      await countDown(
        trx,
        'users',
        'like_count',
        removed.map((like) => like.user_id),
      );
      for (const like of removed) addActivity(activity, 'likes', like.created_at);
    },
  );
}
