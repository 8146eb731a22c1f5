import {
  answerBodySchema,
  api,
  blockedSchema,
  type Question,
  questionPageSchema,
  questionSchema,
} from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, createTestApp, signUp, type TestContext, type TestUser } from '../../test/helper.js';
import { activityByDay } from '../site/index.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

/** The percentages of a multiple-choice result, in the order of the choices. */
function percentsOf(question: Question): number[] {
  return (question.result?.answers ?? []).flatMap((answer) => ('percent' in answer ? [answer.percent] : []));
}

describe('answering a question', () => {
  it('shows no result before voting, then the result with the voter’s choice', async () => {
    const author = await signUp(ctx);
    const voter = await signUp(ctx);
    const id = await ask(author, { choices: ['Cats', 'Dogs', 'Both'] });

    const before = await voter.api.get(api.question(id), questionSchema);
    expect(before).toMatchObject({ result: null, answer: null });

    const reply = await voter.api.raw('POST', api.answer(id), { choice: 2 });
    expect(reply.status).toBe(200);
    const answered = reply.parse(questionSchema);
    expect(answered.answer).toEqual({ choice: 2 });
    expect(answered.result).toEqual({
      count: 1,
      answers: [
        { key: 1, percent: 0 },
        { key: 2, percent: 100 },
        { key: 3, percent: 0 },
      ],
    });
  });

  it('refuses a second vote with 409 and keeps the first', async () => {
    const author = await signUp(ctx);
    const voter = await signUp(ctx);
    const id = await ask(author);
    await voter.api.post(api.answer(id), answerBodySchema, { choice: 1 }, questionSchema);

    const second = await voter.api.raw('POST', api.answer(id), { choice: 2 });
    expect(second.status).toBe(409);
    expect(second.error().message).toBe('You already answered this question');
    const after = await voter.api.get(api.question(id), questionSchema);
    expect(after.answer).toEqual({ choice: 1 });
    expect(after.result?.count).toBe(1);
  });

  it('gives whole percentages that add up to 100 for three even thirds', async () => {
    const author = await signUp(ctx);
    const id = await ask(author, { choices: ['A', 'B', 'C'] });
    for (const choice of [1, 2, 3]) {
      const voter = await signUp(ctx);
      await voter.api.post(api.answer(id), answerBodySchema, { choice }, questionSchema);
    }
    const percents = percentsOf(await author.api.get(api.question(id), questionSchema));
    expect(percents.reduce((sum, value) => sum + value, 0)).toBe(100);
    expect(percents).toEqual([34, 33, 33]);
  });

  it('averages a rating to 2 decimals', async () => {
    const author = await signUp(ctx);
    const id = await ask(author, { type: 'RS', question: 'Rate the weather', choices: [] });
    for (const choice of [7, 8, 8]) {
      const voter = await signUp(ctx);
      await voter.api.post(api.answer(id), answerBodySchema, { choice }, questionSchema);
    }
    const { result } = await author.api.get(api.question(id), questionSchema);
    expect(result?.count).toBe(3);
    expect(result?.average).toBe(7.67);
    expect(result?.answers.find((answer) => 'choice' in answer && answer.choice === 8)).toMatchObject({ count: 2 });
  });

  it('refuses a choice the question does not offer, field by field', async () => {
    const author = await signUp(ctx);
    const voter = await signUp(ctx);
    const mc = await ask(author);
    const number = await ask(author, { type: 'N', question: 'How many?', choices: ['0', '10'] });
    expect((await voter.api.raw('POST', api.answer(mc), { choice: 3 })).error().errors).toHaveProperty('choice');
    expect((await voter.api.raw('POST', api.answer(number), { choice: 11 })).status).toBe(400);
    expect((await voter.api.raw('POST', api.answer(number), { choice: 'ten' })).error().errors).toHaveProperty(
      'choice',
    );
    expect((await voter.api.raw('POST', api.answer(999999), { choice: 1 })).status).toBe(404);
  });

  it('answers with the contract’s Question, and lists show the result only to those who voted', async () => {
    const author = await signUp(ctx);
    const voter = await signUp(ctx);
    const other = await signUp(ctx);
    const tag = `results${author.id}`;
    const id = await ask(author, { tags: [tag] });
    const answered = await voter.api.raw('POST', api.answer(id), { choice: 1 });
    expect(answered.parse(questionSchema.strict())).toMatchObject({
      id,
      owner: false,
      answer: { choice: 1 },
      result: { count: 1 },
    });
    const [seenByOther] = (await other.api.get(api.tag(tag), questionPageSchema)).questions;
    expect(seenByOther).toMatchObject({ id, result: null, answer: null });
    const [seenByAuthor] = (await author.api.get(api.tag(tag), questionPageSchema)).questions;
    expect(seenByAuthor).toMatchObject({
      id,
      answer: null,
      result: {
        count: 1,
        answers: [
          { key: 1, percent: 100 },
          { key: 2, percent: 0 },
        ],
      },
    });
  });

  it('gives percentages that add up to 100 whatever the split', async () => {
    const author = await signUp(ctx);
    const id = await ask(author, { choices: ['A', 'B', 'C', 'D'] });
    const voters: TestUser[] = [];
    for (let index = 0; index < 7; index += 1) voters.push(await signUp(ctx));
    const expected = [
      [100, 0, 0, 0],
      [50, 50, 0, 0],
      [67, 33, 0, 0],
      [50, 25, 25, 0],
      [40, 20, 20, 20],
      [33, 33, 17, 17],
      [43, 29, 14, 14],
    ];
    const choices = [1, 2, 1, 3, 4, 2, 1];
    for (const [index, voter] of voters.entries()) {
      const percents = percentsOf(
        await voter.api.post(api.answer(id), answerBodySchema, { choice: choices[index] }, questionSchema),
      );
      expect(percents, `after ${index + 1} votes`).toEqual(expected[index]);
      expect(percents.reduce((sum, value) => sum + value, 0)).toBe(100);
    }
  });

  it('lists every step of a rating and the distinct numbers given, with averages to 2 decimals', async () => {
    const author = await signUp(ctx);
    const rating = await ask(author, { type: 'RS', question: 'Rate it', choices: ['1', '10'] });
    const number = await ask(author, { type: 'N', question: 'How far?', choices: ['-10', '100'] });
    for (const [ratingChoice, numberChoice] of [
      [1, 2.5],
      [2, -10],
      [2, 2.5],
    ]) {
      const voter = await signUp(ctx);
      await voter.api.post(api.answer(rating), answerBodySchema, { choice: ratingChoice }, questionSchema);
      await voter.api.post(api.answer(number), answerBodySchema, { choice: numberChoice }, questionSchema);
    }
    const ratingResult = (await author.api.get(api.question(rating), questionSchema)).result;
    expect(ratingResult).toEqual({
      count: 3,
      average: 1.67,
      answers: Array.from({ length: 10 }, (_, index) => ({ choice: index + 1, count: [1, 2][index] ?? 0 })),
    });
    const numberResult = (await author.api.get(api.question(number), questionSchema)).result;
    expect(numberResult).toEqual({
      count: 3,
      average: -1.67,
      answers: [
        { choice: -10, count: 1 },
        { choice: 2.5, count: 2 },
      ],
    });
  });

  it('refuses a rating that is not a whole number of the scale, and a body without a number', async () => {
    const author = await signUp(ctx);
    const voter = await signUp(ctx);
    const rating = await ask(author, { type: 'RS', question: 'Rate it', choices: [] });
    for (const choice of [0, 11, 5.5]) {
      const reply = await voter.api.raw('POST', api.answer(rating), { choice });
      expect(reply.status, String(choice)).toBe(400);
      expect(Object.keys(reply.error().errors ?? {})).toEqual(['choice']);
    }
    for (const body of [{}, { choice: '5' }, { choice: null }, { choice: [5] }]) {
      const reply = await voter.api.raw('POST', api.answer(rating), body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.error().errors).toHaveProperty('choice');
    }
    expect(await voter.api.get(api.question(rating), questionSchema)).toMatchObject({ answer: null, result: null });
  });

  it('writes nothing for a refused vote', async () => {
    const author = await signUp(ctx);
    const voter = await signUp(ctx);
    const id = await ask(author);
    await voter.api.post(api.answer(id), answerBodySchema, { choice: 1 }, questionSchema);
    const { db } = ctx.database;
    const snapshot = async () => ({
      votes: await db.selectFrom('votes').selectAll().where('question_id', '=', id).execute(),
      tallies: await db.selectFrom('vote_tallies').selectAll().where('question_id', '=', id).execute(),
      segments: await db.selectFrom('vote_segments').selectAll().where('question_id', '=', id).execute(),
      question: await db.selectFrom('questions').select('vote_count').where('id', '=', id).executeTakeFirstOrThrow(),
      voter: await db.selectFrom('users').select('answer_count').where('id', '=', voter.id).executeTakeFirstOrThrow(),
      activity: await activityByDay(db),
    });
    const before = await snapshot();
    expect((await voter.api.raw('POST', api.answer(id), { choice: 2 })).status).toBe(409);
    expect((await voter.api.raw('POST', api.answer(id), { choice: 7 })).status).toBe(400);
    expect(await snapshot()).toEqual(before);
  });

  it('is refused with 403 across a block either way', async () => {
    const author = await signUp(ctx);
    const blocked = await signUp(ctx);
    const blocker = await signUp(ctx);
    const id = await ask(author);
    await author.api.post(api.ban(blocked.id), blockedSchema);
    await blocker.api.post(api.ban(author.id), blockedSchema);
    for (const user of [blocked, blocker]) {
      const reply = await user.api.raw('POST', api.answer(id), { choice: 1 });
      expect(reply.status).toBe(403);
      expect((await user.api.raw('GET', api.question(id))).status).toBe(403);
    }
    expect((await author.api.get(api.question(id), questionSchema)).result?.count).toBe(0);
  });
});
