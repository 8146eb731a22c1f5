import {
  accountExportSchema,
  answerBodySchema,
  api,
  blockedSchema,
  connectedSchema,
  deleteAccountBodySchema,
  likedSchema,
  loginBodySchema,
  moderationActionBodySchema,
  moderationLogEntrySchema,
  notificationPageSchema,
  pushKeySchema,
  pushPayloadSchema,
  questionSchema,
  settingsUpdateBodySchema,
  tokenResponseSchema,
  type PushPayload,
} from '@pollscope/contract';
import { signUpAdmin } from '../../test/moderation.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ask, client, createTestApp, restartApp, signUp, type TestContext, type TestUser } from '../../test/helper.js';
import {
  aDevice,
  startPushService,
  verifiedVapid,
  type TestDevice,
  type TestPushService,
} from '../../test/push-service.js';
import { RETRY_DELAYS_MINUTES } from './outbox.js';
import { PUSH_TTL_SECONDS } from './outbox.js';
import { hashToken } from '../auth/index.js';
import { SUBSCRIPTIONS_PER_PERSON } from './subscriptions.js';
import { metricValue } from '../../test/metrics-text.js';

let service: TestPushService;
let ctx: TestContext;
const ADMIN_EMAIL = 'admin@pollscope.example';

beforeAll(async () => {
  service = await startPushService();
  // The test's push service listens on 127.0.0.1 over http: the setting lets the server post to it.
  ctx = await createTestApp({
    pushAllowPrivateEndpoints: true,
    vapidSubject: 'mailto:ops@pollscope.example',
    adminEmails: [ADMIN_EMAIL],
  });
});
afterAll(async () => {
  await ctx?.close();
  await service?.stop();
});
beforeEach(() => service.answer(201));

const subscribe = async (user: TestUser, device: TestDevice) => {
  const reply = await user.api.raw('POST', api.pushSubscriptions, { endpoint: device.endpoint, keys: device.keys });
  expect(reply.status, reply.text).toBe(201);
};
const personWithDevice = async (firstName: string) => {
  const user = await signUp(ctx, { firstName });
  const device = aDevice(service);
  await subscribe(user, device);
  return { user, device };
};
/** One round of the outbox's worker, now or at a later time, as the worker runs them every second. */
const round = (at?: Date) => ctx.app.push.round(at);
const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000);
const outbox = () => ctx.database.db.selectFrom('push_outbox').selectAll().execute();
/** Oldest first: PostgreSQL returns rows in no set order without one. */
const subscriptionsOf = (user: TestUser) =>
  ctx.database.db.selectFrom('push_subscriptions').selectAll().where('user_id', '=', user.id).orderBy('id').execute();
const notificationIdsOf = async (user: TestUser) =>
  (await user.api.get(api.notifications, notificationPageSchema)).notifications.map((notification) => notification.id);
const pushesTo = (device: TestDevice): PushPayload[] =>
  device.pushes(service).map((payload) => pushPayloadSchema.strict().parse(payload));
let admin: TestUser | undefined;
/** The admin of ADMIN_EMAIL, registered by the first test that needs one. */
const theAdmin = async () => (admin ??= await signUpAdmin(ctx, ADMIN_EMAIL));
const act = async (body: z.input<typeof moderationActionBodySchema>) =>
  (await theAdmin()).api.post(api.moderationActions, moderationActionBodySchema, body, moderationLogEntrySchema);
const follow = (follower: TestUser, followee: TestUser) => follower.api.post(api.follow(followee.id), connectedSchema);
const like = (user: TestUser, question: number) => user.api.post(api.like(question), likedSchema);
/**
 * Runs `steps` while the push service refuses every push, so that the worker, which runs a round
 * every second, delivers nothing in between; then the service takes pushes again and a round later
 * than every retry's delay sends what is left to send. A round of the worker under way when the
 * steps end (one that read its device before a step changed it) finishes first, refused too: a
 * round as of long ago finds nothing due, but waits for it.
 */
async function deliveredAfter(steps: () => Promise<void>): Promise<void> {
  service.answer(503);
  await steps();
  await round(new Date(0));
  service.answer(201);
  await round(minutesFromNow(RETRY_DELAYS_MINUTES[0] + 1));
}

