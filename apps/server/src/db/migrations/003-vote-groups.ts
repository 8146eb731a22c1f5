import { sql, type Kysely } from 'kysely';

/**
 * Each vote records its voter's gender, birth year and country as they were when it was cast, so
 * that breakdown's in-memory tables count the votes cast since they were built exactly as
 * `vote_segments` counted them, whatever the voter changed in their settings later. Breakdown no
 * longer reads the votes per gender, birth year and choice nor the voters per country: those
 * tallies go.
 */
export function voteGroups() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      // SQLite adds a NOT NULL column only with a default: every row gets its value just below,
      // and every vote written from now on names its own.
      await db.schema
        .alterTable('votes')
        .addColumn('gender', 'text', (col) => col.notNull().defaultTo(''))
        .execute();
      await db.schema
        .alterTable('votes')
        .addColumn('birth_year', 'integer', (col) => col.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('votes')
        .addColumn('country_id', 'integer', (col) => col.notNull().defaultTo(0))
        .execute();
      // The votes cast so far take the voter's group as it is now: no row says what it was then.
      await sql`update votes set gender = users.gender, birth_year = users.birth_year, country_id = users.country_id from users where users.id = votes.user_id`.execute(
        db,
      );

      await db.schema.dropTable('vote_age_segments').execute();
      await db.schema.dropTable('vote_country_tallies').execute();
    },
  };
}
