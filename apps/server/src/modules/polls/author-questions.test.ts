import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, createTestApp, signUp, type TestContext } from '../../test/helper.js';
import { AuthorQuestions, newestOf, type AuthorList } from './author-questions.js';

const idsOf = (lists: AuthorList[]) => lists.map((list) => list.ids);

describe('newestOf', () => {
  const lists = [
    [1, 4, 9],
    [2, 3, 10, 11],
    [5, 6],
  ];

  it('merges the lists newest first, after the cursor, without what it skips', () => {
    expect(newestOf(lists, null, 5, () => false)).toEqual([11, 10, 9, 6, 5]);
    expect(newestOf(lists, 5, 10, () => false)).toEqual([4, 3, 2, 1]);
    expect(newestOf(lists, null, 4, (id) => id % 2 === 0)).toEqual([11, 9, 5, 3]);
    expect(newestOf([], null, 3, () => false)).toEqual([]);
  });
});

describe('AuthorQuestions', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(() => ctx.close());

  it('reads lists once, takes questions asked here, and reads again a list changed elsewhere', async () => {
    const [first, second] = [await signUp(ctx), await signUp(ctx)];
    const asked = [await ask(first), await ask(second), await ask(first)];
    const lists = new AuthorQuestions(1_000);
    expect(idsOf(await lists.listsOf(ctx.database.db, [first.id, second.id]))).toEqual([[asked[0], asked[2]], [asked[1]]]);

    const here = await ask(first);
    lists.asked(first.id, here);
    const elsewhere = await ask(second);
    expect(idsOf(await lists.listsOf(ctx.database.db, [first.id, second.id]))).toEqual([[asked[0], asked[2], here], [asked[1]]]);
    lists.staled(second.id);
    expect(idsOf(await lists.listsOf(ctx.database.db, [second.id]))).toEqual([[asked[1], elsewhere]]);
  });

  it('keeps no list read while a change to it was heard', async () => {
    const author = await signUp(ctx);
    const before = await ask(author);
    const lists = new AuthorQuestions(1_000);
    const reading = lists.listsOf(ctx.database.db, [author.id]);
    const during = await ask(author);
    lists.staled(author.id);
    expect(idsOf(await reading)).toEqual([[before]]);
    expect(idsOf(await lists.listsOf(ctx.database.db, [author.id]))).toEqual([[before, during]]);
  });
});