/** A series of the instance's /metrics. */
async function metric(series: string): Promise<number> {
  const value = metricValue((await ctx.app.inject({ url: '/metrics' })).body, series);
  if (value === undefined) throw new Error(`No series ${series} in /metrics`);
  return value;
}

describe('the VAPID key', () => {
  it('is given to anyone, the same after a restart: generated once and kept in the database', async () => {
    const { key } = await client(ctx.app).get(api.pushKey, pushKeySchema);
    expect(Buffer.from(key, 'base64url')).toHaveLength(65);
    expect(Buffer.from(key, 'base64url')[0]).toBe(4);
    await restartApp(ctx);
    expect(await client(ctx.app).get(api.pushKey, pushKeySchema)).toEqual({ key });
    expect(await ctx.database.db.selectFrom('vapid_keys').select('public_key').execute()).toEqual([
      { public_key: key },
    ]);
  });
});

describe('a push', () => {
  it('tells a person who followed them, encrypted for their device and signed with the VAPID key', async () => {
    const { user: ann, device } = await personWithDevice('Ann');
    const bob = await signUp(ctx, { firstName: 'Bob' });
    await follow(bob, ann);
    await round();

    const [push] = service.delivered().filter((received) => device.endpoint.endsWith(received.path));
    const [notificationId] = await notificationIdsOf(ann);
    expect(pushesTo(device)).toEqual([
      {
        kind: 'follow',
        title: 'Bob followed you',
        body: 'See what they ask on Pollscope',
        url: `/user/${bob.id}`,
        notification_id: notificationId,
      },
    ]);
    expect(push.headers['content-encoding']).toBe('aes128gcm');
    // Worth showing for a day after the follow, give or take the seconds this test took.
    const ttl = Number(push.headers.ttl);
    expect(ttl).toBeLessThanOrEqual(PUSH_TTL_SECONDS);
    expect(ttl).toBeGreaterThan(PUSH_TTL_SECONDS - 60);
    expect(push.headers.urgency).toBe('normal');
    expect(push.headers.topic).toBe(`n${notificationId}`);

    const vapid = verifiedVapid(push.headers.authorization);
    const { key } = await client(ctx.app).get(api.pushKey, pushKeySchema);
    expect(vapid.key).toBe(key);
    expect(vapid.aud).toBe(service.origin);
    expect(vapid.sub).toBe('mailto:ops@pollscope.example');
    const now = Date.now() / 1000;
    expect(vapid.exp).toBeGreaterThan(now);
    expect(vapid.exp).toBeLessThanOrEqual(now + 24 * 3600);
    // Pushed once: the outbox holds nothing more, and another round sends nothing.
    expect(await outbox()).toEqual([]);
    await round();
    expect(pushesTo(device)).toHaveLength(1);
  });

  it('reaches each of the person’s devices, and nobody else’s', async () => {
    const { user: ann, device: phone } = await personWithDevice('Ann');
    const laptop = aDevice(service);
    await subscribe(ann, laptop);
    const { user: carl, device: carlsPhone } = await personWithDevice('Carl');
    await follow(carl, ann);
    await round();
    expect(pushesTo(phone).map((push) => push.title)).toEqual(['Carl followed you']);
    expect(pushesTo(laptop).map((push) => push.title)).toEqual(['Carl followed you']);
    expect(pushesTo(carlsPhone)).toEqual([]);
  });

  it('tells of likes, those that joined one notification before it went out in one push, and pushes again when more join', async () => {
    const { user: ann, device } = await personWithDevice('Ann');
    const question = await ask(ann, { question: 'Tea or coffee?' });
    const [bob, cleo, dan] = [
      await signUp(ctx, { firstName: 'Bob' }),
      await signUp(ctx, { firstName: 'Cleo' }),
      await signUp(ctx, { firstName: 'Dan' }),
    ];
    await deliveredAfter(async () => {
      await like(bob, question);
      await like(cleo, question);
    });
    const [notificationId] = await notificationIdsOf(ann);
    const likes = {
      kind: 'like',
      body: 'Tea or coffee?',
      url: `/question/${question}`,
      notification_id: notificationId,
    };
    expect(pushesTo(device)).toEqual([{ ...likes, title: 'Cleo and Bob liked your question' }]);

    await like(dan, question);
    await round();
    expect(pushesTo(device)).toEqual([
      { ...likes, title: 'Cleo and Bob liked your question' },
      { ...likes, title: 'Dan and 2 others liked your question' },
    ]);
  });

  it('is written in the recipient’s language, not the sender’s: Japanese for a Japanese author', async () => {
    const { user: hana, device } = await personWithDevice('Hana');
    await ctx.database.db.updateTable('users').set({ language: 'ja' }).where('id', '=', hana.id).execute();
    const question = await ask(hana, { question: 'お茶とコーヒー、どっち？' });
    // The likers write in German and French: the push is in Hana's language all the same.
    const likers = [await signUp(ctx, { firstName: 'Bob' }), await signUp(ctx, { firstName: 'Cleo' })];
    await ctx.database.db.updateTable('users').set({ language: 'de' }).where('id', '=', likers[0].id).execute();
    await ctx.database.db.updateTable('users').set({ language: 'fr' }).where('id', '=', likers[1].id).execute();
    await deliveredAfter(async () => {
      for (const liker of likers) await like(liker, question);
    });
    const dan = await signUp(ctx, { firstName: 'Dan' });
    await like(dan, question);
    await round();
    expect(pushesTo(device).map(({ title, body }) => ({ title, body }))).toEqual([
      { title: 'CleoさんとBobさんがあなたの質問にいいねしました', body: 'お茶とコーヒー、どっち？' },
      { title: 'Danさんとほか2人があなたの質問にいいねしました', body: 'お茶とコーヒー、どっち？' },
    ]);

    await follow(dan, hana);
    await round();
    expect(pushesTo(device).at(-1)).toMatchObject({
      kind: 'follow',
      title: 'Danさんにフォローされました',
      body: 'Pollscopeでどんな質問をしているか見てみましょう',
    });
  });

  it('tells the author of each milestone of votes, as the notification does', async () => {
    const { user: ann, device } = await personWithDevice('Ann');
    const question = await ask(ann, { question: 'Cats or dogs?' });
    const voter = await signUp(ctx);
    await voter.api.post(api.answer(question), answerBodySchema, { choice: 1 }, questionSchema);
    await round();
    const [notificationId] = await notificationIdsOf(ann);
    expect(pushesTo(device)).toEqual([
      {
        kind: 'votes',
        title: 'Your question reached 1 vote',
        body: 'Cats or dogs?',
        url: `/question/${question}`,
        notification_id: notificationId,
      },
    ]);
    expect(service.delivered().find((push) => device.endpoint.endsWith(push.path))?.headers.urgency).toBe('low');
  });

  it('tells a person what a moderator did and why, on their question or their account', async () => {
    const { user: ann, device } = await personWithDevice('Ann');
    const question = await ask(ann, { question: 'Who is the worst?' });
    await act({ target: 'question', id: question, action: 'remove', reason: 'Harassment of a private person' });
    await act({ target: 'user', id: ann.id, action: 'warn', reason: 'Be kind' });
    await round();
    const notificationIds = await ctx.database.db
      .selectFrom('notifications')
      .select('id')
      .where('user_id', '=', ann.id)
      .orderBy('id')
      .execute();
    const moderation = { kind: 'moderation' };
    expect(pushesTo(device)).toEqual([
      {
        ...moderation,
        title: 'A moderator removed your question',
        body: 'Harassment of a private person',
        url: `/question/${question}`,
        notification_id: notificationIds[0].id,
      },
      {
        ...moderation,
        title: 'A moderator warned you',
        body: 'Be kind',
        url: '/notifications',
        notification_id: notificationIds[1].id,
      },
    ]);
  });

  it('is never sent of what a person the recipient blocked did, as the bell does not show it', async () => {
    const { user: ann, device } = await personWithDevice('Ann');
    const question = await ask(ann);
    const [troll, fan] = [await signUp(ctx, { firstName: 'Troll' }), await signUp(ctx, { firstName: 'Fan' })];
    await deliveredAfter(async () => {
      await follow(troll, ann);
      await like(troll, question);
      // Blocked before either was pushed: neither is.
      await ann.api.post(api.ban(troll.id), blockedSchema);
      await follow(fan, ann);
    });
    expect(pushesTo(device).map((push) => push.title)).toEqual(['Fan followed you']);
    expect(await outbox()).toEqual([]);
  });

  it('waits in the outbox while the push service fails, and is delivered once when it is back', async () => {
    const { user: ann, device } = await personWithDevice('Ann');
    const bob = await signUp(ctx, { firstName: 'Bob' });
    const failuresBefore = await metric('pollscope_push_failures_total');
    service.answer(503);
    await follow(bob, ann);
    await round();
    expect(service.received.filter((push) => device.endpoint.endsWith(push.path)).map((push) => push.status)).toEqual([
      503,
    ]);
    expect(await outbox()).toMatchObject([
      { attempts: 1, last_error: expect.stringContaining('503'), given_up_at: null },
    ]);
    expect(await metric('pollscope_push_failures_total')).toBe(failuresBefore + 1);
    expect(await metric('pollscope_push_outbox_waiting')).toBe(1);
    expect(await metric('pollscope_push_outbox_oldest_age_seconds')).toBeGreaterThanOrEqual(0);

    // Not listening at all: the next retry fails too.
    await service.stop();
    await round(minutesFromNow(RETRY_DELAYS_MINUTES[0] + 0.5));
    expect(await outbox()).toMatchObject([{ attempts: 2, given_up_at: null }]);
    // Back, but not due before its next delay.
    await service.start();
    service.answer(201);
    await round(minutesFromNow(RETRY_DELAYS_MINUTES[0] + 1));
    expect(pushesTo(device)).toEqual([]);

    await round(minutesFromNow(RETRY_DELAYS_MINUTES[0] + RETRY_DELAYS_MINUTES[1] + 1));
    expect(pushesTo(device).map((push) => push.title)).toEqual(['Bob followed you']);
    expect(await outbox()).toEqual([]);
    expect(await metric('pollscope_push_outbox_waiting')).toBe(0);
    expect(await metric('pollscope_push_outbox_oldest_age_seconds')).toBe(0);
    await round(minutesFromNow(24 * 60));
    expect(pushesTo(device)).toHaveLength(1);
  });

  it('is given up after its last retry, and stays in the outbox for an operator', async () => {
    const { user: ann, device } = await personWithDevice('Ann');
    service.answer(500);
    await follow(await signUp(ctx), ann);
    let minutes = 0;
    for (const delay of [0, ...RETRY_DELAYS_MINUTES]) {
      minutes += delay;
      await round(minutesFromNow(minutes + 0.5));
    }
    expect(service.received.filter((push) => device.endpoint.endsWith(push.path))).toHaveLength(
      RETRY_DELAYS_MINUTES.length + 1,
    );
    expect(await outbox()).toMatchObject([
      { attempts: RETRY_DELAYS_MINUTES.length + 1, given_up_at: expect.any(String) },
    ]);
    expect(await metric('pollscope_push_outbox_given_up')).toBe(1);
    expect(await metric('pollscope_push_outbox_waiting')).toBe(0);
    await ctx.database.db.deleteFrom('push_outbox').execute();
  });

  it('ends a subscription whose push service answers that it is gone (410 or 404)', async () => {
    for (const status of [410, 404]) {
      const { user: ann, device } = await personWithDevice('Ann');
      const removedBefore = await metric('pollscope_push_subscriptions_removed_total');
      service.answer(status);
      await follow(await signUp(ctx), ann);
      await round();
      expect(await subscriptionsOf(ann)).toEqual([]);
      expect(await outbox()).toEqual([]);
      expect(await metric('pollscope_push_subscriptions_removed_total')).toBe(removedBefore + 1);
      // Nothing is pushed to it any more.
      service.answer(201);
      await follow(await signUp(ctx), ann);
      await round();
      expect(service.received.filter((push) => device.endpoint.endsWith(push.path)).map((push) => push.status)).toEqual(
        [status],
      );
    }
  });
});

