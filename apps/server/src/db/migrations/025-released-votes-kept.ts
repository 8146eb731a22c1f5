import type { Kysely } from 'kysely';
import { choiceColumnType } from '../dialect.js';

/**
 * An epoch of a private release, once released, never changes (docs/insights.md, Privacy): the
 * votes of a deleted account that released epochs counted stay in them, as counts tied to nobody.
 * `removed_vote_segments` counts them as `vote_segments` counts votes (by question, country,
 * gender, birth year and choice), for breakdown; `removed_vote_pairs` counts the deleted people
 * a relate pair's released epochs counted, by their two answers, for relate.
 */
export function releasedVotesKept() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('removed_vote_segments')
        .addColumn('question_id', 'integer', (col) => col.notNull())
        .addColumn('country_id', 'integer', (col) => col.notNull())
        .addColumn('gender', 'text', (col) => col.notNull())
        .addColumn('birth_year', 'integer', (col) => col.notNull())
        .addColumn('choice', choiceColumnType, (col) => col.notNull())
        .addColumn('count', 'integer', (col) => col.notNull())
        .addPrimaryKeyConstraint('removed_vote_segments_pk', [
          'question_id',
          'country_id',
          'gender',
          'birth_year',
          'choice',
        ])
        .execute();
      await db.schema
        .createTable('removed_vote_pairs')
        .addColumn('low_id', 'integer', (col) => col.notNull())
        .addColumn('high_id', 'integer', (col) => col.notNull())
        .addColumn('low_choice', choiceColumnType, (col) => col.notNull())
        .addColumn('high_choice', choiceColumnType, (col) => col.notNull())
        .addColumn('count', 'integer', (col) => col.notNull())
        .addPrimaryKeyConstraint('removed_vote_pairs_pk', ['low_id', 'high_id', 'low_choice', 'high_choice'])
        .execute();
    },
  };
}
