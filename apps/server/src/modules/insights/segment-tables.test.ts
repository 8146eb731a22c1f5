import { accountSchema, accountUpdateBodySchema, api, breakdownFilterBodySchema, breakdownResultSchema } from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, createTestApp, signUp, type TestContext, type TestUser } from '../../test/helper.js';
import { currentYear } from './ages.js';
import { SegmentTables, type SegmentTable } from './segment-tables.js';
import { answerAll, FRANCE, JAPAN, many, signUpAs, US } from './testing.js';

let ctx: TestContext;
let author: TestUser;
beforeAll(async () => {
  ctx = await createTestApp();
  author = await signUp(ctx);
});
afterAll(() => ctx.close());

/** The question as a request reads it. */
const questionRow = (id: number) => ctx.database.db.selectFrom('questions').select(['id', 'vote_count', 'votes_removed']).where('id', '=', id).executeTakeFirstOrThrow();

const newTables = (maxCells = ctx.config.segmentTableCells) => new SegmentTables(ctx.database.db, maxCells);

/** The table a server that never saw the question would build now. */
const builtAfresh = async (id: number) => newTables().current(await questionRow(id));

/** A country's votes of one gender and birth year, per choice. */
const votesIn = (table: SegmentTable, country: number, gender: 'F' | 'M', age: number) =>
  [...(table.countries.get(country)?.segments.values() ?? [])].find((segment) => segment.gender === gender && segment.birthYear === currentYear() - age)?.votes;

