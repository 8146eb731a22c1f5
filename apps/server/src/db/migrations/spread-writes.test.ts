import { answerBodySchema, api, questionSchema } from '@pollscope/contract';
import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedReferenceData } from '../../seed/reference.js';
import {
  createEmptyTestDatabase,
  createTestAppOn,
  restartApp,
  signUp,
  type TestContext,
  type TestDatabase,
} from '../../test/helper.js';
import { testPostgresUrl } from '../../test/postgres.js';
import { castLikes, castVotes, insertAskedQuestion, insertCountedPeople } from '../../test/seed.js';
import { runCommand } from '../../test/server-process.js';
import { findTallyMismatches } from '../check.js';
import { migrateToLatest, openDatabase, type DatabaseHandle, type Db } from '../index.js';
import { DEFAULT_VOTE_PARTITIONS, votePartitionsOf } from './020-votes-by-question.js';
import { migrations } from './index.js';

/** Migrates up to and including `last`, as a database of the release that ended with it. */
async function migrateTo(handle: DatabaseHandle, last: string): Promise<void> {
  const migrator = new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations(handle.dialect) } });
  const { error } = await migrator.migrateTo(last);
  if (error) throw error;
}

/** Days of the site chart written before migration 019, one row each. */
const DAYS_BEFORE = [
  { day: '2020-01-01', answers: 120, questions: 4, users: 9, likes: 31 },
  { day: '2020-01-02', answers: 75, questions: 0, users: 2, likes: 12 },
];

/** Everything the votes count, in a fixed order. */
async function votesAndTallies(db: Db) {
  return {
    votes: await db.selectFrom('votes').selectAll().orderBy('id').execute(),
    tallies: await db.selectFrom('vote_tallies').selectAll().orderBy('question_id').orderBy('choice').execute(),
    segments: await db
      .selectFrom('vote_segments')
      .selectAll()
      .orderBy('question_id')
      .orderBy('country_id')
      .orderBy('gender')
      .orderBy('birth_year')
      .orderBy('choice')
      .execute(),
    questions: await db
      .selectFrom('questions')
      .select(['id', 'vote_count', 'votes_removed', 'like_count'])
      .orderBy('id')
      .execute(),
    voters: await db.selectFrom('users').select(['id', 'answer_count', 'like_count']).orderBy('id').execute(),
  };
}

/**
 * The site chart's counts of each day, in order: the sums of the day's one row from before migration 019 and of its
 * shards.
 */
async function chart(db: Db) {
  const kinds = ['answers', 'questions', 'users', 'likes'] as const;
  const rows = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('daily_activity')
        .select(['day', ...kinds])
        .unionAll(eb.selectFrom('daily_activity_shards').select(['day', ...kinds]))
        .as('activity'),
    )
    .select((eb) => ['day', ...kinds.map((kind) => eb.fn.sum<number>(kind).as(kind))])
    .groupBy('day')
    .orderBy('day')
    .execute();
  return rows.map((row) => ({
    day: row.day,
    answers: Number(row.answers),
    questions: Number(row.questions),
    users: Number(row.users),
    likes: Number(row.likes),
  }));
}

