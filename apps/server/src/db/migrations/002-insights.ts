import { sql, type Kysely } from 'kysely';

/**
 * What breakdown and relate read: each vote's place in its question's order (relate keeps its
 * tables current from the votes after the last one it counted), and voters per question and
 * country (which countries a breakdown offers, and how many of a group one country holds).
 */
export function insights() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('votes')
        .addColumn('seq', 'integer', (col) => col.notNull().defaultTo(0))
        .execute();
      await sql`update votes set seq = (select count(*) from votes as earlier where earlier.question_id = votes.question_id and earlier.id <= votes.id)`.execute(
        db,
      );
      await db.schema
        .createIndex('votes_by_question_seq')
        .on('votes')
        .columns(['question_id', 'seq'])
        .unique()
        .execute();

      await db.schema
        .createTable('vote_country_tallies')
        .addColumn('question_id', 'integer', (col) => col.notNull())
        .addColumn('country_id', 'integer', (col) => col.notNull())
        .addColumn('count', 'integer', (col) => col.notNull())
        .addPrimaryKeyConstraint('vote_country_tallies_pk', ['question_id', 'country_id'])
        .execute();
      await sql`insert into vote_country_tallies (question_id, country_id, count)
        select question_id, country_id, sum(count) from vote_segments group by question_id, country_id`.execute(db);
    },
  };
}
