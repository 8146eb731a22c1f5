import { RELATE_PAIRS_PER_QUESTION } from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../db/index.js';
import { createTestApp, signUp, type TestContext, type TestUser } from '../../test/helper.js';
import type { Voter } from '../../views/viewer-states.js';
import { NoiseStore } from './noise-store.js';
import { PairTables, type PairTable } from './pair-tables.js';
import { castVotes, createPeople, createQuestions, many, US } from '../../../test/insights.js';

let ctx: TestContext;
/** A second connection to the same database, as another server instance has. */
let other: DatabaseHandle;
let author: TestUser;
let people: Voter[];
beforeAll(async () => {
  ctx = await createTestApp();
  other = openDatabase(ctx.config.databaseUrl);
  author = await signUp(ctx);
  people = await createPeople(ctx, many(70, { gender: 'F', age: 30, country: US }));
});
afterAll(async () => {
  await other.close();
  await ctx.close();
});

const newTables = (maxCells = 100_000, db = ctx.database.db) => new PairTables(db, new NoiseStore(db), maxCells);

let asked = 0;
/** Yes-or-no questions, each answered by the voters with the choices given for them (by index, cycling). */
async function questionsAnswered(voters: Voter[], ...choices: number[][]): Promise<number[]> {
  const ids = await createQuestions(
    ctx,
    author,
    choices.map(() => `Paired ${(asked += 1)}?`),
    ['Yes', 'No'],
  );
  await castVotes(
    ctx,
    ids.flatMap((questionId, index) =>
      voters.map((voter, at) => ({ questionId, voter, choice: choices[index][at % choices[index].length] })),
    ),
  );
  return ids;
}

/** The table's epochs as lists of [epoch, votes of the lower question counted, votes of the other counted]. */
const reaches = (table: PairTable | null) =>
  table!.epochs.map((epoch) => [epoch.epoch, epoch.lowCounted, epoch.highCounted]);

/** The table's counts as lists of [low answer, high answer, voters]. */
const cellsOf = (table: PairTable | null) =>
  [...table!.cells].flatMap(([low, byHigh]) => [...byHigh].map(([high, count]) => [low, high, count])).sort();

