import { api, connectedSchema, notificationPageSchema, pushKeySchema, pushPayloadSchema } from '@pollscope/contract';
import type { FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { client, createTestApp, signUp, withSecondInstance, type TestContext } from '../../test/helper.js';
import { aDevice, startPushService, verifiedVapid, type TestPushService } from '../../test/push-service.js';
import { metricValue } from '../../test/metrics-text.js';

// Run by `npm test` on its PostgreSQL pass, which finds a Redis or says why it cannot run this.
const redisUrl = process.env.TEST_REDIS_URL;
if (!process.env.TEST_DATABASE_URL || !redisUrl)
  throw new Error('This test needs TEST_DATABASE_URL and TEST_REDIS_URL');

let service: TestPushService;
/** Two instances of one deployment on one database and one Redis, each with its push worker. */
let one: TestContext;
let two: FastifyInstance;

beforeAll(async () => {
  service = await startPushService();
  one = await createTestApp({
    redisUrl,
    redisPrefix: `pollscope-test-${randomBytes(6).toString('hex')}:`,
    pushAllowPrivateEndpoints: true,
  });
  two = await withSecondInstance(one);
});
afterAll(async () => {
  await one?.close();
  await service?.stop();
});

/** A series of an instance's /metrics. */
async function metric(app: FastifyInstance, series: string): Promise<number> {
  return Number(metricValue((await app.inject({ url: '/metrics' })).body, series));
}

it('pushes each notification exactly once with two instances sending', async () => {
  // Both sign with the key the first to start kept in the database.
  const { key } = await client(one.app).get(api.pushKey, pushKeySchema);
  expect(await client(two).get(api.pushKey, pushKeySchema)).toEqual({ key });

  const people = await Promise.all(
    Array.from({ length: 30 }, (_, index) => signUp(one, { firstName: `Person ${index + 1}` })),
  );
  const devices = people.map(() => aDevice(service));
  const subscribed = await Promise.all(
    people.map((person, index) =>
      person.api.raw('POST', api.pushSubscriptions, { endpoint: devices[index].endpoint, keys: devices[index].keys }),
    ),
  );
  expect(subscribed.map((reply) => reply.status)).toEqual(people.map(() => 201));
  const followers = await Promise.all(['Ann', 'Bob', 'Cy'].map((firstName) => signUp(one, { firstName })));
  // Half the follows through each instance, all at once: each writes its notification's pushes.
  await Promise.all(
    followers.flatMap((follower, which) =>
      people.map((person, index) =>
        client((index + which) % 2 === 0 ? one.app : two, follower.token).post(api.follow(person.id), connectedSchema),
      ),
    ),
  );

  // Both instances' rounds at once, over and over, beside their own workers, until nothing is left.
  const waiting = () => one.database.db.selectFrom('push_outbox').select('id').execute();
  for (let rounds = 0; (await waiting()).length > 0; rounds += 1) {
    expect(rounds, 'rounds before the outbox was empty').toBeLessThan(50);
    await Promise.all([one.app.push.round(), two.push.round()]);
  }

  for (const [index, person] of people.entries()) {
    const notificationIds = (await person.api.get(api.notifications, notificationPageSchema)).notifications.map(
      (notification) => notification.id,
    );
    const pushed = devices[index].pushes(service).map((payload) => pushPayloadSchema.parse(payload));
    expect(pushed.map((push) => push.notification_id).sort((a, b) => a - b)).toEqual(
      notificationIds.sort((a, b) => a - b),
    );
    expect(pushed.map((push) => push.title).sort()).toEqual([
      'Ann followed you',
      'Bob followed you',
      'Cy followed you',
    ]);
  }
  expect(service.delivered()).toHaveLength(people.length * followers.length);
  expect(service.delivered().every((push) => verifiedVapid(push.headers.authorization).key === key)).toBe(true);
  const sent = (await metric(one.app, 'pollscope_push_sent_total')) + (await metric(two, 'pollscope_push_sent_total'));
  expect(sent).toBe(people.length * followers.length);
});