/** The database, as the release before these migrations left it until they run; then the app of now on it. */
let testDatabase: TestDatabase;
let before: DatabaseHandle;
let ctx: TestContext | undefined;
let questionIds: number[];
beforeAll(async () => {
  // A database as the release before these migrations left it, with a chart of days gone by.
  testDatabase = await createEmptyTestDatabase();
  before = openDatabase(testDatabase.url);
  await migrateTo(before, '018-push');
  await before.db.insertInto('daily_activity').values(DAYS_BEFORE).execute();
  await migrateTo(before, '019-activity-shards');
  // The countries its people live in; the rest of the reference data (the quiz's questions) is written by today's
  // app, with today's columns, once the database is migrated.
  await before.db
    .insertInto('countries')
    .values([
      { id: 840, code: 'US', name: 'United States of America' },
      { id: 250, code: 'FR', name: 'France' },
      { id: 276, code: 'DE', name: 'Germany' },
    ])
    .execute();
  // Votes written before migration 020 by the app's own writers, telling no one (today's app reads and writes columns of later
  // migrations, a person's languages and a question's, from its start): several questions, voters of several groups.
  const { db } = before;
  const author = (group: { gender: 'F' | 'M'; country_id: number }) =>
    insertCountedPeople(db, 1, { birth_year: 1990, ...group });
  const [[first], [second]] = [
    await author({ gender: 'F', country_id: 840 }),
    await author({ gender: 'M', country_id: 250 }),
  ];
  questionIds = [
    await insertAskedQuestion(db, first.id, { choice_labels: JSON.stringify(['A', 'B', 'C']) }),
    await insertAskedQuestion(db, second.id, { type: 'RS', title: 'How good?', range_min: 1, range_max: 10 }),
    await insertAskedQuestion(db, second.id, {
      title: 'Tea or coffee?',
      choice_labels: JSON.stringify(['Tea', 'Coffee']),
    }),
  ];
  for (let index = 0; index < 8; index += 1) {
    const [voter] = await insertCountedPeople(db, 1, {
      gender: index % 2 === 0 ? 'F' : 'M',
      birth_year: 1960 + index * 5,
      country_id: index < 4 ? 840 : 276,
    });
    for (const [position, questionId] of questionIds.entries())
      await castVotes(db, [{ questionId, voter, choice: 1 + ((index + position) % 2) }]);
    if (index % 3 === 0) await castLikes(db, [{ userId: voter.id, questionId: questionIds[0], liked: true }]);
  }
});

afterAll(async () => {
  if (ctx) await ctx.close();
  else {
    await before.close();
    await testDatabase.drop();
  }
});

/** The app of now, on the database once migrated. */
const app = (): TestContext => {
  if (!ctx) throw new Error('The app starts once the database is migrated');
  return ctx;
};

describe('migration 019, the day’s activity over several rows', () => {
  it('keeps the days counted before where they were, and the chart sums them with the new rows', async () => {
    const { db } = before;
    const kept = await db
      .selectFrom('daily_activity')
      .selectAll()
      .where('day', '<', '2021-01-01')
      .orderBy('day')
      .execute();
    expect(kept).toEqual(DAYS_BEFORE);
    expect((await chart(db)).slice(0, 2)).toEqual(DAYS_BEFORE);
  });

  it('sums what an instance of the version before counts on the day’s one row with the new rows', async () => {
    const { db } = before;
    const today = (await chart(db)).at(-1)!;
    // The previous version's count of a like, as it wrote it: on the day's one row of daily_activity.
    await db
      .insertInto('daily_activity')
      .values({ day: today.day, answers: 0, questions: 0, users: 0, likes: 1 })
      .onConflict((conflict) => conflict.column('day').doUpdateSet({ likes: sql`daily_activity.likes + 1` }))
      .execute();
    expect((await chart(db)).at(-1)).toEqual({ ...today, likes: today.likes + 1 });
    await db.deleteFrom('daily_activity').where('day', '=', today.day).execute();
  });

  it('counts today’s answers, questions, people and likes over the day’s rows, each written once', async () => {
    const { db } = before;
    const today = (await chart(db)).at(-1);
    const count = async (table: 'votes' | 'likes' | 'questions' | 'users', column: 'created_at' | 'published_at') =>
      Number(
        (
          await db
            .selectFrom(table as 'votes')
            .select((eb) => eb.fn.countAll<number>().as('count'))
            .where(column as 'created_at', '>=', today!.day)
            .executeTakeFirstOrThrow()
        ).count,
      );
    expect(today).toMatchObject({
      answers: await count('votes', 'created_at'),
      likes: await count('likes', 'created_at'),
      users: 10,
    });
    expect(today!.questions).toBe(await count('questions', 'published_at'));
  });
});

