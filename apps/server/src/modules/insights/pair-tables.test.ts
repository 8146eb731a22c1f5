import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, createTestApp, signUp, type TestContext, type TestUser } from '../../test/helper.js';
import { PairTables } from './pair-tables.js';
import { answerAll } from './testing.js';

let ctx: TestContext;
let author: TestUser;
beforeAll(async () => {
  ctx = await createTestApp();
  author = await signUp(ctx);
});
afterAll(() => ctx.close());

const newTables = (maxCells: number) => new PairTables(ctx.database.db, maxCells);

/** Yes-or-no questions, each answered by the voters with the choices given for them (by index, cycling). */
async function questionsAnswered(voters: TestUser[], ...choices: number[][]): Promise<number[]> {
  const ids: number[] = [];
  for (const answers of choices) {
    const id = await ask(author);
    await answerAll(voters, id, answers);
    ids.push(id);
  }
  return ids;
}

describe('pair tables', () => {
  it('weigh their tables by their cells and drop the least used past their budget', async () => {
    const voters = await Promise.all(Array.from({ length: 4 }, () => signUp(ctx)));
    // The first two split every way (4 cells); the third, answered alike, adds 2 cells to each.
    const [first, second, third] = await questionsAnswered(voters, [1, 1, 2, 2], [1, 2], [1]);
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
    expect(again).toEqual(firstWithSecond);
  });

  it('read again once dropped, count the votes cast since', async () => {
    const voters = await Promise.all(Array.from({ length: 4 }, () => signUp(ctx)));
    const [first, second, third] = await questionsAnswered(voters.slice(0, 3), [1, 1, 2], [1, 2], [1]);
    const tables = newTables(1);
    await tables.current(first, second);
    await tables.current(first, third);
    await answerAll(voters.slice(3), first, [1]);
    await answerAll(voters.slice(3), second, [2]);
    const table = await tables.current(first, second);
    expect([table.lowSeq, table.highSeq]).toEqual([4, 4]);
    expect(table.cells).toEqual(
      new Map([
        [
          1,
          new Map([
            [1, 1],
            [2, 2],
          ]),
        ],
        [2, new Map([[1, 1]])],
      ]),
    );
  });
});
