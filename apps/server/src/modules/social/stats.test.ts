import {
  answerBodySchema,
  api,
  blockedSchema,
  connectedSchema,
  connectionListSchema,
  likedSchema,
  questionSchema,
  statsSchema,
  userStatsSchema,
} from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, createTestApp, signUp, type TestContext } from '../../test/helper.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

describe('own stats', () => {
  it('count the questions the caller asked, answered and liked', async () => {
    const user = await signUp(ctx);
    const other = await signUp(ctx);
    expect(await user.api.get(api.myStats, statsSchema.strict())).toEqual({ question: 0, answer: 0, like: 0 });
    await ask(user);
    await ask(user);
    const [a, b, c] = [await ask(other), await ask(other), await ask(other)];
    for (const id of [a, b, c]) await user.api.post(api.answer(id), answerBodySchema, { choice: 1 }, questionSchema);
    await user.api.post(api.like(a), likedSchema);
    await user.api.post(api.like(b), likedSchema);
    await user.api.post(api.unlike(b), likedSchema);
    await user.api.post(api.like(c), likedSchema);
    expect(await user.api.get(api.myStats, statsSchema)).toEqual({ question: 2, answer: 3, like: 2 });
    expect(await other.api.get(api.myStats, statsSchema)).toEqual({ question: 3, answer: 0, like: 0 });
  });
});

describe('another user’s stats', () => {
  it('add who they are, where they live, and whether the caller follows or blocked them', async () => {
    const viewer = await signUp(ctx);
    const person = await signUp(ctx, { firstName: 'Marie', birthDate: '1967-11-07', livingIn: 250 });
    await ask(person);
    const reply = await viewer.api.raw('GET', api.userStats(person.id));
    expect(reply.status).toBe(200);
    expect(reply.parse(userStatsSchema.strict())).toEqual({
      id: person.id,
      name: 'Marie',
      question: 1,
      answer: 0,
      like: 0,
      blocked: false,
      connected: false,
      birthdate: '1967-11-07',
      livein: 'France',
    });
    await viewer.api.post(api.follow(person.id), connectedSchema);
    expect(await viewer.api.get(api.userStats(person.id), userStatsSchema)).toMatchObject({
      connected: true,
      blocked: false,
    });
    await viewer.api.post(api.ban(person.id), blockedSchema);
    expect(await viewer.api.get(api.userStats(person.id), userStatsSchema)).toMatchObject({
      connected: false,
      blocked: true,
    });
    // The blocked user still sees the profile, without either flag: they neither follow nor blocked.
    expect(await person.api.get(api.userStats(viewer.id), userStatsSchema)).toMatchObject({
      connected: false,
      blocked: false,
    });
  });

  it('are the caller’s own with both flags off when asked for oneself', async () => {
    const user = await signUp(ctx);
    expect(await user.api.get(api.userStats(user.id), userStatsSchema)).toMatchObject({
      id: user.id,
      blocked: false,
      connected: false,
      question: 0,
    });
  });

  it('are 404 for an unknown user and 400 for an id that is not one', async () => {
    const viewer = await signUp(ctx);
    const unknown = await viewer.api.raw('GET', api.userStats(999999));
    expect(unknown.status).toBe(404);
    expect(unknown.error()).toEqual({ message: 'No such user' });
    for (const id of ['abc', '0', '-1', '1.5']) {
      const bad = await viewer.api.raw('GET', api.userStats(id));
      expect(bad.status, id).toBe(400);
      expect(bad.error().errors, id).toHaveProperty('user');
    }
  });
});

describe('connections', () => {
  it('list the users the caller follows, the latest first, with when it began and their counts', async () => {
    const user = await signUp(ctx);
    const first = await signUp(ctx, { firstName: 'First' });
    const second = await signUp(ctx, { firstName: 'Second' });
    const notFollowed = await signUp(ctx);
    await ask(first);
    const id = await ask(notFollowed);
    await second.api.post(api.answer(id), answerBodySchema, { choice: 1 }, questionSchema);
    await second.api.post(api.like(id), likedSchema);
    const before = Date.now();
    await user.api.post(api.follow(first.id), connectedSchema);
    await user.api.post(api.follow(second.id), connectedSchema);
    await first.api.post(api.follow(user.id), connectedSchema);

    const reply = await user.api.raw('GET', api.connections);
    expect(reply.status).toBe(200);
    const connections = reply.parse(connectionListSchema);
    expect(connections.map(({ time, ...rest }) => rest)).toEqual([
      { id: second.id, name: 'Second', question: 0, answer: 1, like: 1 },
      { id: first.id, name: 'First', question: 1, answer: 0, like: 0 },
    ]);
    for (const { time } of connections) {
      expect(new Date(time).toISOString()).toBe(time);
      expect(Date.parse(time)).toBeGreaterThanOrEqual(before - 1000);
    }
    expect(await notFollowed.api.get(api.connections, connectionListSchema)).toEqual([]);
  });
});
