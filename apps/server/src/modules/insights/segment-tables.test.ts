import { accountSchema, accountUpdateBodySchema, api } from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, createTestApp, signUp, type TestContext, type TestUser } from '../../test/helper.js';
import { exploredOf, type ExploredQuestion } from './access.js';
import { bandOf } from './ages.js';
import { NoiseStore } from './noise-store.js';
import { blockCell, GENDERS } from '../../private-release/breakdown-cells.js';
import { SegmentTables, type SegmentTable } from './segment-tables.js';
import {
  answerAll,
  castVotes,
  createPeople,
  createQuestions,
  FRANCE,
  JAPAN,
  many,
  signUpAs,
  US,
} from '../../../test/insights.js';

let ctx: TestContext;
let author: TestUser;
beforeAll(async () => {
  ctx = await createTestApp();
  author = await signUp(ctx);
});
afterAll(() => ctx.close());

/** The question as a request reads it, from its card. */
async function explored(id: number): Promise<ExploredQuestion> {
  return exploredOf((await ctx.app.memory.cards.read(ctx.database.db, [id])).get(id)!);
}

const newTables = (maxCells = ctx.config.segmentTableCells) =>
  new SegmentTables(ctx.database.db, new NoiseStore(ctx.database.db), maxCells);

/** The table a server that never saw the question would build now. */
const builtAfresh = async (id: number) => newTables().current(await explored(id));

/** What a table counts, without what it reads and counts with. */
const countsOf = ({ epochs, counted, votes, everywhere, countries, birthYears }: SegmentTable) => ({
  epochs,
  counted,
  votes,
  everywhere,
  countries,
  birthYears,
});

/** Votes per cell of one country counted from the votes themselves, among the question's first `counted`. */
async function countedFromVotes(table: SegmentTable, country: number): Promise<Int32Array> {
  const cells = new Int32Array(table.everywhere.length);
  const votes = await ctx.database.db
    .selectFrom('votes')
    .select(['gender', 'birth_year', 'choice'])
    .where('question_id', '=', table.questionId)
    .where('country_id', '=', country)
    .where('seq', '<=', table.counted)
    .execute();
  for (const vote of votes)
    cells[
      blockCell(
        table.buckets.count,
        GENDERS.indexOf(vote.gender),
        bandOf(table.year - vote.birth_year),
        table.buckets.of(vote.choice),
      )
    ] += 1;
  return cells;
}

