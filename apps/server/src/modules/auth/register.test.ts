import {
  accountSchema,
  api,
  createQuestionBodySchema,
  createQuestionResponseSchema,
  questionPageSchema,
  quizListSchema,
  type RegisterBody,
  registerBodySchema,
  settingsSchema,
  statsSchema,
  tokenResponseSchema,
} from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createTestApp, type TestContext } from '../../test/helper.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

let registrations = 0;
/** A registration the server takes, with an email of its own. */
const registration = (): RegisterBody => ({
  firstName: 'Ada',
  birthDate: '1990-06-15',
  gender: 'F',
  livingIn: 840,
  email: `register${++registrations}@example.com`,
  password: 'correct horse',
});
/** A registration with fields changed, right or wrong, or left out (undefined). */
const person = (overrides: Record<string, unknown> = {}) => ({ ...registration(), ...overrides });

/** The birth date of someone who turns `years` today (the 28th of February for a 29th). */
function turningToday(years: number): string {
  const now = new Date();
  const date = new Date(Date.UTC(now.getUTCFullYear() - years, now.getUTCMonth(), now.getUTCDate()));
  if (date.getUTCDate() !== now.getUTCDate()) date.setUTCDate(0);
  return date.toISOString().slice(0, 10);
}

function dayAfter(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 24 * 3600 * 1000).toISOString().slice(0, 10);
}

const tableSizes = async () => {
  const { db } = ctx.database;
  const count = async (table: 'users' | 'votes' | 'sessions' | 'vote_tallies') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    users: await count('users'),
    votes: await count('votes'),
    sessions: await count('sessions'),
    tallies: await count('vote_tallies'),
  };
};

/** Registers with a body that must be refused with `status`, naming `field`, and leave no trace. */
async function refused(body: Record<string, unknown>, field: string | null, status = 400) {
  const before = await tableSizes();
  const reply = await client(ctx.app).raw('POST', api.register, body);
  expect(reply.status, JSON.stringify(body)).toBe(status);
  const error = reply.error();
  if (field) expect(Object.keys(error.errors ?? {}), reply.text).toContain(field);
  expect(await tableSizes()).toEqual(before);
  return error;
}

describe('registering', () => {
  it('answers 201 with a token that signs the new person in', async () => {
    const body = person({ firstName: '  Ada  ', email: ' Ada.Lovelace@Example.COM ', gender: 'F', livingIn: 826 });
    const reply = await client(ctx.app).raw('POST', api.register, body);
    expect(reply.status).toBe(201);
    const { token } = reply.parse(tokenResponseSchema.strict());
    const me = client(ctx.app, token);
    expect(await me.get(api.settings, settingsSchema)).toEqual({
      email: 'ada.lovelace@example.com',
      notification: true,
      pending_email: null,
      language: 'en',
      question_languages: null,
    });
    expect(await me.get(api.account, accountSchema)).toEqual({
      id: expect.any(Number),
      role: 'member',
      first_name: 'Ada',
      birthdate: '1990-06-15',
      country: 826,
      favorite_category: null,
      favorite_topic: null,
      gender: 'F',
    });
    expect(await me.get(api.myStats, statsSchema)).toEqual({ question: 0, answer: 0, like: 0 });
  });

  it('makes one account of two simultaneous registrations with one email', async () => {
    const replies = await Promise.all([
      client(ctx.app).raw('POST', api.register, person({ email: 'twin@example.com' })),
      client(ctx.app).raw('POST', api.register, person({ email: 'Twin@Example.com ' })),
    ]);
    expect(replies.map((reply) => reply.status).sort()).toEqual([201, 409]);
    expect(replies.find((reply) => reply.status === 409)!.error()).toEqual({
      message: 'This email is already registered',
      errors: { email: 'This email is already registered' },
    });
    const accounts = await ctx.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'twin@example.com')
      .execute();
    expect(accounts).toHaveLength(1);
  });

  it('refuses an email already registered, whatever its case, with 409', async () => {
    await client(ctx.app).post(
      api.register,
      registerBodySchema,
      { ...registration(), email: 'taken@example.com' },
      tokenResponseSchema,
    );
    await refused(person({ email: 'TAKEN@example.com' }), 'email', 409);
  });

  it('needs a first name of 1 to 50 characters', async () => {
    await refused(person({ firstName: undefined }), 'firstName');
    await refused(person({ firstName: '   ' }), 'firstName');
    await refused(person({ firstName: 'x'.repeat(51) }), 'firstName');
    expect((await client(ctx.app).raw('POST', api.register, person({ firstName: 'x'.repeat(50) }))).status).toBe(201);
  });

  it('needs a real birth date as YYYY-MM-DD, of someone 13 to 120 years old', async () => {
    await refused(person({ birthDate: undefined }), 'birthDate');
    await refused(person({ birthDate: '15/06/1990' }), 'birthDate');
    await refused(person({ birthDate: '1990-02-30' }), 'birthDate');
    await refused(person({ birthDate: '1990-6-5' }), 'birthDate');
    const tooYoung = await refused(person({ birthDate: dayAfter(turningToday(13)) }), 'birthDate');
    expect(tooYoung.errors).toEqual({ birthDate: 'You must be between 13 and 120 years old' });
    await refused(person({ birthDate: turningToday(121) }), 'birthDate');
    await refused(person({ birthDate: '2999-01-01' }), 'birthDate');
    expect((await client(ctx.app).raw('POST', api.register, person({ birthDate: turningToday(13) }))).status).toBe(201);
    expect(
      (await client(ctx.app).raw('POST', api.register, person({ birthDate: dayAfter(turningToday(121)) }))).status,
    ).toBe(201);
  });

  it('needs gender F or M', async () => {
    await refused(person({ gender: 'X' }), 'gender');
    await refused(person({ gender: 'f' }), 'gender');
    await refused(person({ gender: undefined }), 'gender');
    expect((await client(ctx.app).raw('POST', api.register, person({ gender: 'M' }))).status).toBe(201);
  });

  it('needs a country of the list', async () => {
    const unknown = await refused(person({ livingIn: 1 }), 'livingIn');
    expect(unknown).toEqual({ message: 'Unknown country', errors: { livingIn: 'Pick a country from the list' } });
    await refused(person({ livingIn: 'France' }), 'livingIn');
    await refused(person({ livingIn: 0 }), 'livingIn');
    await refused(person({ livingIn: undefined }), 'livingIn');
  });

  it('needs a valid email', async () => {
    for (const email of [
      undefined,
      '',
      'nope',
      'a@',
      '@example.com',
      'two words@example.com',
      `${'x'.repeat(250)}@example.com`,
    ]) {
      await refused(person({ email }), 'email');
    }
  });

  it('needs a password of 8 to 128 characters', async () => {
    await refused(person({ password: undefined }), 'password');
    const short = await refused(person({ password: '1234567' }), 'password');
    expect(short.errors).toEqual({ password: 'At least 8 characters' });
    await refused(person({ password: 'x'.repeat(129) }), 'password');
    expect((await client(ctx.app).raw('POST', api.register, person({ password: '12345678' }))).status).toBe(201);
    expect((await client(ctx.app).raw('POST', api.register, person({ password: 'x'.repeat(128) }))).status).toBe(201);
  });

  it('names every missing field of an empty body', async () => {
    const error = await refused({}, null);
    expect(Object.keys(error.errors ?? {}).sort()).toEqual([
      'birthDate',
      'email',
      'firstName',
      'gender',
      'livingIn',
      'password',
    ]);
  });
});

