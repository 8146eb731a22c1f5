import { api, blockedSchema, connectedSchema, connectionListSchema, userStatsSchema } from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestContext, type TestUser } from '../../test/helper.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

async function follows(user: TestUser): Promise<number[]> {
  return connectionListSchema.parse((await user.api.get(api.connections)).body).map((connection) => connection.id);
}

async function relation(viewer: TestUser, other: TestUser) {
  const { blocked, connected } = userStatsSchema.parse((await viewer.api.get(api.userStats(other.id))).body);
  return { blocked, connected };
}

describe('following', () => {
  it('answers { connected } and is harmless to repeat, both ways', async () => {
    const fan = await signUp(ctx);
    const star = await signUp(ctx);
    for (let round = 0; round < 2; round += 1) {
      const reply = await fan.api.post(api.follow(star.id));
      expect(reply.status).toBe(200);
      expect(connectedSchema.strict().parse(reply.body)).toEqual({ connected: true });
    }
    expect(await follows(fan)).toEqual([star.id]);
    expect(await follows(star)).toEqual([]);
    expect(await relation(fan, star)).toEqual({ blocked: false, connected: true });
    expect(await relation(star, fan)).toEqual({ blocked: false, connected: false });

    for (let round = 0; round < 2; round += 1) {
      const reply = await fan.api.post(api.unfollow(star.id));
      expect(reply.status).toBe(200);
      expect(connectedSchema.strict().parse(reply.body)).toEqual({ connected: false });
    }
    expect(await follows(fan)).toEqual([]);
    expect(await relation(fan, star)).toEqual({ blocked: false, connected: false });
  });

  it('refuses oneself with 400, an unknown user with 404 and a bad id with 400', async () => {
    const user = await signUp(ctx);
    for (const call of [api.follow, api.unfollow, api.ban, api.unban]) {
      const self = await user.api.post(call(user.id));
      expect(self.status).toBe(400);
      expect(self.body).toEqual({ message: 'You cannot do that to yourself' });
      const unknown = await user.api.post(call(999999));
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ message: 'No such user' });
      const bad = await user.api.post(call('someone'));
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toHaveProperty('user');
    }
    expect(await follows(user)).toEqual([]);
  });

  it('is refused with 403 towards a user who blocked the caller or whom the caller blocked', async () => {
    const user = await signUp(ctx);
    const blocker = await signUp(ctx);
    const blocked = await signUp(ctx);
    await blocker.api.post(api.ban(user.id));
    await user.api.post(api.ban(blocked.id));
    for (const other of [blocker, blocked]) {
      const reply = await user.api.post(api.follow(other.id));
      expect(reply.status).toBe(403);
      expect(reply.body).toEqual({ message: 'You cannot connect to this user' });
    }
    expect((await blocked.api.post(api.follow(user.id))).status).toBe(403);
    expect(await follows(user)).toEqual([]);
    expect(await follows(blocked)).toEqual([]);
    // Unfollowing stays possible.
    expect((await user.api.post(api.unfollow(blocker.id))).body).toEqual({ connected: false });
  });
});

describe('blocking', () => {
  it('answers { blocked }, is harmless to repeat, and shows in the caller’s view of that user only', async () => {
    const user = await signUp(ctx);
    const other = await signUp(ctx);
    for (let round = 0; round < 2; round += 1) {
      const reply = await user.api.post(api.ban(other.id));
      expect(reply.status).toBe(200);
      expect(blockedSchema.strict().parse(reply.body)).toEqual({ blocked: true });
    }
    expect(await relation(user, other)).toEqual({ blocked: true, connected: false });
    expect(await relation(other, user)).toEqual({ blocked: false, connected: false });

    for (let round = 0; round < 2; round += 1) {
      expect(blockedSchema.strict().parse((await user.api.post(api.unban(other.id))).body)).toEqual({ blocked: false });
    }
    expect(await relation(user, other)).toEqual({ blocked: false, connected: false });
    expect((await user.api.post(api.follow(other.id))).status).toBe(200);
  });

  it('ends the follows between the two users, both ways, and they stay ended after unblocking', async () => {
    const user = await signUp(ctx);
    const other = await signUp(ctx);
    const bystander = await signUp(ctx);
    await user.api.post(api.follow(other.id));
    await other.api.post(api.follow(user.id));
    await user.api.post(api.follow(bystander.id));
    await other.api.post(api.follow(bystander.id));

    await other.api.post(api.ban(user.id));
    expect(await follows(user)).toEqual([bystander.id]);
    expect(await follows(other)).toEqual([bystander.id]);
    await other.api.post(api.unban(user.id));
    expect(await follows(user)).toEqual([bystander.id]);
    expect(await follows(other)).toEqual([bystander.id]);
  });
});