describe('a subscription', () => {
  it('is one row per endpoint: the same endpoint again takes the new keys, or passes to whoever subscribes it', async () => {
    const { user: ann, device } = await personWithDevice('Ann');
    const renewed = aDevice(service, device.endpoint);
    await subscribe(ann, renewed);
    expect(await subscriptionsOf(ann)).toMatchObject([
      { endpoint: device.endpoint, p256dh: renewed.keys.p256dh, auth: renewed.keys.auth },
    ]);
    await follow(await signUp(ctx, { firstName: 'Bob' }), ann);
    await round();
    expect(pushesTo(renewed).map((push) => push.title)).toEqual(['Bob followed you']);

    // Ann signs out of that browser and Eve signs in and turns push on: Ann's next notification is not pushed to it.
    const eve = await signUp(ctx, { firstName: 'Eve' });
    const cy = await signUp(ctx, { firstName: 'Cy' });
    await deliveredAfter(async () => {
      await follow(cy, ann);
      await subscribe(eve, renewed);
    });
    expect(await subscriptionsOf(ann)).toEqual([]);
    expect(await subscriptionsOf(eve)).toHaveLength(1);
    expect(pushesTo(renewed).map((push) => push.title)).toEqual(['Bob followed you']);
  });

  it('ends with DELETE, the caller’s own only, and 204 whether or not it was there', async () => {
    const { user: ann, device } = await personWithDevice('Ann');
    const mallory = await signUp(ctx);
    expect((await mallory.api.raw('DELETE', api.pushSubscriptions, { endpoint: device.endpoint })).status).toBe(204);
    expect(await subscriptionsOf(ann)).toHaveLength(1);
    const bob = await signUp(ctx);
    await deliveredAfter(async () => {
      await follow(bob, ann);
      expect((await ann.api.raw('DELETE', api.pushSubscriptions, { endpoint: device.endpoint })).status).toBe(204);
      expect(await subscriptionsOf(ann)).toEqual([]);
      // The push that waited for it goes with it.
      expect(await outbox()).toEqual([]);
    });
    expect(pushesTo(device)).toEqual([]);
    expect((await ann.api.raw('DELETE', api.pushSubscriptions, { endpoint: device.endpoint })).status).toBe(204);
    const anonymous = await client(ctx.app).raw('DELETE', api.pushSubscriptions, { endpoint: device.endpoint });
    expect(anonymous.status).toBe(401);
  });

  it('keeps the newest of too many devices', async () => {
    const ann = await signUp(ctx);
    const devices = Array.from({ length: SUBSCRIPTIONS_PER_PERSON + 2 }, () => aDevice(service));
    for (const device of devices) await subscribe(ann, device);
    expect((await subscriptionsOf(ann)).map((row) => row.endpoint)).toEqual(
      devices.slice(2).map((device) => device.endpoint),
    );
  });

  it('is refused with 400 when its keys are not a P-256 key and a 16-byte secret', async () => {
    const ann = await signUp(ctx);
    const device = aDevice(service);
    const cases = [
      [{ ...device.keys, p256dh: Buffer.alloc(65, 4).toString('base64url') }, 'keys.p256dh'],
      [{ ...device.keys, p256dh: device.keys.p256dh.slice(0, 40) }, 'keys.p256dh'],
      [{ ...device.keys, auth: Buffer.alloc(12).toString('base64url') }, 'keys.auth'],
      [{ ...device.keys, auth: 'not base64url!' }, 'keys.auth'],
    ] as const;
    for (const [keys, field] of cases) {
      const reply = await ann.api.raw('POST', api.pushSubscriptions, { endpoint: device.endpoint, keys });
      expect(reply.status, field).toBe(400);
      expect(Object.keys(reply.error().errors ?? {})).toEqual([field]);
    }
    expect(await subscriptionsOf(ann)).toEqual([]);
  });

  it('is listed by endpoint in the account’s export, and goes with the account', async () => {
    const { user: ann, device } = await personWithDevice('Ann');
    const exported = accountExportSchema.parse(JSON.parse((await ann.api.raw('GET', api.exportAccount)).text));
    expect(exported.push_subscriptions).toEqual([{ endpoint: device.endpoint, created_at: expect.any(String) }]);
    expect(JSON.stringify(exported)).not.toContain(device.keys.auth);

    await follow(await signUp(ctx), ann);
    await ann.api.post(api.deleteAccount, deleteAccountBodySchema, { password: 'correct horse' }, z.null());
    expect(await subscriptionsOf(ann)).toEqual([]);
    expect(await outbox()).toEqual([]);
  });
});

