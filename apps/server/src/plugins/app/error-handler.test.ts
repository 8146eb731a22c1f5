import { api } from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestContext, type TestUser } from '../../test/helper.js';

let ctx: TestContext;
let user: TestUser;
beforeAll(async () => {
  ctx = await createTestApp();
  user = await signUp(ctx);
});
afterAll(() => ctx.close());

describe('invalid input', () => {
  it('says what to fix in its message, and lists every field’s error', async () => {
    const reply = await user.api.raw('POST', api.create, {
      type: 'MC',
      question: '   ',
      choices: ['Tea', 'Coffee'],
      tags: ['not a tag!'],
    });
    expect(reply.status).toBe(400);
    const error = reply.error();
    expect(Object.keys(error.errors ?? {})).toEqual(['question', 'tags.0']);
    expect(error.message).toBe('Question is required');
  });

  it('names the first field’s problem for a query string too', async () => {
    const reply = await user.api.raw('GET', `${api.myQuestions}?limit=500`);
    expect(reply.status).toBe(400);
    const error = reply.error();
    expect(error.message).toBe(error.errors?.limit);
    expect(error.message).toMatch(/100/);
  });
});
