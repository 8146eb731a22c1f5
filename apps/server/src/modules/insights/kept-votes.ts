import { sql } from 'kysely';
import { dialectOf } from '../../db/dialect.js';
import { lockedForUpdate } from '../../db/locks.js';
import type { Db } from '../../db/index.js';

/**
 * An epoch of a private release, once released, never changes (docs/insights.md, Privacy): had a
 * deleted person's votes left it, anyone who saved a group's numbers before the deletion would read
 * that person's answers from the difference after. So, in the deletion's transaction, the votes the
 * person's released epochs counted are kept as counts tied to nobody, which the tables add to the
 * votes left: breakdown's by cell (`removed_vote_segments`), relate's by the pair's two answers
 * (`removed_vote_pairs`). The epochs to come never count them. Call after `lockContentOf`, before
 * the votes go.
 */
export async function keepReleasedVotesOf(trx: Db, userId: number): Promise<void> {
  await trx
    .insertInto('removed_vote_segments')
    .columns(['question_id', 'country_id', 'gender', 'birth_year', 'choice', 'count'])
    .expression(
      trx
        .selectFrom('votes as v')
        .select(['v.question_id', 'v.country_id', 'v.gender', 'v.birth_year', 'v.choice', sql<number>`1`.as('count')])
        .where('v.user_id', '=', userId)
        .where('v.seq', '<=', (eb) =>
          eb
            .selectFrom('breakdown_epochs as e')
            .select((max) => max.fn.max('e.counted').as('counted'))
            .whereRef('e.question_id', '=', 'v.question_id'),
        ),
    )
    .onConflict((conflict) =>
      conflict
        .columns(['question_id', 'country_id', 'gender', 'birth_year', 'choice'])
        .doUpdateSet({ count: sql`removed_vote_segments.count + excluded.count` }),
    )
    .execute();
  // A pair's latest epoch reaches furthest: it counts everyone the epochs before it did.
  await trx
    .insertInto('removed_vote_pairs')
    .columns(['low_id', 'high_id', 'low_choice', 'high_choice', 'count'])
    .expression(
      trx
        .selectFrom('votes as l')
        .innerJoin('relate_releases as r', 'r.low_id', 'l.question_id')
        .innerJoin('votes as h', (join) =>
          join.onRef('h.question_id', '=', 'r.high_id').onRef('h.user_id', '=', 'l.user_id'),
        )
        .select([
          'r.low_id',
          'r.high_id',
          'l.choice as low_choice',
          'h.choice as high_choice',
          sql<number>`1`.as('count'),
        ])
        .where('l.user_id', '=', userId)
        .whereRef('l.seq', '<=', 'r.low_counted')
        .whereRef('h.seq', '<=', 'r.high_counted')
        .where('r.epoch', '=', (eb) =>
          eb
            .selectFrom('relate_releases as latest')
            .select((max) => max.fn.max('latest.epoch').as('epoch'))
            .whereRef('latest.low_id', '=', 'r.low_id')
            .whereRef('latest.high_id', '=', 'r.high_id'),
        ),
    )
    .onConflict((conflict) =>
      conflict
        .columns(['low_id', 'high_id', 'low_choice', 'high_choice'])
        .doUpdateSet({ count: sql`removed_vote_pairs.count + excluded.count` }),
    )
    .execute();
}

/**
 * Locks the rows of the questions whose epoch is about to be written, in id order as a deletion
 * locks them (lockContentOf), before it reads which votes released epochs count: an epoch is then
 * written either before that read, and the deleted votes it counts are kept, or after the
 * deletion, and never counted them.
 */
export async function lockForRelease(trx: Db, questionIds: number[]): Promise<void> {
  await lockedForUpdate(
    dialectOf(trx),
    trx.selectFrom('questions').select('id').where('id', 'in', questionIds).orderBy('id'),
  ).execute();
}
