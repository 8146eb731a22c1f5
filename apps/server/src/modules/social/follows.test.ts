import {
  api,
  blockedSchema,
  connectedSchema,
  connectionListSchema,
  loginBodySchema,
  notificationPageSchema,
  tokenResponseSchema,
  userStatsSchema,
} from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createTestApp, signUp, type TestContext, type TestUser } from '../../test/helper.js';
import { moderate, signUpAdmin } from '../../test/moderation.js';

const ADMIN_EMAIL = 'admin@pollscope.test';
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ adminEmails: [ADMIN_EMAIL] });
});
afterAll(() => ctx.close());

async function follows(user: TestUser): Promise<number[]> {
  return (await user.api.get(api.connections, connectionListSchema)).map((connection) => connection.id);
}

async function relation(viewer: TestUser, other: TestUser) {
  const { blocked, connected } = await viewer.api.get(api.userStats(other.id), userStatsSchema);
  return { blocked, connected };
}

describe('following', () => {
  it('answers { connected } and is harmless to repeat, both ways', async () => {
    const fan = await signUp(ctx);
    const star = await signUp(ctx);
    for (let round = 0; round < 2; round += 1) {
      const reply = await fan.api.raw('POST', api.follow(star.id));
      expect(reply.status).toBe(200);
      expect(reply.parse(connectedSchema.strict())).toEqual({ connected: true });
    }
    expect(await follows(fan)).toEqual([star.id]);
    expect(await follows(star)).toEqual([]);
    expect(await relation(fan, star)).toEqual({ blocked: false, connected: true });
    expect(await relation(star, fan)).toEqual({ blocked: false, connected: false });

    for (let round = 0; round < 2; round += 1) {
      const reply = await fan.api.raw('POST', api.unfollow(star.id));
      expect(reply.status).toBe(200);
      expect(reply.parse(connectedSchema.strict())).toEqual({ connected: false });
    }
    expect(await follows(fan)).toEqual([]);
    expect(await relation(fan, star)).toEqual({ blocked: false, connected: false });
  });

  it('refuses oneself with 400, an unknown user with 404 and a bad id with 400', async () => {
    const user = await signUp(ctx);
    for (const call of [api.follow, api.unfollow, api.ban, api.unban]) {
      const self = await user.api.raw('POST', call(user.id));
      expect(self.status).toBe(400);
      expect(self.error()).toEqual({ message: 'You cannot do that to yourself' });
      const unknown = await user.api.raw('POST', call(999999));
      expect(unknown.status).toBe(404);
      expect(unknown.error()).toEqual({ message: 'No such user' });
      const bad = await user.api.raw('POST', call('someone'));
      expect(bad.status).toBe(400);
      expect(bad.error().errors).toHaveProperty('user');
    }
    expect(await follows(user)).toEqual([]);
  });

  // Issue 43, finding 11: following a suspended person answered 200, and told them.
  it('answers 404 towards a suspended person, as their profile does, and tells them nothing', async () => {
    const admin = await signUpAdmin(ctx, ADMIN_EMAIL);
    const [fan, star] = [await signUp(ctx), await signUp(ctx)];
    const suspension = { target: 'user' as const, id: star.id, reason: 'Spam' };
    expect((await moderate(admin, { ...suspension, action: 'suspend' })).status).toBe(200);
    const followed = await fan.api.raw('POST', api.follow(star.id));
    const unknown = await fan.api.raw('POST', api.follow(star.id + 100_000));
    expect(followed.status).toBe(404);
    expect(followed.json()).toEqual(unknown.json());
    expect(await follows(fan)).toEqual([]);

    expect((await moderate(admin, { ...suspension, action: 'unsuspend' })).status).toBe(200);
    expect(await relation(fan, star)).toEqual({ blocked: false, connected: false });
    // The suspension ended the person's sessions: they sign in again.
    const { token } = await client(ctx.app).post(
      api.login,
      loginBodySchema,
      { email: star.email, password: 'correct horse' },
      tokenResponseSchema,
    );
    const { notifications } = await client(ctx.app, token).get(api.notifications, notificationPageSchema);
    expect(notifications.filter((notification) => notification.kind === 'follow')).toEqual([]);
  });

  it('is refused with 403 towards a user who blocked the caller or whom the caller blocked', async () => {
    const user = await signUp(ctx);
    const blocker = await signUp(ctx);
    const blocked = await signUp(ctx);
    await blocker.api.post(api.ban(user.id), blockedSchema);
    await user.api.post(api.ban(blocked.id), blockedSchema);
    for (const other of [blocker, blocked]) {
      const reply = await user.api.raw('POST', api.follow(other.id));
      expect(reply.status).toBe(403);
      expect(reply.error()).toEqual({ message: 'You cannot connect to this user' });
    }
    expect((await blocked.api.raw('POST', api.follow(user.id))).status).toBe(403);
    expect(await follows(user)).toEqual([]);
    expect(await follows(blocked)).toEqual([]);
    // Unfollowing stays possible.
    expect(await user.api.post(api.unfollow(blocker.id), connectedSchema)).toEqual({ connected: false });
  });
});

describe('blocking', () => {
  it('answers { blocked }, is harmless to repeat, and shows in the caller’s view of that user only', async () => {
    const user = await signUp(ctx);
    const other = await signUp(ctx);
    for (let round = 0; round < 2; round += 1) {
      const reply = await user.api.raw('POST', api.ban(other.id));
      expect(reply.status).toBe(200);
      expect(reply.parse(blockedSchema.strict())).toEqual({ blocked: true });
    }
    expect(await relation(user, other)).toEqual({ blocked: true, connected: false });
    expect(await relation(other, user)).toEqual({ blocked: false, connected: false });

    for (let round = 0; round < 2; round += 1) {
      expect(await user.api.post(api.unban(other.id), blockedSchema.strict())).toEqual({ blocked: false });
    }
    expect(await relation(user, other)).toEqual({ blocked: false, connected: false });
    expect((await user.api.raw('POST', api.follow(other.id))).status).toBe(200);
  });

  it('ends the follows between the two users, both ways, and they stay ended after unblocking', async () => {
    const user = await signUp(ctx);
    const other = await signUp(ctx);
    const bystander = await signUp(ctx);
    await user.api.post(api.follow(other.id), connectedSchema);
    await other.api.post(api.follow(user.id), connectedSchema);
    await user.api.post(api.follow(bystander.id), connectedSchema);
    await other.api.post(api.follow(bystander.id), connectedSchema);

    await other.api.post(api.ban(user.id), blockedSchema);
    expect(await follows(user)).toEqual([bystander.id]);
    expect(await follows(other)).toEqual([bystander.id]);
    await other.api.post(api.unban(user.id), blockedSchema);
    expect(await follows(user)).toEqual([bystander.id]);
    expect(await follows(other)).toEqual([bystander.id]);
  });
});