// Issue 43, finding 5: a device kept getting pushes after the token that subscribed it ended, and while suspended.
/** A new password set in the settings, from the device of `as`. */
const setNewPassword = (as: TestUser['api'], email: string) =>
  as.post(
    api.settings,
    settingsUpdateBodySchema,
    { email, notification: true, password: 'battery staple', current_password: 'correct horse' },
    z.unknown(),
  );

describe('a subscription made with a token', () => {
  /** The person signed in once more, as on another device: a session of its own. */
  const signedInAgain = async (user: TestUser): Promise<TestUser> => {
    const { token } = await client(ctx.app).post(
      api.login,
      loginBodySchema,
      { email: user.email, password: 'correct horse' },
      tokenResponseSchema,
    );
    return { ...user, token, api: client(ctx.app, token) };
  };
  const titlesTo = (device: TestDevice) => pushesTo(device).map((push) => push.title);

  it('ends when that token signs out, or when a new password is set with another', async () => {
    const { user: ann, device: phone } = await personWithDevice('Ann');
    const onLaptop = await signedInAgain(ann);
    const laptop = aDevice(service);
    await subscribe(onLaptop, laptop);
    const onTablet = await signedInAgain(ann);
    const tablet = aDevice(service);
    await subscribe(onTablet, tablet);

    expect((await onTablet.api.raw('POST', api.logout)).status).toBe(204);
    await follow(await signUp(ctx, { firstName: 'Bob' }), ann);
    await round();
    expect(titlesTo(tablet)).toEqual([]);
    expect(titlesTo(phone)).toEqual(['Bob followed you']);

    await setNewPassword(onLaptop.api, ann.email);
    await follow(await signUp(ctx, { firstName: 'Cleo' }), ann);
    await round();
    // The phone's token ended with the new password; the laptop, which set it, stays signed in and keeps push.
    expect(titlesTo(phone)).toEqual(['Bob followed you']);
    expect(titlesTo(laptop)).toEqual(['Bob followed you', 'Cleo followed you']);
    expect((await subscriptionsOf(ann)).map((row) => row.endpoint)).toEqual([laptop.endpoint]);
  });

  it('ends, every one of the person, when a link sets a new password', async () => {
    const { user: ann, device: phone } = await personWithDevice('Ann');
    const laptop = aDevice(service);
    await subscribe(await signedInAgain(ann), laptop);
    // As the mailed link carries it.
    const link = `reset-link-of-${ann.id}`;
    await ctx.database.db
      .insertInto('password_reset_tokens')
      .values({
        token_hash: hashToken(link),
        user_id: ann.id,
        created_at: new Date().toISOString(),
        expires_at: minutesFromNow(30).toISOString(),
      })
      .execute();
    const reset = await client(ctx.app).raw('POST', api.passwordResetConfirm, {
      token: link,
      password: 'a brand new horse',
    });
    expect(reset.status).toBe(200);
    await follow(await signUp(ctx, { firstName: 'Bob' }), ann);
    await round();
    expect(titlesTo(phone)).toEqual([]);
    expect(titlesTo(laptop)).toEqual([]);
    expect(await subscriptionsOf(ann)).toEqual([]);
  });

  it('ends with a suspension, with what waited to be pushed to it', async () => {
    const { user: ann, device } = await personWithDevice('Ann');
    await deliveredAfter(async () => {
      await follow(await signUp(ctx, { firstName: 'Bob' }), ann);
      await act({ target: 'user', id: ann.id, action: 'suspend', reason: 'Spam', until: '2031-05-01T12:30:00.000Z' });
    });
    // Neither the follow that waited nor the notice of the suspension, which is mailed.
    expect(titlesTo(device)).toEqual([]);
    expect(await subscriptionsOf(ann)).toEqual([]);
    expect(await outbox()).toEqual([]);
  });

  it('of no token, as subscriptions were kept before they had one, ends at the next new password', async () => {
    const ann = await signUp(ctx, { firstName: 'Ann' });
    const device = aDevice(service);
    await ctx.database.db
      .insertInto('push_subscriptions')
      .values({ user_id: ann.id, endpoint: device.endpoint, ...device.keys, created_at: new Date().toISOString() })
      .execute();
    await follow(await signUp(ctx, { firstName: 'Bob' }), ann);
    await round();
    expect(titlesTo(device)).toEqual(['Bob followed you']);

    await setNewPassword(ann.api, ann.email);
    await follow(await signUp(ctx, { firstName: 'Cleo' }), ann);
    await round();
    expect(titlesTo(device)).toEqual(['Bob followed you']);
  });
});
