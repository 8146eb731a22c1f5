import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, countingStatements, createTestApp, signUp, type TestContext } from '../test/helper.js';
import { newestOf, QuestionLists, type ListKey, type QuestionList } from './question-lists.js';

const idsOf = (lists: QuestionList[]) => lists.map((list) => list.ids);
const authorList = (id: number): ListKey => ({ by: 'author', id });

describe('newestOf', () => {
  const lists = [
    [1, 4, 9],
    [2, 3, 10, 11],
    [5, 6],
  ];

  it('merges the lists newest first, below the cursor, not below the floor', () => {
    expect(newestOf(lists, null, 5)).toEqual([11, 10, 9, 6, 5]);
    expect(newestOf(lists, 5, 10)).toEqual([4, 3, 2, 1]);
    expect(newestOf(lists, null, 10, 5)).toEqual([11, 10, 9, 6, 5]);
    expect(newestOf([], null, 3)).toEqual([]);
  });
});

describe('QuestionLists', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(() => ctx.close());

  it("reads the authors' lists that concurrent requests miss in one statement", async () => {
    const [first, second, silent] = [await signUp(ctx), await signUp(ctx), await signUp(ctx)];
    const asked = [await ask(first), await ask(second), await ask(first)];
    const { db: counted, statements } = countingStatements(ctx.database.db);
    const lists = new QuestionLists(1_000, 100);
    const [pageOfFirst, pageOfBoth] = await Promise.all([
      lists.page(counted, [authorList(first.id)], null, 10),
      lists.page(counted, [authorList(second.id), authorList(silent.id)], null, 10),
    ]);
    expect(statements()).toBe(1);
    expect(pageOfFirst.ids).toEqual([asked[2], asked[0]]);
    expect(pageOfBoth.ids).toEqual([asked[1]]);
  });

  it('reads lists once and takes each question asked, here or elsewhere, once', async () => {
    const [first, second] = [await signUp(ctx), await signUp(ctx)];
    const asked = [await ask(first), await ask(second), await ask(first)];
    const lists = new QuestionLists(1_000, 100);
    expect(idsOf(await lists.listsOf(ctx.database.db, [authorList(first.id), authorList(second.id)]))).toEqual([
      [asked[0], asked[2]],
      [asked[1]],
    ]);

    const later = await ask(first);
    lists.asked(later, [authorList(first.id)]);
    // Heard twice (a change heard again after Redis came back): still once in the list.
    lists.asked(later, [authorList(first.id)]);
    expect(idsOf(await lists.listsOf(ctx.database.db, [authorList(first.id)]))).toEqual([[asked[0], asked[2], later]]);
  });

  it('keeps no list read while a question was asked in it', async () => {
    const author = await signUp(ctx);
    const before = await ask(author);
    const lists = new QuestionLists(1_000, 100);
    const reading = lists.listsOf(ctx.database.db, [authorList(author.id)]);
    const during = await ask(author);
    lists.asked(during, [authorList(author.id)]);
    expect(idsOf(await reading)).toEqual([[before]]);
    expect(idsOf(await lists.listsOf(ctx.database.db, [authorList(author.id)]))).toEqual([[before, during]]);
  });

  it('keeps the newest of a long list and reads pages past them from the database', async () => {
    const author = await signUp(ctx);
    const other = await signUp(ctx);
    const asked: number[] = [];
    for (let index = 0; index < 7; index += 1) asked.push(await ask(index % 3 === 0 ? other : author));
    const mine = asked.filter((_, index) => index % 3 !== 0).reverse();
    const theirs = asked.filter((_, index) => index % 3 === 0).reverse();
    const lists = new QuestionLists(1_000, 2);
    const [kept] = await lists.listsOf(ctx.database.db, [authorList(author.id)]);
    expect(kept).toMatchObject({ ids: [mine[1], mine[0]], complete: false });

    expect((await lists.page(ctx.database.db, [authorList(author.id)], null, 3)).ids).toEqual(mine.slice(0, 3));
    expect((await lists.page(ctx.database.db, [authorList(author.id)], mine[1], 10)).ids).toEqual(mine.slice(2));
    // A feed merged from a long list and a short one misses none of either past the kept part.
    const merged = [...mine, ...theirs].sort((a, b) => b - a);
    expect((await lists.page(ctx.database.db, [authorList(author.id), authorList(other.id)], null, 10)).ids).toEqual(
      merged,
    );

    const newest = await ask(author);
    lists.asked(newest, [authorList(author.id)]);
    expect((await lists.listsOf(ctx.database.db, [authorList(author.id)]))[0]).toMatchObject({
      ids: [mine[0], newest],
      complete: false,
    });
  });
});
