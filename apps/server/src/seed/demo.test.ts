import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findTallyMismatches } from '../db/check.js';
import { openDatabase, type DatabaseHandle } from '../db/index.js';
import { authenticate, hashPassword } from '../modules/auth/index.js';
import { createTestDatabase, type TestDatabase } from '../test/helper.js';
import { DEMO_LOGIN, seedDemoCommunity } from './demo.js';

const SPORTS = 'Do you follow a sports team?';
const HOLIDAY = 'Which do you prefer for a holiday?';

let testDatabase: TestDatabase;
let database: DatabaseHandle;
let seeded: Awaited<ReturnType<typeof seedDemoCommunity>>;

beforeAll(async () => {
  testDatabase = await createTestDatabase();
  database = openDatabase(testDatabase.url);
  seeded = await seedDemoCommunity(database.db, 1024);
});

afterAll(async () => {
  await database.close();
  await testDatabase.drop();
});

async function questionsByVotes() {
  const rows = await database.db
    .selectFrom('questions')
    .select(['id', 'title', 'type', 'vote_count'])
    .orderBy('vote_count', 'desc')
    .execute();
  return rows.map((row) => ({ ...row, vote_count: Number(row.vote_count) }));
}

async function demoId(): Promise<number> {
  const { id } = await database.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', DEMO_LOGIN.email)
    .executeTakeFirstOrThrow();
  return id;
}

/** The share of each group's votes on `title` that chose `choice`, from the breakdown tallies. */
async function shareByGroup(
  title: string,
  choice: number,
  groupOf: (row: { gender: string; birth_year: number }) => string,
): Promise<Map<string, number>> {
  const rows = await database.db
    .selectFrom('vote_segments')
    .innerJoin('questions', 'questions.id', 'vote_segments.question_id')
    .select(['vote_segments.gender', 'vote_segments.birth_year', 'vote_segments.choice', 'vote_segments.count'])
    .where('questions.title', '=', title)
    .execute();
  const totals = new Map<string, { chose: number; all: number }>();
  for (const row of rows) {
    const group = groupOf(row);
    const total = totals.get(group) ?? { chose: 0, all: 0 };
    total.all += Number(row.count);
    if (Number(row.choice) === choice) total.chose += Number(row.count);
    totals.set(group, total);
  }
  return new Map([...totals].map(([group, { chose, all }]) => [group, chose / all]));
}

describe('the demo community', () => {
  it('is seeded once, on a database with no people yet', async () => {
    expect(seeded).toEqual(DEMO_LOGIN);
    expect(await seedDemoCommunity(database.db, 1024)).toBeNull();
  });

  it('signs the demo account in, and no seeded voter with any password', async () => {
    const dummyHash = await hashPassword('not a real password', 1024);
    expect(await authenticate(database.db, DEMO_LOGIN.email, DEMO_LOGIN.password, dummyHash)).toBe(await demoId());
    for (const password of ['', '!', DEMO_LOGIN.password]) {
      expect(await authenticate(database.db, 'voter1@pollscope.app', password, dummyHash)).toBeNull();
    }
  });

  it('has two thousand voters of both genders and every age band', async () => {
    const voters = await database.db
      .selectFrom('users')
      .select(['gender', 'birth_year'])
      .where('first_name', 'like', 'Voter %')
      .execute();
    expect(voters).toHaveLength(2_000);
    const women = voters.filter((voter) => voter.gender === 'F').length;
    expect(women).toBeGreaterThan(800);
    expect(women).toBeLessThan(1_200);
    const year = new Date().getUTCFullYear();
    for (const [min, max] of [
      [18, 24],
      [25, 34],
      [35, 44],
      [45, 54],
      [55, 64],
      [65, 200],
    ]) {
      expect(
        voters.filter(({ birth_year }) => year - birth_year >= min && year - birth_year <= max).length,
        `ages ${min}-${max}`,
      ).toBeGreaterThan(150);
    }
  });

  it('has a most answered question of 1,500 to 1,800 votes that the demo account answered, and big ones it has not', async () => {
    const questions = await questionsByVotes();
    const [most] = questions;
    expect(most.title).toBe(SPORTS);
    expect(most.vote_count).toBeGreaterThanOrEqual(1_500);
    expect(most.vote_count).toBeLessThanOrEqual(1_800);
    const answered = new Set(
      (
        await database.db
          .selectFrom('votes')
          .select('question_id')
          .where('user_id', '=', await demoId())
          .execute()
      ).map((row) => row.question_id),
    );
    const big = questions.filter((question) => question.vote_count >= 1_000);
    expect(answered.has(most.id)).toBe(true);
    // Relate opens at once between the most answered question and another multiple-choice one the demo account
    // answered.
    expect(
      big.filter((question) => question.id !== most.id && question.type === 'MC' && answered.has(question.id)).length,
    ).toBeGreaterThanOrEqual(1);
    expect(big.filter((question) => !answered.has(question.id)).length).toBeGreaterThanOrEqual(2);
    expect(questions.some((question) => question.vote_count > 0 && question.vote_count < 100)).toBe(true);
  });

  it('shows men following a sports team clearly more often than women', async () => {
    const yes = await shareByGroup(SPORTS, 1, (row) => row.gender);
    expect(yes.get('M')! - yes.get('F')!).toBeGreaterThan(0.2);
  });

  it('shows the young preferring the city or the beach for a holiday, the old not', async () => {
    const year = new Date().getUTCFullYear();
    const band = ({ birth_year }: { birth_year: number }) =>
      year - birth_year <= 34 ? 'young' : year - birth_year >= 55 ? 'old' : 'middle';
    const beach = await shareByGroup(HOLIDAY, 1, band);
    const city = await shareByGroup(HOLIDAY, 3, band);
    expect(beach.get('young')! + city.get('young')! - (beach.get('old')! + city.get('old')!)).toBeGreaterThan(0.2);
  });

  it('links the sports question to the holiday one, for relate to find', async () => {
    const rows = await database.db
      .selectFrom('votes as sports')
      .innerJoin('questions as q', 'q.id', 'sports.question_id')
      .innerJoin('votes as holiday', 'holiday.user_id', 'sports.user_id')
      .innerJoin('questions as h', 'h.id', 'holiday.question_id')
      .select(['sports.choice as sports', 'holiday.choice as holiday'])
      .where('q.title', '=', SPORTS)
      .where('h.title', '=', HOLIDAY)
      .execute();
    // Beach (1) or Mountains (2), among those who follow a team (1) and those who do not (2).
    const outdoors = (follows: number) => {
      const group = rows.filter((row) => Number(row.sports) === follows);
      return group.filter((row) => Number(row.holiday) <= 2).length / group.length;
    };
    expect(rows.length).toBeGreaterThan(500);
    expect(outdoors(1) - outdoors(2)).toBeGreaterThan(0.15);
  });

  it('keeps every tally right', async () => {
    expect(await findTallyMismatches(database.db)).toEqual([]);
  });
});
