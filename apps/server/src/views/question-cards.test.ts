import {
  accountSchema,
  accountUpdateBodySchema,
  answerBodySchema,
  api,
  likedSchema,
  questionSchema,
} from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, countingStatements, createTestApp, signUp, type TestContext, type TestUser } from '../test/helper.js';
import { isCurrent, QuestionCards } from './question-cards.js';

let ctx: TestContext;
let author: TestUser;
beforeAll(async () => {
  ctx = await createTestApp();
  author = await signUp(ctx);
});
afterAll(() => ctx.close());

const votesOf = async (cards: QuestionCards, id: number) => {
  const read = (await cards.read(ctx.database.db, [id])).get(id)!;
  return {
    count: read.moving.voteCount,
    byChoice: Object.fromEntries(read.moving.votesByChoice),
    likes: read.moving.likeCount,
  };
};

/** Answers through the API, as another instance would: the cards here hear nothing of it. */
async function answerElsewhere(question: number, choice: number): Promise<number> {
  const voter = await signUp(ctx);
  await voter.api.post(api.answer(question), answerBodySchema, { choice }, questionSchema);
  const { seq } = await ctx.database.db
    .selectFrom('votes')
    .select('seq')
    .where('question_id', '=', question)
    .where('user_id', '=', voter.id)
    .executeTakeFirstOrThrow();
  return seq;
}