describe('the quiz answers sent with a registration', () => {
  it('become the new person’s first votes', async () => {
    const quiz = await client(ctx.app).get(api.quizes, quizListSchema);
    const [first, second] = quiz;
    const reply = await client(ctx.app).raw(
      'POST',
      api.register,
      person({
        quiz: [
          { question: first.question.id, choice: 2 },
          { question: second.question.id, choice: 1 },
        ],
      }),
    );
    expect(reply.status).toBe(201);
    const me = client(ctx.app, reply.parse(tokenResponseSchema).token);
    const answered = (await me.get(api.myAnswered, questionPageSchema)).questions;
    expect(answered.map((question) => [question.id, question.answer])).toEqual([
      [second.question.id, { choice: 1 }],
      [first.question.id, { choice: 2 }],
    ]);
    expect(answered[1].result?.count).toBeGreaterThanOrEqual(1);
    expect((await me.get(api.myStats, statsSchema)).answer).toBe(2);
  });

  it('count a question given twice once, with the first answer', async () => {
    const [item] = await client(ctx.app).get(api.quizes, quizListSchema);
    const reply = await client(ctx.app).raw(
      'POST',
      api.register,
      person({
        quiz: [
          { question: item.question.id, choice: 1 },
          { question: item.question.id, choice: 3 },
        ],
      }),
    );
    expect(reply.status).toBe(201);
    const answered = (
      await client(ctx.app, reply.parse(tokenResponseSchema).token).get(api.myAnswered, questionPageSchema)
    ).questions;
    expect(answered.map((question) => question.answer)).toEqual([{ choice: 1 }]);
  });

  it('refuse a question that is not in the quiz, creating no account and no vote', async () => {
    const author = await client(ctx.app).post(api.register, registerBodySchema, registration(), tokenResponseSchema);
    const asked = await client(ctx.app, author.token).post(
      api.create,
      createQuestionBodySchema,
      { type: 'MC', question: 'Not a quiz question?', choices: ['A', 'B'], tags: [] },
      createQuestionResponseSchema,
    );
    const [item] = await client(ctx.app).get(api.quizes, quizListSchema);
    const body = person({
      quiz: [
        { question: item.question.id, choice: 1 },
        { question: asked.question.id, choice: 1 },
      ],
    });
    const error = await refused(body, 'quiz.1.question');
    expect(error.message).toBe('That is not a quiz question');
    const account = await ctx.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', body.email as string)
      .executeTakeFirst();
    expect(account).toBeUndefined();
    await refused(person({ quiz: [{ question: 999999, choice: 1 }] }), 'quiz.0.question');
  });

  it('refuse a choice the quiz question does not offer, naming the answer', async () => {
    const [first, second] = await client(ctx.app).get(api.quizes, quizListSchema);
    const error = await refused(
      person({
        quiz: [
          { question: first.question.id, choice: 1 },
          { question: second.question.id, choice: 9 },
        ],
      }),
      'quiz.1.choice',
    );
    expect(error.message).toBe('Pick one of the choices');
    await refused(person({ quiz: [{ question: first.question.id, choice: 'one' }] }), 'quiz.0.choice');
    await refused(person({ quiz: [{ question: 'first', choice: 1 }] }), 'quiz.0.question');
    await refused(person({ quiz: 'answers' }), 'quiz');
  });
});
