import {
  answerBodySchema,
  api,
  connectedSchema,
  loginBodySchema,
  questionSchema,
  tokenResponseSchema,
} from '@pollscope/contract';
import type { FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../../test/client.js';
import {
  ask,
  client,
  createTestApp,
  secondInstance,
  signUp,
  type TestContext,
  type TestUser,
} from '../../test/helper.js';
import {
  activeReporters,
  EVERY_PLACE,
  moderate,
  placesShowing,
  report,
  sharedStatuses,
  type Findable,
  signUpAdmin,
} from '../../test/moderation.js';

// Run by `npm test` on its PostgreSQL pass, which finds a Redis or says why it cannot run this.
const redisUrl = process.env.TEST_REDIS_URL;
if (!process.env.TEST_DATABASE_URL || !redisUrl)
  throw new Error('This test needs TEST_DATABASE_URL and TEST_REDIS_URL');

const HOUR = 3_600_000;
const ADMIN_EMAIL = 'admin@pollscope.test';

/** Two instances of one deployment: each action is taken on one, and both must show it. */
let one: TestContext;
let two: FastifyInstance;
let closeTwo: (() => Promise<void>) | undefined;
let admin: TestUser;
beforeAll(async () => {
  one = await createTestApp({
    redisUrl,
    redisPrefix: `pollscope-test-${randomBytes(6).toString('hex')}:`,
    adminEmails: [ADMIN_EMAIL],
    reportHideThreshold: 2,
  });
  ({ app: two, close: closeTwo } = await secondInstance(one));
  admin = await signUpAdmin(one, ADMIN_EMAIL);
});
afterAll(async () => {
  vi.useRealTimers();
  await closeTwo?.();
  await one?.close();
});

const instances = () =>
  [
    ['one', one.app],
    ['two', two],
  ] as const;
const as = (app: FastifyInstance, user: TestUser): ApiClient => client(app, user.token);

/** What instance two shows, once the change made on one has reached it over Redis. */
const eventually = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 5_000, interval: 50 });

let asked = 0;
/**
 * A question in every list for `reader`, who follows its author and answered it; both instances keep each list before
 * the test acts.
 */
async function findableOnBoth(author: TestUser, reader: TestUser): Promise<Findable> {
  asked += 1;
  const word = `narwhal${asked}x`;
  const question = { category: 8, tag: `i${asked}${author.id}`, word };
  const id = await ask(author, { question: `Is the ${word} real?`, category: question.category, tags: [question.tag] });
  await reader.api.post(api.follow(author.id), connectedSchema);
  await reader.api.post(api.answer(id), answerBodySchema, { choice: 1 }, questionSchema);
  const findable = { id, authorId: author.id, ...question };
  for (const [name, app] of instances()) {
    await eventually(async () => expect(await placesShowing(as(app, reader), findable), name).toEqual(EVERY_PLACE));
    expect(await sharedStatuses(app, id), name).toEqual({ page: 200, picture: 200 });
  }
  return findable;
}

/**
 * Every place, the question page, the share page and its picture on both instances, as `reader` and a visitor see them.
 */
async function expectWithheldOnBoth(question: Findable, reader: TestUser, withheld: boolean): Promise<void> {
  for (const [name, app] of instances()) {
    await eventually(async () =>
      expect(await placesShowing(as(app, reader), question), name).toEqual(withheld ? [] : EVERY_PLACE),
    );
    expect((await as(app, reader).raw('GET', api.question(question.id))).status, name).toBe(withheld ? 404 : 200);
    expect(await sharedStatuses(app, question.id), name).toEqual(
      withheld ? { page: 410, picture: 404 } : { page: 200, picture: 200 },
    );
  }
}

describe('moderation on two instances', () => {
  it('withholds a removed question everywhere on both, and shows it again once restored', async () => {
    const [author, reader] = [await signUp(one), await signUp(one)];
    const question = await findableOnBoth(author, reader);
    expect(
      (await moderate(admin, { target: 'question', id: question.id, action: 'remove', reason: 'Spam' })).status,
    ).toBe(200);
    await expectWithheldOnBoth(question, reader, true);
    for (const [name, app] of instances())
      expect((await as(app, author).get(api.question(question.id), questionSchema)).moderation, name).toEqual({
        status: 'removed',
        reason: 'Spam',
      });
    expect(
      (
        await moderate(client(two, admin.token), {
          target: 'question',
          id: question.id,
          action: 'restore',
          reason: 'Not spam',
        })
      ).status,
    ).toBe(200);
    await expectWithheldOnBoth(question, reader, false);
  });

  it('hides a question reported by enough people on both, and shows it again once dismissed', async () => {
    const [author, reader] = [await signUp(one), await signUp(one)];
    const reporters = await activeReporters(one, 2);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 25 * HOUR);
    try {
      const question = await findableOnBoth(author, reader);
      expect((await report(as(two, reporters[0]), 'question', question.id, 'hate')).status).toBe(201);
      expect((await report(as(one.app, reporters[1]), 'question', question.id, 'hate')).status).toBe(201);
      await expectWithheldOnBoth(question, reader, true);
      expect((await as(two, author).get(api.question(question.id), questionSchema)).moderation).toEqual({
        status: 'under_review',
        reason: null,
      });
      expect(
        (await moderate(admin, { target: 'question', id: question.id, action: 'dismiss', reason: 'Fine' })).status,
      ).toBe(200);
      await expectWithheldOnBoth(question, reader, false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('ends every session of a suspended person on both instances before the action answers', async () => {
    const [suspect, reader] = [await signUp(one), await signUp(one)];
    const question = await findableOnBoth(suspect, reader);
    const { token: other } = await client(two).post(
      api.login,
      loginBodySchema,
      { email: suspect.email, password: 'correct horse' },
      tokenResponseSchema,
    );
    const tokens = [suspect.token, other];
    for (const [, app] of instances())
      for (const token of tokens) expect((await client(app, token).raw('GET', api.myStats)).status).toBe(200);

    const until = new Date(Date.now() + HOUR).toISOString();
    expect(
      (await moderate(admin, { target: 'user', id: suspect.id, action: 'suspend', reason: 'Harassment', until }))
        .status,
    ).toBe(200);
    // No waiting: the sessions are gone when the action answers.
    for (const [name, app] of instances())
      for (const token of tokens) expect((await client(app, token).raw('GET', api.myStats)).status, name).toBe(401);
    for (const [name, app] of instances())
      expect(
        (await client(app).raw('POST', api.login, { email: suspect.email, password: 'correct horse' })).status,
        name,
      ).toBe(403);
    await expectWithheldOnBoth(question, reader, true);
    for (const [name, app] of instances())
      expect((await as(app, reader).raw('GET', api.userStats(suspect.id))).status, name).toBe(404);

    // The end passes: on both, the person signs in again and their questions are back.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse(until) + 60_000);
    try {
      for (const [name, app] of instances())
        expect(
          (await client(app).raw('POST', api.login, { email: suspect.email, password: 'correct horse' })).status,
          name,
        ).toBe(200);
      await expectWithheldOnBoth(question, reader, false);
    } finally {
      vi.useRealTimers();
    }
  });
});
