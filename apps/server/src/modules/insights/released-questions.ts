import type { Db } from '../../db/index.js';

/** Ids per statement: a person may have asked thousands of questions. */
const IDS_PER_STATEMENT = 1_000;

/**
 * The questions were deleted: the noise, epochs, budget and kept votes (kept-votes.ts) of their
 * private releases go with them, in the deletion's transaction. The budget a question paired with one of them spent stays
 * spent: its releases were made, whatever became of the other question.
 */
export async function forgetReleasesOf(trx: Db, questionIds: readonly number[]): Promise<void> {
  for (let start = 0; start < questionIds.length; start += IDS_PER_STATEMENT) {
    const ids = questionIds.slice(start, start + IDS_PER_STATEMENT);
    await trx.deleteFrom('release_noise').where('question_id', 'in', ids).execute();
    // A pair's noise is kept under its lower id: found through the pair's epochs where the deleted question is the
    // higher.
    await trx
      .deleteFrom('release_noise')
      .where(({ eb, refTuple, selectFrom }) =>
        eb(
          refTuple('question_id', 'other_id'),
          'in',
          selectFrom('relate_releases')
            .select(['low_id', 'high_id'])
            .where('high_id', 'in', ids)
            .$asTuple('low_id', 'high_id'),
        ),
      )
      .execute();
    await trx
      .deleteFrom('relate_releases')
      .where((eb) => eb.or([eb('low_id', 'in', ids), eb('high_id', 'in', ids)]))
      .execute();
    await trx.deleteFrom('relate_budgets').where('question_id', 'in', ids).execute();
    await trx.deleteFrom('removed_vote_segments').where('question_id', 'in', ids).execute();
    await trx
      .deleteFrom('removed_vote_pairs')
      .where((eb) => eb.or([eb('low_id', 'in', ids), eb('high_id', 'in', ids)]))
      .execute();
  }
}
