import {
  accountSchema,
  accountUpdateBodySchema,
  answerBodySchema,
  api,
  blockedSchema,
  connectedSchema,
  type Feed,
  feedSchema,
  likedSchema,
  passedSchema,
  questionSchema,
} from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { ask, createTestApp, signUp, type TestContext, type TestUser } from '../test/helper.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

async function feedOf(user: TestUser, url: string = api.feed): Promise<{ feed: Feed; text: string }> {
  const response = await ctx.app.inject({ method: 'GET', url, headers: { authorization: `Token ${user.token}` } });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  return { feed: feedSchema.parse(response.json()), text: response.body };
}

/** A reader following an author of two questions, the older answered by the reader. */
async function readerOfAuthor() {
  const reader = await signUp(ctx);
  const author = await signUp(ctx, { firstName: 'Ada' });
  await reader.api.post(api.follow(author.id), connectedSchema);
  const older = await ask(author, { question: 'Tea or coffee?', choices: ['Tea', 'Coffee'] });
  const newer = await ask(author, { question: 'Sea or mountains?', choices: ['Sea', 'Mountains'] });
  await reader.api.post(api.answer(older), answerBodySchema, { choice: 1 }, questionSchema);
  const first = await feedOf(reader);
  expect(first.feed.questions.map((question) => question.id)).toEqual([newer, older]);
  // Read again with nothing changed, the page is the same to the byte.
  expect((await feedOf(reader)).text).toBe(first.text);
  return { reader, author, older, newer };
}

const questionIn = (feed: Feed, id: number) => feed.questions.find((question) => question.id === id);

describe('a feed read again', () => {
  it('counts a vote someone else cast since', async () => {
    const { reader, older } = await readerOfAuthor();
    const voter = await signUp(ctx);
    await voter.api.post(api.answer(older), answerBodySchema, { choice: 2 }, questionSchema);
    expect(questionIn((await feedOf(reader)).feed, older)?.result).toMatchObject({
      count: 2,
      answers: [
        { key: 1, percent: 50 },
        { key: 2, percent: 50 },
      ],
    });
  });

  it('shows the reader’s own answer and the result it opens', async () => {
    const { reader, newer } = await readerOfAuthor();
    await reader.api.post(api.answer(newer), answerBodySchema, { choice: 2 }, questionSchema);
    expect(questionIn((await feedOf(reader)).feed, newer)).toMatchObject({
      answer: { choice: 2 },
      result: { count: 1 },
    });
  });

  it('counts a like by someone else, and shows the reader’s own', async () => {
    const { reader, newer } = await readerOfAuthor();
    await (await signUp(ctx)).api.post(api.like(newer), likedSchema);
    expect(questionIn((await feedOf(reader)).feed, newer)).toMatchObject({ like_count: 1, liked: false });
    await reader.api.post(api.like(newer), likedSchema);
    expect(questionIn((await feedOf(reader)).feed, newer)).toMatchObject({ like_count: 2, liked: true });
  });

  it('holds a question the author asked since, first', async () => {
    const { reader, author, older, newer } = await readerOfAuthor();
    const newest = await ask(author, { question: 'Rain or sun?' });
    expect((await feedOf(reader)).feed.questions.map((question) => question.id)).toEqual([newest, newer, older]);
  });

  it('names the author by the name they took since', async () => {
    const { reader, author, newer } = await readerOfAuthor();
    const account = await author.api.get(api.account, accountSchema);
    await author.api.post(
      api.account,
      accountUpdateBodySchema,
      {
        firstName: 'Grace',
        birthDate: account.birthdate,
        livingIn: account.country,
        favoriteCategory: null,
        favoriteTopic: null,
      },
      accountSchema,
    );
    expect(questionIn((await feedOf(reader)).feed, newer)?.user_name).toBe('Grace');
  });

  it('leaves out a question the reader hid since, and the author once they block the reader', async () => {
    const { reader, author, older, newer } = await readerOfAuthor();
    await reader.api.post(api.pass(newer), passedSchema);
    expect((await feedOf(reader)).feed.questions.map((question) => question.id)).toEqual([older]);
    await author.api.post(api.ban(reader.id), blockedSchema);
    expect((await feedOf(reader)).feed.questions).toEqual([]);
  });

  it('keeps to the limit asked, and a later page is never taken for the first', async () => {
    const { reader, older, newer } = await readerOfAuthor();
    const one = (await feedOf(reader, `${api.feed}?limit=1`)).feed;
    expect(one.questions.map((question) => question.id)).toEqual([newer]);
    const rest = (await feedOf(reader, `${api.feed}?limit=1&cursor=${encodeURIComponent(one.next!)}`)).feed;
    expect(rest.questions.map((question) => question.id)).toEqual([older]);
    expect((await feedOf(reader)).feed.questions.map((question) => question.id)).toEqual([newer, older]);
  });
});

describe('FEED_PAGES_MB', () => {
  it('gives the kept pages 48 MB unless set; with 0, feeds are made on every read and stay right', async () => {
    expect(loadConfig({}).feedPagesMegabytes).toBe(48);
    const none = await createTestApp({ feedPagesMegabytes: 0 });
    try {
      const [reader, author] = [await signUp(none), await signUp(none)];
      await reader.api.post(api.follow(author.id), connectedSchema);
      const question = await ask(author);
      for (let read = 0; read < 3; read += 1)
        expect((await reader.api.get(api.feed, feedSchema)).questions.map((item) => item.like_count)).toEqual([0]);
      await author.api.post(api.like(question), likedSchema);
      expect((await reader.api.get(api.feed, feedSchema)).questions.map((item) => item.like_count)).toEqual([1]);
    } finally {
      await none.close();
    }
  });
});