describe('migration 020, votes partitioned by question', () => {
  it('keeps every vote and every count of them, and the tally check finds nothing wrong', async () => {
    const { db } = before;
    const counted = { ...(await votesAndTallies(db)), activity: await chart(db) };
    expect(counted.votes).toHaveLength(24);

    // The migrations after 019, 020 first.
    expect((await migrateToLatest(before))[0]).toBe('020-votes-by-question');

    expect({ ...(await votesAndTallies(db)), activity: await chart(db) }).toEqual(counted);
    expect(await findTallyMismatches(db)).toEqual([]);
    await seedReferenceData(db);
    await before.close();
    ctx = await createTestAppOn(testDatabase);
  });

  it.runIf(testPostgresUrl)(
    'partitions the votes on PostgreSQL by a hash of their question, 16 tables by default',
    async () => {
      const { db } = app().database;
      const { rows: partitioned } = await sql<{ key: string; partitions: number }>`
      select pg_get_partkeydef('votes'::regclass) as key, (select count(*) from pg_inherits where inhparent = 'votes'::regclass) as partitions`.execute(
        db,
      );
      expect(partitioned).toEqual([{ key: 'HASH (question_id)', partitions: DEFAULT_VOTE_PARTITIONS }]);
      // Every unique key holds the question, as partitions (and Citus's shards) require.
      const { rows: uniqueKeys } = await sql<{ name: string; columns: string }>`
      select index.relname as name, pg_get_indexdef(index.oid) as columns
      from pg_index join pg_class as index on index.oid = pg_index.indexrelid
      where pg_index.indrelid = 'votes'::regclass and pg_index.indisunique
      order by name`.execute(db);
      expect(uniqueKeys.map((key) => key.name)).toEqual(['votes_by_question_seq', 'votes_one_per_user', 'votes_pkey']);
      for (const key of uniqueKeys) expect(key.columns).toMatch(/\(.*question_id.*\)/);
    },
  );

  it('goes on taking votes after it: counted on, the second of one person refused, ids after the old ones, and the check passes', async () => {
    await restartApp(app());
    const { db } = app().database;
    const lastId = (
      await db
        .selectFrom('votes')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirstOrThrow()
    ).id;
    const voter = await signUp(app());
    const answered = await voter.api.post(api.answer(questionIds[0]), answerBodySchema, { choice: 3 }, questionSchema);
    expect(answered.vote_count).toBe(9);
    expect((await voter.api.raw('POST', api.answer(questionIds[0]), { choice: 2 })).status).toBe(409);
    const vote = await db.selectFrom('votes').select('id').where('user_id', '=', voter.id).executeTakeFirstOrThrow();
    expect(vote.id).toBeGreaterThan(Number(lastId));
    // Deleting an account deletes its votes by id, from whichever partition holds them.
    expect((await voter.api.raw('POST', api.deleteAccount, { password: 'correct horse' })).status).toBe(204);
    expect(await db.selectFrom('votes').select('id').where('id', '=', vote.id).execute()).toEqual([]);

    const command = await runCommand('src/db/check-cli.ts', [app().config.databaseUrl]);
    expect(command.stdout).toContain('Every tally matches its rows.');
    expect(command.code).toBe(0);
  });
});

describe('VOTE_PARTITIONS', () => {
  it('is 16 unset, a whole number from 1 to 256 otherwise, and refused if not', () => {
    expect(votePartitionsOf(undefined)).toBe(16);
    expect(votePartitionsOf('')).toBe(16);
    expect(votePartitionsOf('4')).toBe(4);
    for (const wrong of ['0', '-2', '1.5', 'many', '257'])
      expect(() => votePartitionsOf(wrong)).toThrow(/VOTE_PARTITIONS must be a whole number from 1 to 256/);
  });

  it.runIf(testPostgresUrl)('sets the number of partitions a new database’s votes get', async () => {
    const testDatabase = await createEmptyTestDatabase();
    const handle = openDatabase(testDatabase.url);
    process.env.VOTE_PARTITIONS = '4';
    try {
      await migrateToLatest(handle);
      const { rows } = await sql<{
        partitions: number;
      }>`select count(*) as partitions from pg_inherits where inhparent = 'votes'::regclass`.execute(handle.db);
      expect(rows).toEqual([{ partitions: 4 }]);
    } finally {
      delete process.env.VOTE_PARTITIONS;
      await handle.close();
      await testDatabase.drop();
    }
  });
});