describe('a segment table', () => {
  it('kept current across the votes cast after it was built, equals one built afresh', async () => {
    const women30 = await Promise.all(many(6, { gender: 'F', age: 30, country: US }).map((person) => signUpAs(ctx, person)));
    const men40 = await Promise.all(many(4, { gender: 'M', age: 40, country: FRANCE }).map((person) => signUpAs(ctx, person)));
    const women50 = await Promise.all(many(3, { gender: 'F', age: 50, country: JAPAN }).map((person) => signUpAs(ctx, person)));
    const question = await ask(author, { choices: ['A', 'B', 'C'] });
    await answerAll(women30.slice(0, 4), question, [1, 2, 1, 3]);
    const tables = newTables();
    const built = await tables.current(await questionRow(question));
    expect(built.cells).toBe(3);

    // Fewer new votes than cells: the table adds them.
    await answerAll([men40[0], women50[0]], question, [2, 3]);
    const row = await questionRow(question);
    const [caughtUp, alongside] = await Promise.all([tables.current(row), tables.current(row)]);
    expect(caughtUp).toBe(built);
    expect(alongside).toBe(built);
    expect(caughtUp).toEqual(await builtAfresh(question));
    expect(caughtUp.counted).toBe(6);

    // More new votes than cells: the table is built again from the question's segments.
    await answerAll([...women30.slice(4), ...men40.slice(1), ...women50.slice(1)], question, [1, 3, 2]);
    const rebuilt = await tables.current(await questionRow(question));
    expect(rebuilt).toEqual(await builtAfresh(question));
    expect(rebuilt.counted).toBe(13);
    expect(rebuilt.votes).toEqual(
      new Map([
        [1, 5],
        [2, 4],
        [3, 4],
      ]),
    );
    expect(rebuilt.countries.get(FRANCE)?.voters).toBe(4);
  });

  it('counts a member who moves and corrects their birth date after voting where and as they voted', async () => {
    const [stayer, mover] = await Promise.all([signUpAs(ctx, { gender: 'F', age: 30, country: US }), signUpAs(ctx, { gender: 'F', age: 30, country: US })]);
    const question = await ask(author);
    await answerAll([stayer], question, [1]);
    const tables = newTables();
    const built = await tables.current(await questionRow(question));

    await answerAll([mover], question, [2]);
    await mover.api.post(
      api.account,
      accountUpdateBodySchema,
      { firstName: 'Moved', birthDate: '1960-03-01', livingIn: FRANCE, favoriteCategory: null, favoriteTopic: null },
      accountSchema,
    );
    const caughtUp = await tables.current(await questionRow(question));
    expect(caughtUp).toBe(built);
    expect(votesIn(caughtUp, US, 'F', 30)).toEqual(
      new Map([
        [1, 1],
        [2, 1],
      ]),
    );
    expect(caughtUp.countries.has(FRANCE)).toBe(false);
    expect(caughtUp).toEqual(await builtAfresh(question));
  });

  it('weighs its tables by their cells, also as they grow, and drops the least used past its budget', async () => {
    const voters = await Promise.all(many(3, { gender: 'M', age: 25, country: JAPAN }).map((person) => signUpAs(ctx, person)));
    const [growing, other] = [await ask(author, { choices: ['A', 'B', 'C'] }), await ask(author, { choices: ['A', 'B', 'C'] })];
    // The voters are alike, so a table has a cell per choice voted.
    await answerAll(voters.slice(0, 2), growing, [1, 2]);
    await answerAll(voters, other, [1, 2, 3]);
    const tables = newTables(5);
    const growingTable = await tables.current(await questionRow(growing));
    const otherTable = await tables.current(await questionRow(other));
    expect([growingTable.cells, otherTable.cells]).toEqual([2, 3]);
    // 5 cells, within the budget: both kept.
    expect(await tables.current(await questionRow(growing))).toBe(growingTable);
    expect(await tables.current(await questionRow(other))).toBe(otherTable);

    // A third choice adds a cell in place: 6 cells in two tables, past the budget of 5.
    await answerAll(voters.slice(2), growing, [3]);
    const grown = await tables.current(await questionRow(growing));
    expect(grown).toBe(growingTable);
    expect(grown.cells).toBe(3);
    const otherAgain = await tables.current(await questionRow(other));
    expect(otherAgain).not.toBe(otherTable);
    expect(otherAgain).toEqual(otherTable);

    // A table larger than the whole budget is kept while it is the one in use.
    const small = newTables(1);
    const alone = await small.current(await questionRow(other));
    expect(await small.current(await questionRow(other))).toBe(alone);
    await small.current(await questionRow(growing));
    expect(await small.current(await questionRow(other))).not.toBe(alone);
  });

  it('read again once dropped, gives breakdowns that still equal the votes', async () => {
    // Room for one cell: the breakdown of one question drops the table of the other.
    const cramped = await createTestApp({ segmentTableCells: 1 });
    try {
      const asker = await signUp(cramped);
      const women = await Promise.all(many(6, { gender: 'F', age: 30, country: US }).map((person) => signUpAs(cramped, person)));
      const men = await Promise.all(many(6, { gender: 'M', age: 40, country: FRANCE }).map((person) => signUpAs(cramped, person)));
      const [cats, tea] = [await ask(asker, { choices: ['Cats', 'Dogs'] }), await ask(asker, { choices: ['Tea', 'Coffee'] })];
      await answerAll(women.slice(0, 5), cats, [1, 1, 1, 1, 2]);
      await answerAll(men.slice(0, 5), cats, [2]);
      await answerAll([...women, ...men], tea, [1, 2]);
      const womenOnCats = () => women[0].api.post(api.breakdown(cats), breakdownFilterBodySchema, { gender: 'F' }, breakdownResultSchema);
      expect((await womenOnCats()).question.result).toEqual({
        count: 5,
        answers: [
          { key: 1, percent: 80 },
          { key: 2, percent: 20 },
        ],
      });
      await women[0].api.post(api.breakdown(tea), breakdownFilterBodySchema, {}, breakdownResultSchema);

      await answerAll(women.slice(5), cats, [2]);
      await answerAll(men.slice(5), cats, [1]);
      const { question, overall } = await womenOnCats();
      expect(question.result).toEqual({
        count: 6,
        answers: [
          { key: 1, percent: 67 },
          { key: 2, percent: 33 },
        ],
      });
      expect(overall).toEqual({
        count: 12,
        answers: [
          { key: 1, percent: 42 },
          { key: 2, percent: 58 },
        ],
      });
    } finally {
      await cramped.close();
    }
  });
});