describe('question cards', () => {
  it('count a vote committed here in place, and read one they missed again', async () => {
    const question = await ask(author, { choices: ['A', 'B'] });
    const cards = new QuestionCards(100);
    expect(await votesOf(cards, question)).toEqual({ count: 0, byChoice: {}, likes: 0 });

    const first = await answerElsewhere(question, 1);
    cards.voteCounted(question, 1, first);
    expect(await votesOf(cards, question)).toEqual({ count: 1, byChoice: { 1: 1 }, likes: 0 });

    // The second vote was never told to these cards: the third cannot be counted in place.
    await answerElsewhere(question, 2);
    const third = await answerElsewhere(question, 2);
    cards.voteCounted(question, 2, third);
    expect(await votesOf(cards, question)).toEqual({ count: 3, byChoice: { 1: 1, 2: 2 }, likes: 0 });
  });

  it('read a card again when a viewer needs more votes counted than it holds', async () => {
    const question = await ask(author);
    const cards = new QuestionCards(100);
    await votesOf(cards, question);
    const seq = await answerElsewhere(question, 2);
    expect((await cards.read(ctx.database.db, [question])).get(question)!.moving.voteCount).toBe(0);
    expect(
      (await cards.read(ctx.database.db, [question], new Map([[question, seq]]))).get(question)!.moving.voteCount,
    ).toBe(1);
  });

  it('keep a read that started before a change from replacing what the change left', async () => {
    const question = await ask(author);
    const cards = new QuestionCards(100);
    await votesOf(cards, question);
    cards.staled(question);
    const reading = cards.read(ctx.database.db, [question]);
    // Heard while the read is under way: the read may predate it.
    await answerElsewhere(question, 1);
    cards.staled(question);
    expect((await reading).get(question)!.moving.voteCount).toBe(0);
    expect(await votesOf(cards, question)).toMatchObject({ count: 1 });
  });

  it('follow likes made here, and names changed by authors', async () => {
    const question = await ask(author);
    const cards = new QuestionCards(100);
    await votesOf(cards, question);
    const fan = await signUp(ctx);
    await fan.api.post(api.like(question), likedSchema);
    cards.likesChanged(question, 1);
    expect(await votesOf(cards, question)).toMatchObject({ likes: 1 });

    const account = await author.api.get(api.account, accountSchema);
    await author.api.post(
      api.account,
      accountUpdateBodySchema,
      {
        firstName: 'Renamed',
        birthDate: account.birthdate,
        livingIn: account.country,
        favoriteCategory: null,
        favoriteTopic: null,
      },
      accountSchema,
    );
    cards.authorRenamed(author.id);
    expect((await cards.read(ctx.database.db, [question])).get(question)!.moving.authorName).toBe('Renamed');
  });

  it('tell a read still current until its card changes or stops being kept', async () => {
    const [first, second] = [await ask(author), await ask(author)];
    const cards = new QuestionCards(1);
    const read = (await cards.read(ctx.database.db, [first])).get(first)!;
    expect(isCurrent(read)).toBe(true);
    cards.likesChanged(first, 1);
    expect(isCurrent(read)).toBe(false);
    const again = (await cards.read(ctx.database.db, [first])).get(first)!;
    expect(isCurrent(again)).toBe(true);
    // Room for one card: reading another drops this one, which then hears of no vote or like.
    await cards.read(ctx.database.db, [second]);
    expect(isCurrent(again)).toBe(false);
  });

  it('give every reader of an unchanged card the same read, and a new one once it changed', async () => {
    const question = await ask(author);
    const cards = new QuestionCards(100);
    const readNow = async () => (await cards.read(ctx.database.db, [question])).get(question)!;
    const first = await readNow();
    expect(await readNow()).toBe(first);
    cards.likesChanged(question, 1);
    const afterLike = await readNow();
    expect(afterLike).not.toBe(first);
    expect(afterLike.moving.likeCount).toBe(1);
    expect(await readNow()).toBe(afterLike);
  });

  it('count a vote in place after another was removed with its voter, by the seq that goes on past it', async () => {
    const question = await ask(author, { choices: ['A', 'B'] });
    const leaver = await signUp(ctx);
    await leaver.api.post(api.answer(question), answerBodySchema, { choice: 1 }, questionSchema);
    await answerElsewhere(question, 2);
    const cards = new QuestionCards(100);
    expect(await votesOf(cards, question)).toMatchObject({ count: 2 });
    expect((await leaver.api.raw('POST', api.deleteAccount, { password: 'correct horse' })).status).toBe(204);
    cards.staled(question);
    expect(await votesOf(cards, question)).toEqual({ count: 1, byChoice: { 2: 1 }, likes: 0 });
    const next = await answerElsewhere(question, 1);
    expect(next).toBe(3);
    cards.voteCounted(question, 1, next);
    expect(await votesOf(cards, question)).toEqual({ count: 2, byChoice: { 1: 1, 2: 1 }, likes: 0 });
  });

  it('forget a deleted question, even one that a read under way found before it went', async () => {
    const leaver = await signUp(ctx);
    const question = await ask(leaver);
    const cards = new QuestionCards(100);
    // Heard while the read is under way: what it finds may predate the deletion.
    const reading = cards.read(ctx.database.db, [question]);
    cards.forget([question]);
    expect((await leaver.api.raw('POST', api.deleteAccount, { password: 'correct horse' })).status).toBe(204);
    expect((await reading).size).toBe(0);
    // Nor was it kept: the next read asks the database, which has it no more.
    expect((await cards.read(ctx.database.db, [question])).size).toBe(0);
  });

  it('read the cards that concurrent requests miss in one statement, with its tag and votes per choice', async () => {
    const tagged = await ask(author, { choices: ['A', 'B', 'C'], tags: ['weather'] });
    const other = await ask(author);
    await answerElsewhere(tagged, 3);
    await answerElsewhere(tagged, 3);
    await answerElsewhere(tagged, 1);
    const { db: counted, statements } = countingStatements(ctx.database.db);
    const cards = new QuestionCards(100);
    const [first, second] = await Promise.all([cards.read(counted, [tagged]), cards.read(counted, [other, 987_654])]);
    expect(statements()).toBe(1);
    const { card, moving } = first.get(tagged)!;
    expect(card.fixed.tags).toEqual([{ name: 'weather' }]);
    expect(Object.fromEntries(moving.votesByChoice)).toEqual({ 1: 1, 3: 2 });
    expect([...second.keys()]).toEqual([other]);
    expect(second.get(other)!.card.fixed.tags).toEqual([]);
  });

  it('leave out questions that do not exist', async () => {
    const cards = new QuestionCards(100);
    expect((await cards.read(ctx.database.db, [987_654])).size).toBe(0);
  });
});
