import { accountSchema, accountUpdateBodySchema, api } from '@pollscope/contract';
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
const questionRow = (id: number) => ctx.database.db.selectFrom('questions').select(['id', 'vote_count']).where('id', '=', id).executeTakeFirstOrThrow();

/** The table a server that never saw the question would build now. */
const builtAfresh = async (id: number) => new SegmentTables(ctx.database.db).current(await questionRow(id));

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
    const tables = new SegmentTables(ctx.database.db);
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
    const tables = new SegmentTables(ctx.database.db);
    const built = await tables.current(await questionRow(question));

    await answerAll([mover], question, [2]);
    await mover.api.post(api.account, accountUpdateBodySchema, { firstName: 'Moved', birthDate: '1960-03-01', livingIn: FRANCE, favoriteCategory: null, favoriteTopic: null }, accountSchema);
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

  it('drops the least recently used tables past its capacity in cells', async () => {
    const voters = await Promise.all(many(2, { gender: 'M', age: 25, country: JAPAN }).map((person) => signUpAs(ctx, person)));
    const questions: number[] = [];
    for (let index = 0; index < 3; index += 1) {
      questions.push(await ask(author));
      await answerAll(voters, questions[index], [1, 2]);
    }
    const [first, second, third] = await Promise.all(questions.map(questionRow));
    // Room for two tables of two cells each.
    const tables = new SegmentTables(ctx.database.db, 4);
    const firstTable = await tables.current(first);
    const secondTable = await tables.current(second);
    expect(firstTable.cells + secondTable.cells).toBe(4);
    expect(await tables.current(first)).toBe(firstTable);

    await tables.current(third);
    expect(await tables.current(first)).toBe(firstTable);
    const secondAgain = await tables.current(second);
    expect(secondAgain).not.toBe(secondTable);
    expect(secondAgain).toEqual(secondTable);

    // A table larger than the whole capacity is kept while it is the one in use.
    const small = new SegmentTables(ctx.database.db, 1);
    const alone = await small.current(first);
    expect(await small.current(first)).toBe(alone);
    await small.current(second);
    expect(await small.current(first)).not.toBe(alone);
  });
});
