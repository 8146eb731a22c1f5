import { api } from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createTestApp, signUp, type TestContext } from '../../test/helper.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

describe('text with the NUL character', () => {
  it('is refused with 400 naming the field, wherever it is sent, and nothing is stored', async () => {
    const user = await signUp(ctx);
    const email = 'nul@example.com';
    const registration = await client(ctx.app).raw('POST', api.register, {
      firstName: 'A\u0000B',
      birthDate: '1990-06-15',
      gender: 'F',
      livingIn: 840,
      email,
      password: 'correct horse',
    });
    expect(registration.status).toBe(400);
    expect(registration.error()).toEqual({
      message: 'Text cannot contain the NUL character',
      errors: { firstName: 'Remove the NUL character' },
    });
    expect(
      await ctx.database.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst(),
    ).toBeUndefined();

    const question = await user.api.raw('POST', api.create, {
      type: 'MC',
      question: 'Tea?',
      choices: ['Yes', 'N\u0000o'],
      tags: [],
    });
    expect(question.status).toBe(400);
    expect(question.error().errors).toEqual({ 'choices.1': 'Remove the NUL character' });

    const tag = await user.api.raw('GET', '/api/polls/tag/%00/');
    expect(tag.status).toBe(400);
    expect(tag.error().errors).toEqual({ tag: 'Remove the NUL character' });
    const cursor = await user.api.raw('GET', `${api.feed}?cursor=%00`);
    expect(cursor.status).toBe(400);
    expect(cursor.error().errors).toEqual({ cursor: 'Remove the NUL character' });
  });
});
