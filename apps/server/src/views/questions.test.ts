import {
  answerBodySchema,
  api,
  likedSchema,
  passedSchema,
  questionSchema,
  type Question,
  type Result,
} from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ask, createTestApp, signUp, type TestContext, type TestUser } from '../test/helper.js';
import { questionViews } from './pipeline.js';
import { responseJson } from './questions.js';
import type { ViewerState } from './viewer-states.js';

let ctx: TestContext;
let author: TestUser;
let voter: TestUser;
let stranger: TestUser;
let questions: number[];

// Every kind of question, with text JSON must escape: quotes, backslashes, control characters, unicode and emoji.
beforeAll(async () => {
  ctx = await createTestApp();
  author = await signUp(ctx, { firstName: 'Zoë "Zed" O\\Neil 🦊' });
  voter = await signUp(ctx, { firstName: 'Ünal' });
  stranger = await signUp(ctx);
  questions = [
    await ask(author, { question: 'Say "yes" or \\no\\?', choices: ['"Yes"', 'No\\'] }),
    await ask(author, {
      question: 'Cats, dogs\tor both? 🐱🐶',
      choices: ['🐱 Cats', 'Chiens « » ', 'Both\nor neither'],
      tags: ['café-über'],
      category: 5,
    }),
    await ask(author, { question: 'Ωmega — which letter?', choices: ['α', 'β', '"γ"', 'δ \\ ε 😀'], tags: ['greek'] }),
    await ask(author, { type: 'RS', question: 'Rate “smart” quotes', choices: [], category: 2 }),
    await ask(author, { type: 'N', question: 'How far, in km?', choices: ['-10', '100'], tags: ['distance_km'] }),
  ];
  const [mc2, mc3, mc4, rating, number] = questions;
  const votes: [TestUser, number, number][] = [
    [voter, mc2, 1],
    [voter, mc3, 3],
    [voter, mc4, 2],
    [voter, rating, 7],
    [voter, number, 2.5],
    [author, number, -10],
  ];
  for (const [user, question, choice] of votes)
    await user.api.post(api.answer(question), answerBodySchema, { choice }, questionSchema);
  await voter.api.post(api.like(mc2), likedSchema);
  await voter.api.post(api.like(mc4), likedSchema);
  await voter.api.post(api.pass(mc3), passedSchema);
  await stranger.api.post(api.like(mc3), likedSchema);
  await stranger.api.post(api.pass(number), passedSchema);
});
afterAll(() => ctx.close());

/** What `user` did, as a call they make now finds it. */
async function stateOf(user: TestUser): Promise<ViewerState> {
  const { state_version } = await ctx.database.db
    .selectFrom('users')
    .select('state_version')
    .where('id', '=', user.id)
    .executeTakeFirstOrThrow();
  return ctx.app.memory.viewers.get(ctx.database.db, user.id, state_version);
}

/** The questions as `viewer` sees them (null: a visitor), made from the app's own cards as its calls make them. */
async function viewsAs(
  viewer: TestUser | null,
  ids: readonly number[],
  options?: { withResults: boolean },
): Promise<Question[]> {
  return questionViews(
    {
      db: ctx.database.db,
      cards: ctx.app.memory.cards,
      moderation: ctx.app.memory.moderation,
      viewer: viewer && (await stateOf(viewer)),
    },
    ids,
    options,
  );
}

/**
 * `responseJson` must write a response exactly as JSON.stringify does, and the views in
 * `fromCards` from their cards: a view it left to JSON.stringify would be right but slow.
 */
function expectWrittenAsStringify(response: unknown, fromCards: readonly Question[]): void {
  const stringify = vi.spyOn(JSON, 'stringify');
  const written = responseJson(response);
  const viewsLeftToStringify = stringify.mock.calls.filter(([value]) => fromCards.includes(value)).length;
  stringify.mockRestore();
  expect(viewsLeftToStringify).toBe(0);
  expect(written).toBe(JSON.stringify(response));
}

/** A view as the contract's client reads it back. */
function readBack(view: Question): Question {
  return questionSchema.parse(JSON.parse(responseJson(view)));
}

/** Each response shape with question views in it, as the calls send them. */
function responsesWith(views: Question[]): unknown[] {
  const [first, ...rest] = views;
  return [
    // A page of a list, the last and one with more after it.
    { questions: views, next: null },
    { questions: views, next: 'azE0' },
    // The feed, with and without the question of the day.
    { qotd: first, questions: rest, next: null },
    { qotd: null, questions: views, next: 'azE0' },
    // Related questions, each with the figures of its link.
    {
      related: views.map((question, index) => ({
        question,
        shared_voters: 30 + index,
        cramers_v: 0.25,
        p_value: 0.001,
        q_value: 0.004,
      })),
    },
    // The quiz, a list at the top.
    views.map((question) => ({ question, answer: null, strict: false })),
    // A created question.
    { question: first },
  ];
}

