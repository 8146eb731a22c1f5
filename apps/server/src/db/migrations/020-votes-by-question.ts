import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';

/** Partitions of `votes` when VOTE_PARTITIONS is unset. */
export const DEFAULT_VOTE_PARTITIONS = 16;
/** More would cost every query that reads all of them (a person's answers, trending) more than they save. */
const MOST_VOTE_PARTITIONS = 256;

/** The number of partitions VOTE_PARTITIONS asks for, read when the migration runs. */
export function votePartitionsOf(setting: string | undefined): number {
  if (setting === undefined || setting === '') return DEFAULT_VOTE_PARTITIONS;
  const partitions = Number(setting);
  if (!Number.isInteger(partitions) || partitions < 1 || partitions > MOST_VOTE_PARTITIONS) {
    throw new Error(`VOTE_PARTITIONS must be a whole number from 1 to ${MOST_VOTE_PARTITIONS}, not ${setting}`);
  }
  return partitions;
}

/**
 * On PostgreSQL, `votes` becomes a table partitioned by `question_id` (`PARTITION BY HASH`, into
 * VOTE_PARTITIONS tables, 16 by default), every vote kept with its id. A vote's writes and a
 * question's reads (its tallies, breakdown, relate) touch one partition, whose indexes stay small
 * enough to be cached. Every unique key holds `question_id`, as PostgreSQL requires of a
 * partitioned table and Citus of a table distributed by it: the primary key becomes
 * `(id, question_id)`, which still finds a vote by its id alone. No table refers to votes.
 *
 * The columns, their defaults, the other indexes and the foreign keys are those of the table
 * before, so an instance of the previous version works on it; the copy holds the votes' writes
 * while it runs. SQLite has no partitions: there, nothing changes.
 */
export function votesByQuestion(dialect: DialectName) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect !== 'postgres') return;
      const partitions = votePartitionsOf(process.env.VOTE_PARTITIONS);
      // The ids go on from the same sequence: it is kept when the table that owns it is dropped.
      await sql`alter sequence votes_id_seq owned by none`.execute(db);
      await sql`create table votes_partitioned (
        id integer not null default nextval('votes_id_seq'),
        question_id integer not null,
        user_id integer not null,
        choice double precision not null,
        created_at text not null,
        seq integer not null default 0,
        gender text not null default '',
        birth_year integer not null default 0,
        country_id integer not null default 0
      ) partition by hash (question_id)`.execute(db);
      for (let remainder = 0; remainder < partitions; remainder += 1) {
        await sql`create table ${sql.table(`votes_${remainder}`)} partition of votes_partitioned
          for values with (modulus ${sql.lit(partitions)}, remainder ${sql.lit(remainder)})`.execute(db);
      }
      // Filled before its indexes are built: one sort per index instead of an insert per vote.
      await sql`insert into votes_partitioned (id, question_id, user_id, choice, created_at, seq, gender, birth_year, country_id)
        select id, question_id, user_id, choice, created_at, seq, gender, birth_year, country_id from votes`.execute(
        db,
      );
      await sql`drop table votes`.execute(db);
      await sql`alter table votes_partitioned rename to votes`.execute(db);
      await sql`alter sequence votes_id_seq owned by votes.id`.execute(db);

      await sql`alter table votes add constraint votes_pkey primary key (id, question_id)`.execute(db);
      await sql`alter table votes add constraint votes_one_per_user unique (question_id, user_id)`.execute(db);
      await sql`alter table votes add constraint votes_question_id_fkey foreign key (question_id) references questions (id)`.execute(
        db,
      );
      await sql`alter table votes add constraint votes_user_id_fkey foreign key (user_id) references users (id)`.execute(
        db,
      );
      await db.schema
        .createIndex('votes_by_question_seq')
        .on('votes')
        .columns(['question_id', 'seq'])
        .unique()
        .execute();
      await db.schema.createIndex('votes_by_user').on('votes').columns(['user_id', 'id']).execute();
      await db.schema
        .createIndex('votes_by_choice')
        .on('votes')
        .columns(['question_id', 'choice', 'user_id'])
        .execute();
      await db.schema.createIndex('votes_by_time').on('votes').columns(['created_at', 'question_id']).execute();
      // The planner's statistics of the new tables, rather than none until autovacuum comes by.
      await sql`analyze votes`.execute(db);
    },
  };
}
