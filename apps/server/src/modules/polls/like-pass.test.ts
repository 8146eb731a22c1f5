import {
  answerBodySchema,
  api,
  blockedSchema,
  likedSchema,
  passedSchema,
  questionSchema,
  statsSchema,
} from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, createTestApp, signUp, type TestContext, type TestUser } from '../../test/helper.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

function questionAs(user: TestUser, id: number) {
  return user.api.get(api.question(id), questionSchema);
}

async function likesOf(user: TestUser): Promise<number> {
  return (await user.api.get(api.myStats, statsSchema)).like;
}

describe('liking', () => {
  it('answers { liked } and moves the question’s and the liker’s counts once, however often it is repeated', async () => {
    const author = await signUp(ctx);
    const fan = await signUp(ctx);
    const other = await signUp(ctx);
    const id = await ask(author);

    for (let round = 0; round < 2; round += 1) {
      const reply = await fan.api.raw('POST', api.like(id));
      expect(reply.status).toBe(200);
      expect(reply.parse(likedSchema.strict())).toEqual({ liked: true });
    }
    await other.api.post(api.like(id), likedSchema);
    expect(await questionAs(fan, id)).toMatchObject({ like_count: 2, liked: true });
    expect(await questionAs(author, id)).toMatchObject({ like_count: 2, liked: false });
    expect(await likesOf(fan)).toBe(1);

    for (let round = 0; round < 2; round += 1) {
      const reply = await fan.api.raw('POST', api.unlike(id));
      expect(reply.status).toBe(200);
      expect(reply.parse(likedSchema.strict())).toEqual({ liked: false });
    }
    expect(await questionAs(fan, id)).toMatchObject({ like_count: 1, liked: false });
    expect(await likesOf(fan)).toBe(0);
    expect(await likesOf(other)).toBe(1);
  });

  it('unliking a question never liked changes nothing', async () => {
    const author = await signUp(ctx);
    const stranger = await signUp(ctx);
    const id = await ask(author);
    expect(await stranger.api.post(api.unlike(id), likedSchema)).toEqual({ liked: false });
    expect(await questionAs(author, id)).toMatchObject({ like_count: 0 });
    expect(await likesOf(stranger)).toBe(0);
  });

  it('lets the author like their own question', async () => {
    const author = await signUp(ctx);
    const id = await ask(author);
    expect(await author.api.post(api.like(id), likedSchema)).toEqual({ liked: true });
    expect(await questionAs(author, id)).toMatchObject({ like_count: 1, liked: true, owner: true });
  });

  it('works with an empty body, with or without a JSON content type', async () => {
    const author = await signUp(ctx);
    const fan = await signUp(ctx);
    const id = await ask(author);
    for (const headers of [
      {},
      { 'content-type': 'application/json' },
      { 'content-type': 'application/json; charset=utf-8' },
    ]) {
      const reply = await ctx.app.inject({
        method: 'POST',
        url: api.like(id),
        headers: { authorization: `Token ${fan.token}`, ...headers },
        payload: '',
      });
      expect(reply.statusCode, JSON.stringify(headers)).toBe(200);
      expect(likedSchema.strict().parse(reply.json())).toEqual({ liked: true });
    }
    const unpass = await ctx.app.inject({
      method: 'POST',
      url: api.unpass(id),
      headers: { authorization: `Token ${fan.token}`, 'content-type': 'application/json' },
    });
    expect(unpass.statusCode).toBe(200);
  });
});

describe('passing', () => {
  it('answers { passed }, marks the question passed, and is harmless to repeat', async () => {
    const author = await signUp(ctx);
    const reader = await signUp(ctx);
    const id = await ask(author);

    for (let round = 0; round < 2; round += 1) {
      const reply = await reader.api.raw('POST', api.pass(id));
      expect(reply.status).toBe(200);
      expect(reply.parse(passedSchema.strict())).toEqual({ passed: true });
    }
    expect(await questionAs(reader, id)).toMatchObject({ passed: true });
    expect(await questionAs(author, id)).toMatchObject({ passed: false });

    for (let round = 0; round < 2; round += 1) {
      expect(await reader.api.post(api.unpass(id), passedSchema.strict())).toEqual({ passed: false });
    }
    expect(await questionAs(reader, id)).toMatchObject({ passed: false });
  });

  it('keeps the likes and the vote of a passed question', async () => {
    const author = await signUp(ctx);
    const reader = await signUp(ctx);
    const id = await ask(author);
    await reader.api.post(api.answer(id), answerBodySchema, { choice: 2 }, questionSchema);
    await reader.api.post(api.like(id), likedSchema);
    await reader.api.post(api.pass(id), passedSchema);
    expect(await questionAs(reader, id)).toMatchObject({
      passed: true,
      liked: true,
      like_count: 1,
      answer: { choice: 2 },
    });
    expect(await reader.api.get(api.myStats, statsSchema)).toEqual({ question: 0, answer: 1, like: 1 });
  });
});

describe('like and pass on a question one may not act on', () => {
  it('are 404 for an unknown question, 400 for a bad id, 403 across a block either way', async () => {
    const author = await signUp(ctx);
    const blocked = await signUp(ctx);
    const blocker = await signUp(ctx);
    const id = await ask(author);
    await author.api.post(api.ban(blocked.id), blockedSchema);
    await blocker.api.post(api.ban(author.id), blockedSchema);
    for (const call of [api.like, api.unlike, api.pass, api.unpass]) {
      const unknown = await blocked.api.raw('POST', call(999999));
      expect(unknown.status).toBe(404);
      expect(unknown.error()).toEqual({ message: 'No such question' });
      const bad = await blocked.api.raw('POST', call('abc'));
      expect(bad.status).toBe(400);
      expect(bad.error().errors).toHaveProperty('id');
      for (const user of [blocked, blocker]) {
        const reply = await user.api.raw('POST', call(id));
        expect(reply.status, call(id)).toBe(403);
        expect(reply.error()).toEqual({ message: 'You cannot act on this question' });
      }
    }
    expect(await questionAs(author, id)).toMatchObject({ like_count: 0 });
    const passes = await ctx.database.db.selectFrom('passes').selectAll().where('question_id', '=', id).execute();
    expect(passes).toEqual([]);
  });
});