describe('the JSON of question views', () => {
  const viewers = () =>
    [
      ['the author', author],
      ['a voter', voter],
      ['someone who did not answer', stranger],
      ['a visitor', null],
    ] as const;

  it('is what JSON.stringify writes, for every kind of question and viewer, alone and in every response', async () => {
    for (const [who, viewer] of viewers()) {
      const views = await viewsAs(viewer, questions);
      expect(
        views.map((view) => view.id),
        who,
      ).toEqual(questions);
      for (const view of views) expectWrittenAsStringify(view, [view]);
      for (const response of responsesWith(views)) expectWrittenAsStringify(response, views);
    }
  });

  // The cases the JSON is checked on: results seen and not, own answers, likes, passes, categories and tags.
  it('shows each viewer the result, answer, like, pass and ownership that are theirs', async () => {
    const [mc2, mc3, mc4, rating, number] = questions;
    const seen = async (viewer: TestUser | null) =>
      (await viewsAs(viewer, questions)).map((view) => [
        view.id,
        view.result !== null,
        view.answer?.choice ?? null,
        view.liked,
        view.passed,
        view.owner,
      ]);
    expect(await seen(author)).toEqual([
      [mc2, true, null, false, false, true],
      [mc3, true, null, false, false, true],
      [mc4, true, null, false, false, true],
      [rating, true, null, false, false, true],
      [number, true, -10, false, false, true],
    ]);
    expect(await seen(voter)).toEqual([
      [mc2, true, 1, true, false, false],
      [mc3, true, 3, false, true, false],
      [mc4, true, 2, true, false, false],
      [rating, true, 7, false, false, false],
      [number, true, 2.5, false, false, false],
    ]);
    expect(await seen(stranger)).toEqual([
      [mc2, false, null, false, false, false],
      [mc3, false, null, true, false, false],
      [mc4, false, null, false, false, false],
      [rating, false, null, false, false, false],
      [number, false, null, false, true, false],
    ]);
    const visitor = await viewsAs(null, questions);
    // The number of votes shows on every card, before voting too: only the split waits for a vote.
    for (const viewer of [author, voter, stranger, null])
      expect((await viewsAs(viewer, questions)).map((view) => readBack(view).vote_count)).toEqual([1, 1, 1, 1, 2]);
    expect(visitor.map((view) => view.category !== null)).toEqual([false, true, false, true, false]);
    expect(visitor.map((view) => view.tags.length > 0)).toEqual([false, true, true, false, true]);
  });

  it('is what JSON.stringify writes for a view given a result of its own, as breakdown and relate send it', async () => {
    const suppressed: Result = { count: 0, answers: [], suppressed: true };
    for (const [, viewer] of viewers()) {
      const views = await viewsAs(viewer, questions, { withResults: false });
      for (const view of views) {
        expectWrittenAsStringify(view, [view]);
        const breakdown = {
          question: { ...view, result: suppressed },
          overall: suppressed,
          comparison: null,
          ages: null,
        };
        expectWrittenAsStringify(breakdown, []);
      }
      // Given back the result it has, a view still says what its card says.
      const [withResult] = await viewsAs(author, questions);
      expectWrittenAsStringify(
        { question: { ...views[0], result: withResult.result }, overall: withResult.result, association: null },
        [],
      );
    }
  });

  it('is written anew after a vote and after a like, for those who see it and those who do not', async () => {
    const question = questions[1];
    const [before] = await viewsAs(author, [question]);
    const newcomer = await signUp(ctx);
    await newcomer.api.post(api.answer(question), answerBodySchema, { choice: 2 }, questionSchema);
    for (const viewer of [author, newcomer, stranger]) {
      const [after] = await viewsAs(viewer, [question]);
      expectWrittenAsStringify(after, [after]);
      expectWrittenAsStringify({ questions: [after], next: null }, [after]);
    }
    const [afterVote] = await viewsAs(author, [question]);
    expect(readBack(afterVote).result?.count).toBe((before.result?.count ?? 0) + 1);
    const [unansweredAfterVote] = await viewsAs(stranger, [question]);
    expect(readBack(unansweredAfterVote)).toMatchObject({ result: null, vote_count: before.vote_count + 1 });

    await newcomer.api.post(api.like(question), likedSchema);
    for (const viewer of [author, newcomer, stranger]) {
      const [after] = await viewsAs(viewer, [question]);
      expectWrittenAsStringify(after, [after]);
      expectWrittenAsStringify({ qotd: after, questions: [], next: null }, [after]);
    }
    const [likedByNewcomer] = await viewsAs(newcomer, [question]);
    expect(readBack(likedByNewcomer)).toMatchObject({
      like_count: before.like_count + 1,
      liked: true,
      answer: { choice: 2 },
    });
  });
});
