import { sql } from 'kysely';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { findTallyMismatches } from '../src/db/check.js';
import { openDatabase, type DatabaseHandle, type Db } from '../src/db/index.js';
import { MATCH_LEVELS, questionsMatching } from '../src/db/search-index.js';
import { agesOf, bandsTouched, currentYear } from '../src/modules/insights/ages.js';
import { NoiseStore } from '../src/modules/insights/noise-store.js';
import { latestReach, PairTables } from '../src/modules/insights/pair-tables.js';
import { createPostgresDatabase, databaseUrlFor, dropPostgresDatabase, testPostgresUrl } from '../src/test/postgres.js';
import { communityIds } from './calls.js';
import { planCommunity, type CommunityParameters } from './community-plan.js';
import { generateCommunity, storedCommunity, type BenchCommunity } from './generate.js';

const SMALL: CommunityParameters = {
  seed: 7,
  users: 300,
  questions: 40,
  votes: 5_000,
  bigQuestionVotes: 1_000,
  pairQuestionVotes: 250,
};

interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

/** An empty database of the test's own: a SQLite file, or on a PostgreSQL run a database beside the suite's. */
async function scratchDatabase(): Promise<ScratchDatabase> {
  if (testPostgresUrl) {
    const serverUrl = testPostgresUrl;
    const name = await createPostgresDatabase(serverUrl, 'pollscope_test');
    return { url: databaseUrlFor(serverUrl, name), drop: () => dropPostgresDatabase(serverUrl, name) };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pollscope-bench-test-'));
  return { url: path.join(dir, 'community.db'), drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
}

let scratch: ScratchDatabase;
let url: string;
let community: BenchCommunity;
let database: DatabaseHandle;

beforeAll(async () => {
  scratch = await scratchDatabase();
  url = scratch.url;
  community = await generateCommunity(url, SMALL, { log: null });
  database = openDatabase(url);
}, 120_000);

afterAll(async () => {
  await database?.close();
  await scratch?.drop();
});

type Row = Record<string, string | number>;

/** Rows as sorted strings, for comparing two ways of counting the same thing. */
const normalized = (rows: Row[]) => rows.map((row) => JSON.stringify(Object.values(row).map(Number))).sort();

async function countAll(db: Db, table: 'votes' | 'likes' | 'questions' | 'users'): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

describe('a generated community', () => {
  it('has the size asked for, with occasional voters making up the big question beyond the members', async () => {
    const { db } = database;
    const ids = communityIds(community);
    expect(await countAll(db, 'votes')).toBe(SMALL.votes);
    const big = await db
      .selectFrom('questions')
      .select('vote_count')
      .where('id', '=', ids.bigQuestion)
      .executeTakeFirstOrThrow();
    expect(big.vote_count).toBe(SMALL.bigQuestionVotes);
    const pair = await db.selectFrom('questions').select('vote_count').where('id', 'in', ids.pairQuestions).execute();
    expect(pair.map((row) => row.vote_count)).toEqual([SMALL.pairQuestionVotes, SMALL.pairQuestionVotes]);
    expect(community.accounts).toBe(SMALL.bigQuestionVotes);
    expect(await countAll(db, 'users')).toBe(community.accounts + 1); // and the quiz's author
  });

  it('passes the tally check, as db:check runs it', async () => {
    expect(await findTallyMismatches(database.db)).toEqual([]);
  });

  it('is indexed for search: every question by its words, every person by their first name', async () => {
    const { db, dialect } = database;
    const documents = await db
      .selectFrom('question_search_documents')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    expect(Number(documents.count)).toBe(await countAll(db, 'questions'));
    expect(await db.selectFrom('users').select('id').where('search_name', '=', '').execute()).toEqual([]);
    const inTitles = (await questionsMatching(db, dialect, ['exerc'], 0, null, 10)).filter(
      (match) => MATCH_LEVELS[match.level] === 'title',
    );
    expect(inTitles.map((match) => match.id)).toEqual([communityIds(community).pairQuestions[0]]);
  });

  it('records each vote’s voter group as the voter’s, and the day’s activity that the check does not cover', async () => {
    const { db } = database;
    const differing = await db
      .selectFrom('votes')
      .innerJoin('users', 'users.id', 'votes.user_id')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where((eb) =>
        eb.or([
          eb('votes.gender', '<>', eb.ref('users.gender')),
          eb('votes.birth_year', '<>', eb.ref('users.birth_year')),
          eb('votes.country_id', '<>', eb.ref('users.country_id')),
        ]),
      )
      .executeTakeFirstOrThrow();
    expect(Number(differing.count)).toBe(0);

    const activity = await db
      .selectFrom('daily_activity')
      .select((eb) => [
        eb.fn.sum<number>('answers').as('answers'),
        eb.fn.sum<number>('likes').as('likes'),
        eb.fn.sum<number>('questions').as('questions'),
      ])
      .executeTakeFirstOrThrow();
    expect(Number(activity.answers)).toBe(await countAll(db, 'votes'));
    expect(Number(activity.likes)).toBe(await countAll(db, 'likes'));
    expect(Number(activity.questions)).toBe(await countAll(db, 'questions'));
  });

  it('gives from its tallies the same numbers as counting the votes, for every breakdown filter tried', async () => {
    const { db } = database;
    const question = communityIds(community).bigQuestion;
    const year = currentYear();
    const countries = (
      await db.selectFrom('vote_segments').select('country_id').distinct().where('question_id', '=', question).execute()
    ).map((row) => row.country_id);
    const ageRanges = [
      [0, 999],
      [0, 17],
      [18, 24],
      [25, 44],
      [30, 50],
      [65, 999],
    ];
    let nonEmpty = 0;
    for (const gender of [null, 'F', 'M'] as const) {
      for (const country of [null, ...countries]) {
        for (const [minAge, maxAge] of ageRanges) {
          const ages = agesOf(bandsTouched(minAge, maxAge));
          const [earliest, latest] = [year - ages.max, year - ages.min];
          const { rows: tallied } = await sql<Row>`
            select choice, sum(count) as count from vote_segments
            where question_id = ${question} and birth_year between ${earliest} and ${latest}
              ${gender ? sql`and gender = ${gender}` : sql``} ${country === null ? sql`` : sql`and country_id = ${country}`}
            group by choice`.execute(db);
          let fromVotes = db
            .selectFrom('votes')
            .innerJoin('users', 'users.id', 'votes.user_id')
            .select(['votes.choice', (eb) => eb.fn.countAll<number>().as('count')])
            .where('votes.question_id', '=', question)
            .where('users.birth_year', '>=', earliest)
            .where('users.birth_year', '<=', latest);
          if (gender) fromVotes = fromVotes.where('users.gender', '=', gender);
          if (country !== null) fromVotes = fromVotes.where('users.country_id', '=', country);
          const counted = await fromVotes.groupBy('votes.choice').execute();
          expect(
            normalized(tallied),
            `${gender ?? 'everyone'}, ${country ?? 'every country'}, ages ${minAge}-${maxAge}`,
          ).toEqual(normalized(counted));
          if (counted.length > 0) nonEmpty += 1;
        }
      }
    }
    expect(nonEmpty).toBeGreaterThan(ageRanges.length * 3);
  });

  it('answers the big question differently by age, so that a breakdown has something to show', async () => {
    const { db } = database;
    const question = communityIds(community).bigQuestion;
    const year = currentYear();
    const sharesBornBetween = async (earliest: number, latest: number) => {
      const rows = await db
        .selectFrom('vote_segments')
        .select(['choice', (eb) => eb.fn.sum<number>('count').as('count')])
        .where('question_id', '=', question)
        .where('birth_year', '>=', earliest)
        .where('birth_year', '<=', latest)
        .groupBy('choice')
        .execute();
      const total = rows.reduce((sum, row) => sum + Number(row.count), 0);
      return new Map(rows.map((row) => [row.choice, Number(row.count) / total]));
    };
    const [under35, over54] = [await sharesBornBetween(year - 34, year), await sharesBornBetween(0, year - 55)];
    const largestGap = Math.max(
      ...[1, 2, 3, 4].map((choice) => Math.abs((under35.get(choice) ?? 0) - (over54.get(choice) ?? 0))),
    );
    expect(largestGap).toBeGreaterThan(0.05);
  });

  it('links the answers of the two pair questions, as relate reads them', async () => {
    const { db } = database;
    const [first, second] = communityIds(community).pairQuestions;
    const table = (await new PairTables(db, new NoiseStore(db), loadConfig({}).pairTableCells).current(first, second))!;
    expect(table.low).toBe(first);
    // Relate's release counts the voters of each question up to its last release point.
    const counted = await db
      .selectFrom('votes as a')
      .innerJoin('votes as b', (join) => join.onRef('b.user_id', '=', 'a.user_id').on('b.question_id', '=', second))
      .select(['a.choice as a', 'b.choice as b', (eb) => eb.fn.countAll<number>().as('count')])
      .where('a.question_id', '=', first)
      .where('a.seq', '<=', latestReach(table.epochs).low)
      .where('b.seq', '<=', latestReach(table.epochs).high)
      .groupBy(['a.choice', 'b.choice'])
      .execute();
    const fromTable = [...table.cells].flatMap(([a, byB]) => [...byB].map(([b, count]) => ({ a, b, count })));
    expect(normalized(fromTable)).toEqual(normalized(counted));
    // Those who exercise often rate their health good far more often than those who never do.
    const goodShare = (exercise: number) =>
      (table.cells.get(exercise)?.get(1) ?? 0) /
      [...(table.cells.get(exercise)?.values() ?? [])].reduce((sum, count) => sum + count, 0);
    expect(goodShare(4) - goodShare(1)).toBeGreaterThan(0.3);
  });

  it('is found again by its parameters, and not by others', async () => {
    expect((await storedCommunity(url, SMALL))?.key).toBe(community.key);
    expect(await storedCommunity(url, { ...SMALL, seed: SMALL.seed + 1 })).toBeNull();
  });
});

describe('the community plan', () => {
  it('is the same for the same seed and differs for another', () => {
    const now = Date.UTC(2026, 0, 15);
    const digest = (seed: number) => {
      const plan = planCommunity({ ...SMALL, seed }, now);
      return JSON.stringify([
        plan.questions,
        [...plan.people.group],
        [...plan.people.birthYear],
        [...plan.people.country],
      ]);
    };
    expect(digest(3)).toBe(digest(3));
    expect(digest(3)).not.toBe(digest(4));
  });

  it('refuses sizes that cannot be, with the reason', () => {
    expect(() => planCommunity({ ...SMALL, votes: 1_200 })).toThrow(/must cover the big question/);
    expect(() => planCommunity({ ...SMALL, votes: 100_000 })).toThrow(/do not fit/);
  });
});

describe('a database that is not the benchmark’s', () => {
  it('is refused, never cleared', async () => {
    const foreign = await scratchDatabase();
    try {
      const other = openDatabase(foreign.url);
      await sql`create table notes (body text)`.execute(other.db);
      await other.close();
      await expect(generateCommunity(foreign.url, SMALL, { log: null })).rejects.toThrow(
        /tables the benchmark did not make/,
      );
      const again = openDatabase(foreign.url);
      const tables = (await again.db.introspection.getTables()).map((table) => table.name);
      await again.close();
      expect(tables).toEqual(['notes']);
    } finally {
      await foreign.drop();
    }
  });
});
