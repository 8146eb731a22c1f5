import {
  api,
  type CreateQuestionBody,
  createQuestionBodySchema,
  createQuestionResponseSchema,
  questionPageSchema,
  statsSchema,
} from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestContext, type TestUser } from '../../test/helper.js';

let ctx: TestContext;
let author: TestUser;
beforeAll(async () => {
  ctx = await createTestApp();
  author = await signUp(ctx);
});
afterAll(() => ctx.close());

const mc: CreateQuestionBody = { type: 'MC', question: 'Cats or dogs?', choices: ['Cats', 'Dogs'], tags: [] };

async function create(body: CreateQuestionBody) {
  return (await author.api.post(api.create, createQuestionBodySchema, body, createQuestionResponseSchema)).question;
}

const questionCount = async () =>
  Number(
    (
      await ctx.database.db
        .selectFrom('questions')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** Posts a body that must be refused with 400, naming the field, and leave nothing behind. */
async function refused(body: Record<string, unknown>, field: string) {
  const before = await questionCount();
  const reply = await author.api.raw('POST', api.create, body);
  expect(reply.status, JSON.stringify(body)).toBe(400);
  const error = reply.error();
  expect(Object.keys(error.errors ?? {}), JSON.stringify(body)).toContain(field);
  expect(await questionCount()).toBe(before);
  return error;
}

describe('asking a multiple-choice question', () => {
  it('returns 200 with the new question, keyed choices, its tag and category, and no votes yet', async () => {
    const question = await create({
      type: 'MC',
      question: '  Which season?  ',
      choices: [' Spring ', 'Summer', 'Autumn', 'Winter'],
      tags: ['Weather'],
      category: 5,
    });
    expect(question).toMatchObject({
      qid: question.id,
      type: 'MC',
      title: 'Which season?',
      category: { id: 5, name: 'Science' },
      choices: [
        { key: 1, value: 'Spring' },
        { key: 2, value: 'Summer' },
        { key: 3, value: 'Autumn' },
        { key: 4, value: 'Winter' },
      ],
      // The author sees the (empty) result of their own question.
      result: { count: 0, answers: [1, 2, 3, 4].map((key) => ({ key, percent: 0 })) },
      answer: null,
      tags: [{ name: 'weather' }],
      user: author.id,
      like_count: 0,
      liked: false,
      passed: false,
      owner: true,
    });
    expect(new Date(question.published_at).toISOString()).toBe(question.published_at);
    expect(Date.now() - Date.parse(question.published_at)).toBeLessThan(60_000);
  });

  it('is MC when no type is given, with no tag or category', async () => {
    const question = await create({ question: 'Tea or coffee?', choices: ['Tea', 'Coffee'] });
    expect(question).toMatchObject({ type: 'MC', tags: [], category: null });
  });

  it('counts in the author’s stats and lists', async () => {
    const before = (await author.api.get(api.myStats, statsSchema)).question;
    const question = await create(mc);
    expect((await author.api.get(api.myStats, statsSchema)).question).toBe(before + 1);
    expect((await author.api.get(api.myQuestions, questionPageSchema)).questions[0].id).toBe(question.id);
  });

  it('needs 2 to 4 choices, each given and at most 64 characters', async () => {
    await refused({ ...mc, choices: ['Only one'] }, 'choices');
    await refused({ ...mc, choices: [] }, 'choices');
    await refused({ ...mc, choices: ['A', 'B', 'C', 'D', 'E'] }, 'choices');
    await refused({ ...mc, choices: ['A', '   '] }, 'choices.1');
    await refused({ ...mc, choices: ['A', 'x'.repeat(65)] }, 'choices.1');
    await refused({ ...mc, choices: ['A', 2] }, 'choices.1');
    await refused({ ...mc, choices: 'A,B' }, 'choices');
    expect((await create({ ...mc, choices: ['A', 'x'.repeat(64)] })).choices).toEqual([
      { key: 1, value: 'A' },
      { key: 2, value: 'x'.repeat(64) },
    ]);
  });
});

describe('asking a rating question', () => {
  it('is always on the scale 1 to 10, given as no choices or as ["1", "10"]', async () => {
    expect((await create({ type: 'RS', question: 'Rate it', choices: [], tags: [] })).choices).toEqual({
      min: 1,
      max: 10,
    });
    expect((await create({ type: 'RS', question: 'Rate it again', choices: ['1', '10'], tags: [] })).choices).toEqual({
      min: 1,
      max: 10,
    });
    const question = await create({ type: 'RS', question: 'Rate once more' });
    // The author sees every step of the scale, none voted yet.
    expect(question.result).toEqual({
      count: 0,
      answers: Array.from({ length: 10 }, (_, index) => ({ choice: index + 1, count: 0 })),
    });
  });

  it('refuses any other scale', async () => {
    await refused({ type: 'RS', question: 'Rate it', choices: ['0', '10'] }, 'choices');
    await refused({ type: 'RS', question: 'Rate it', choices: ['1', '5'] }, 'choices');
    await refused({ type: 'RS', question: 'Rate it', choices: ['1'] }, 'choices');
  });
});

describe('asking a number question', () => {
  it('takes [min, max] as whole numbers with min below max', async () => {
    expect((await create({ type: 'N', question: 'How many?', choices: ['-5', '20'], tags: [] })).choices).toEqual({
      min: -5,
      max: 20,
    });
    const question = await create({ type: 'N', question: 'How many more?', choices: [' 0 ', '1'] });
    expect(question.choices).toEqual({ min: 0, max: 1 });
    expect(question.result).toEqual({ count: 0, answers: [] });
  });

  it('refuses bounds that are missing, not whole numbers, or not in order', async () => {
    await refused({ type: 'N', question: 'How many?', choices: [] }, 'choices');
    await refused({ type: 'N', question: 'How many?', choices: ['1', '2', '3'] }, 'choices');
    await refused({ type: 'N', question: 'How many?', choices: ['ten', '20'] }, 'choices.0');
    await refused({ type: 'N', question: 'How many?', choices: ['0', '2.5'] }, 'choices.1');
    await refused({ type: 'N', question: 'How many?', choices: ['5', '5'] }, 'choices');
    await refused({ type: 'N', question: 'How many?', choices: ['9', '1'] }, 'choices');
  });
});

describe('refused questions', () => {
  it('need 1 to 127 characters of question after trimming', async () => {
    const error = await refused({ ...mc, question: '   ' }, 'question');
    expect(error).toEqual({ message: 'Question is required', errors: { question: 'Question is required' } });
    await refused({ ...mc, question: 'x'.repeat(128) }, 'question');
    await refused({ ...mc, question: undefined }, 'question');
    await refused({ ...mc, question: 42 }, 'question');
    expect((await create({ ...mc, question: ` ${'x'.repeat(127)} ` })).title).toBe('x'.repeat(127));
  });

  it('take at most one tag of 1 to 20 letters, digits, - or _', async () => {
    await refused({ ...mc, tags: ['one', 'two'] }, 'tags');
    await refused({ ...mc, tags: [''] }, 'tags.0');
    await refused({ ...mc, tags: ['x'.repeat(21)] }, 'tags.0');
    await refused({ ...mc, tags: ['two words'] }, 'tags.0');
    await refused({ ...mc, tags: ['#hash'] }, 'tags.0');
    await refused({ ...mc, tags: 'single' }, 'tags');
    expect((await create({ ...mc, tags: ['Été_2024-x'] })).tags).toEqual([{ name: 'été_2024-x' }]);
    expect((await create({ ...mc, tags: ['x'.repeat(20)] })).tags).toEqual([{ name: 'x'.repeat(20) }]);
  });

  it('have a known type and, when given, a known category', async () => {
    await refused({ ...mc, type: 'YN' }, 'type');
    const unknown = await refused({ ...mc, category: 9999 }, 'category');
    expect(unknown).toEqual({ message: 'Unknown category', errors: { category: 'Pick a category from the list' } });
    await refused({ ...mc, category: 'Sports' }, 'category');
    await refused({ ...mc, category: 0 }, 'category');
    expect((await create({ ...mc, category: null })).category).toBeNull();
  });

  it('are refused with 401 without a token', async () => {
    const reply = await ctx.app.inject({ method: 'POST', url: api.create, payload: mc });
    expect(reply.statusCode).toBe(401);
  });
});