describe('a segment table', () => {
  it('counts the question’s votes up to its last release point, and moves on only past the next', async () => {
    // Women of the US and men of France in turn, so that both countries have voters among the first 32.
    const people = await createPeople(
      ctx,
      Array.from({ length: 70 }, (_, index) =>
        index % 2 === 0
          ? { gender: 'F' as const, age: 30, country: US }
          : { gender: 'M' as const, age: 60, country: FRANCE },
      ),
    );
    const question = await ask(author, { choices: ['A', 'B', 'C'] });
    // 33 votes: the release points are 32, 64, 128…
    await castVotes(
      ctx,
      people.slice(0, 33).map((voter, index) => ({ questionId: question, voter, choice: (index % 3) + 1 })),
    );
    const tables = newTables();
    const first = await tables.current(await explored(question));
    expect([first.epochs.length, first.counted]).toEqual([1, 32]);
    expect(first.votes).toEqual(
      new Map([
        [1, 11],
        [2, 11],
        [3, 10],
      ]),
    );
    for (const country of [US, FRANCE])
      expect(first.countries.get(country)).toEqual(await countedFromVotes(first, country));

    // Up to the 47th vote the table stays.
    await castVotes(
      ctx,
      people.slice(33, 47).map((voter) => ({ questionId: question, voter, choice: 2 })),
    );
    expect(await tables.current(await explored(question))).toBe(first);
    // The 48th vote reaches the next release point: a new table, the old one left as it was.
    await castVotes(ctx, [{ questionId: question, voter: people[47], choice: 2 }]);
    const next = await tables.current(await explored(question));
    expect(next).not.toBe(first);
    expect([next.epochs.length, next.counted]).toEqual([2, 48]);
    expect(first.votes.get(2)).toBe(11);
    for (const country of [US, FRANCE])
      expect(next.countries.get(country)).toEqual(await countedFromVotes(next, country));
    expect(countsOf(next)).toEqual(countsOf(await builtAfresh(question)));

    // The 49th does not: the table stays.
    await castVotes(ctx, [{ questionId: question, voter: people[48], choice: 2 }]);
    expect(await tables.current(await explored(question))).toBe(next);
  });

  it('counts a member who moves and corrects their birth date after voting where and as they voted', async () => {
    const [stayer, mover] = await Promise.all([
      signUpAs(ctx, { gender: 'F', age: 30, country: US }),
      signUpAs(ctx, { gender: 'F', age: 30, country: US }),
    ]);
    const question = await ask(author);
    // 30 men of Japan vote, then the two women: the 32nd vote is the first release point, so the table counts all of
    // them.
    const others = await createPeople(ctx, many(30, { gender: 'M', age: 50, country: JAPAN }));
    await castVotes(
      ctx,
      others.map((voter) => ({ questionId: question, voter, choice: 1 })),
    );
    await answerAll([stayer, mover], question, [1, 2]);
    await mover.api.post(
      api.account,
      accountUpdateBodySchema,
      { firstName: 'Moved', birthDate: '1960-03-01', livingIn: FRANCE, favoriteCategory: null, favoriteTopic: null },
      accountSchema,
    );
    const table = await builtAfresh(question);
    expect(table.counted).toBe(32);
    const women30 = (bucket: number) => blockCell(table.buckets.count, GENDERS.indexOf('F'), bandOf(30), bucket);
    expect([table.countries.get(US)![women30(0)], table.countries.get(US)![women30(1)]]).toEqual([1, 1]);
    expect(table.countries.has(FRANCE)).toBe(false);
  });

  it('counts ages reached in the year the question was asked', async () => {
    // One man of Japan among 32 voters, enough for the first release point.
    const [voter, ...others] = await createPeople(ctx, [
      { gender: 'M', age: 26, country: JAPAN },
      ...many(31, { gender: 'F', age: 40, country: US }),
    ]);
    // Asked six years ago: the voter was 20 then, in the band of 18 to 24.
    const asked = new Date();
    asked.setUTCFullYear(asked.getUTCFullYear() - 6);
    const [question] = await createQuestions(ctx, author, ['Asked long ago?'], ['Yes', 'No'], asked);
    await castVotes(
      ctx,
      [voter, ...others].map((person) => ({ questionId: question, voter: person, choice: 1 })),
    );
    const table = await builtAfresh(question);
    expect(table.year).toBe(asked.getUTCFullYear());
    expect(table.counted).toBe(32);
    expect(table.countries.get(JAPAN)![blockCell(table.buckets.count, GENDERS.indexOf('M'), bandOf(20), 0)]).toBe(1);
  });

  it('weighs its tables by their cells and noise, and drops the least used past its budget', async () => {
    // 32 voters, the first release point: the tables count them, in every country's block and Japan's.
    const voters = await createPeople(ctx, many(32, { gender: 'M', age: 25, country: JAPAN }));
    const [one, other] = [await ask(author), await ask(author)];
    await castVotes(ctx, [
      ...voters.map((voter) => ({ questionId: one, voter, choice: 1 })),
      ...voters.map((voter) => ({ questionId: other, voter, choice: 2 })),
    ]);
    // A yes-or-no question's block is 2 genders × 7 bands × 2 answers = 28 cells; each table has every country's and
    // Japan's.
    const tables = newTables(4 * 28);
    const oneTable = await tables.current(await explored(one));
    const otherTable = await tables.current(await explored(other));
    expect(await tables.current(await explored(one))).toBe(oneTable);
    // Reading the release's noise (two blocks of 64-bit numbers) triples the table's weight: 8 blocks, past the budget
    // of 4.
    await tables.drawAndKeepNoise(otherTable);
    expect(await tables.current(await explored(other))).toBe(otherTable);
    const oneAgain = await tables.current(await explored(one));
    expect(oneAgain).not.toBe(oneTable);
    expect(countsOf(oneAgain)).toEqual(countsOf(oneTable));
  });
});
