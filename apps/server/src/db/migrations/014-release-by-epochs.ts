import type { Kysely } from 'kysely';

/**
 * Breakdown and relate release each epoch of votes once, as tables of noisy counts
 * (docs/insights.md, Privacy). `breakdown_epochs` holds the epochs of each question's breakdown
 * release: the last vote each counts, the countries its tables span and the noise variance of
 * each table, kept so that a later change of the allocation never reads old draws with new
 * variances. `legacy` marks the epoch standing for what the binary-tree release (migration 010)
 * had counted. `epoch_noise` keeps each draw once made, like `release_noise`.
 * `relate_releases.variance` is the noise variance of an epoch of a pair released by epochs;
 * null for the tree's epochs.
 */
export function releaseByEpochs() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('breakdown_epochs')
        .addColumn('question_id', 'integer', (col) => col.notNull())
        .addColumn('epoch', 'integer', (col) => col.notNull())
        .addColumn('counted', 'integer', (col) => col.notNull())
        .addColumn('countries', 'text', (col) => col.notNull())
        .addColumn('tables', 'text', (col) => col.notNull())
        .addColumn('legacy', 'integer', (col) => col.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('breakdown_epochs_pk', ['question_id', 'epoch'])
        .execute();

      await db.schema
        .createTable('epoch_noise')
        .addColumn('question_id', 'integer', (col) => col.notNull())
        // The other question of a relate pair; 0 for the question's breakdown.
        .addColumn('other_id', 'integer', (col) => col.notNull())
        .addColumn('epoch', 'integer', (col) => col.notNull())
        .addColumn('cell', 'integer', (col) => col.notNull())
        .addColumn('noise', 'integer', (col) => col.notNull())
        .addPrimaryKeyConstraint('epoch_noise_pk', ['question_id', 'other_id', 'epoch', 'cell'])
        .execute();

      await db.schema.alterTable('relate_releases').addColumn('variance', 'integer').execute();
    },
  };
}
