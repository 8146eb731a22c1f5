import type { Kysely } from 'kysely';

/**
 * Breakdown and relate answer from a differentially private release (docs/insights.md,
 * Privacy). `release_noise` keeps every noise draw once made: the noise of one node of the
 * binary tree over a release's epochs, for one cell (an answer of the question by gender, age
 * band and country, or a pair of answers to two questions). A draw is written once, by whichever
 * instance makes it first, and read by every other: a restart or another instance must never
 * draw fresh noise for the same cell, or averaging the draws would wear the noise away.
 *
 * `relate_releases` holds the epochs of each pair of questions' release, with the votes of each
 * question it counts up to; `relate_budgets` how many pairs each question takes part in, which
 * its privacy budget caps.
 */
export function privateRelease() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('release_noise')
        .addColumn('question_id', 'integer', (col) => col.notNull())
        // The other question of a relate pair; 0 for the question's breakdown.
        .addColumn('other_id', 'integer', (col) => col.notNull())
        .addColumn('cell', 'integer', (col) => col.notNull())
        .addColumn('node', 'integer', (col) => col.notNull())
        .addColumn('noise', 'integer', (col) => col.notNull())
        .addPrimaryKeyConstraint('release_noise_pk', ['question_id', 'other_id', 'cell', 'node'])
        .execute();

      await db.schema
        .createTable('relate_releases')
        .addColumn('low_id', 'integer', (col) => col.notNull())
        .addColumn('high_id', 'integer', (col) => col.notNull())
        .addColumn('epoch', 'integer', (col) => col.notNull())
        .addColumn('low_counted', 'integer', (col) => col.notNull())
        .addColumn('high_counted', 'integer', (col) => col.notNull())
        .addPrimaryKeyConstraint('relate_releases_pk', ['low_id', 'high_id', 'epoch'])
        .execute();

      await db.schema
        .createTable('relate_budgets')
        .addColumn('question_id', 'integer', (col) => col.primaryKey())
        .addColumn('pairs', 'integer', (col) => col.notNull())
        .execute();
    },
  };
}