describe('pair tables', () => {
  it('count the people among each question’s first votes up to its last release point, and move on once they double', async () => {
    const [first, second] = await questionsAnswered(people.slice(0, 33), [1, 1, 2], [1, 2]);
    const tables = newTables();
    const table = await tables.current(first, second);
    // Opened (epoch 0 counts nobody), then released at once: 33 votes each, counted up to each
    // question's last release point (every vote up to 32, then every second one), 32: 32 people
    // answered both among them, enough for a first epoch. The 33rd voter is not counted yet.
    expect(reaches(table)).toEqual([
      [0, 0, 0],
      [1, 32, 32],
    ]);
    expect(cellsOf(table)).toEqual([
      [1, 1, 11],
      [1, 2, 11],
      [2, 1, 5],
      [2, 2, 5],
    ]);
    expect(await tables.current(second, first)).toBe(table);

    // 30 more people answer both (63 votes each): each question's release point is 62, with 62
    // people who answered both, fewer than twice the 32 counted. Nothing more is released: the
    // table counts the same people.
    await castVotes(
      ctx,
      people.slice(33, 63).flatMap((voter) => [
        { questionId: first, voter, choice: 2 },
        { questionId: second, voter, choice: 2 },
      ]),
    );
    const waiting = await tables.current(first, second);
    expect(reaches(waiting)).toEqual(reaches(table));
    expect(cellsOf(waiting)).toEqual(cellsOf(table));

    // The 64th person answers both, and a 65th the first only: both release points are 64, and
    // the 64 people among each question's first 64 votes make the second epoch. The 65th vote,
    // past the first question's release point, is not counted yet.
    await castVotes(ctx, [
      { questionId: first, voter: people[63], choice: 2 },
      { questionId: second, voter: people[63], choice: 1 },
      { questionId: first, voter: people[64], choice: 1 },
    ]);
    const moved = await tables.current(first, second);
    expect(reaches(moved)).toEqual([
      [0, 0, 0],
      [1, 32, 32],
      [2, 64, 64],
    ]);
    expect(cellsOf(moved)).toEqual([
      [1, 1, 11],
      [1, 2, 11],
      [2, 1, 7],
      [2, 2, 35],
    ]);

    // Another instance reads the epochs written, and counts the same.
    const elsewhere = await newTables(100_000, other.db).current(first, second);
    expect(reaches(elsewhere)).toEqual(reaches(moved));
    expect(cellsOf(elsewhere)).toEqual(cellsOf(moved));
  });

  it(`open a question in at most ${RELATE_PAIRS_PER_QUESTION} pairs, and keep the pairs open`, async () => {
    const [hub, ...others] = await questionsAnswered(
      people.slice(0, 6),
      ...Array.from({ length: RELATE_PAIRS_PER_QUESTION + 3 }, () => [1, 2]),
    );
    const tables = newTables();
    for (const question of others.slice(0, RELATE_PAIRS_PER_QUESTION))
      expect(await tables.current(hub, question), `pair with ${question}`).not.toBeNull();
    for (const question of others.slice(RELATE_PAIRS_PER_QUESTION)) {
      expect(await tables.current(hub, question)).toBeNull();
      // Nor does another instance open it.
      expect(await newTables(100_000, other.db).current(question, hub)).toBeNull();
    }
    // The pairs opened stay open, and the questions left out can still be related with each other.
    expect(await newTables().current(hub, others[0])).not.toBeNull();
    expect(
      await tables.current(others[RELATE_PAIRS_PER_QUESTION], others[RELATE_PAIRS_PER_QUESTION + 1]),
    ).not.toBeNull();
    const budgets = await ctx.database.db
      .selectFrom('relate_budgets')
      .select('pairs')
      .where('question_id', '=', hub)
      .executeTakeFirstOrThrow();
    // Each pair spends 2 of a question's 16 units of 1/128.
    expect(budgets.pairs).toBe(2 * RELATE_PAIRS_PER_QUESTION);
  });

  it('spend one pair of the budget when instances open the same pair at once', async () => {
    const [one, two] = await questionsAnswered(people.slice(0, 6), [1, 2], [2, 1]);
    // A SQLite file belongs to one server process: there, two caches share its one connection.
    const elsewhere = ctx.database.dialect === 'postgres' ? other.db : ctx.database.db;
    const [here, there] = await Promise.all([
      newTables().current(one, two),
      newTables(100_000, elsewhere).current(two, one),
    ]);
    expect(there!.epochs).toEqual(here!.epochs);
    const budgets = await ctx.database.db
      .selectFrom('relate_budgets')
      .select('pairs')
      .where('question_id', 'in', [one, two])
      .execute();
    expect(budgets.map((row) => row.pairs)).toEqual([2, 2]);
  });

  it('weigh their tables by their cells and drop the least used past their budget', async () => {
    // 32 people, as many as a pair's first epoch needs. The first two questions split every way
    // (4 cells); the third, answered alike, adds 2 cells to each.
    const [first, second, third] = await questionsAnswered(people.slice(0, 32), [1, 1, 2, 2], [1, 2], [1]);
    const tables = newTables(6);
    const firstWithSecond = await tables.current(first, second);
    const firstWithThird = await tables.current(first, third);
    // 6 cells, within the budget: both kept.
    expect(await tables.current(second, first)).toBe(firstWithSecond);
    expect(await tables.current(first, third)).toBe(firstWithThird);

    // A third table of 2 cells is past the budget: of the two used since the last sweep, the older goes.
    await tables.current(second, third);
    expect(await tables.current(first, third)).toBe(firstWithThird);
    const again = await tables.current(first, second);
    expect(again).not.toBe(firstWithSecond);
    expect(cellsOf(again)).toEqual(cellsOf(firstWithSecond));
  });
});
