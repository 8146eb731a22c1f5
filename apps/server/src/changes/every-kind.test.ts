import {
  answerBodySchema,
  api,
  blockedSchema,
  connectedSchema,
  feedSchema,
  likedSchema,
  loginBodySchema,
  myReportPageSchema,
  notificationsReadBodySchema,
  passedSchema,
  questionPageSchema,
  questionSchema,
  settingsSchema,
  settingsUpdateBodySchema,
  tokenResponseSchema,
  trendingSchema,
  UNREAD_EVENT,
  unreadSchema,
} from '@pollscope/contract';
import type { FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openEventStream, type EventStream } from '../test/event-stream.js';
import {
  ask,
  client,
  createTestApp,
  secondInstance,
  signUp,
  updateAccount,
  type TestContext,
  type TestUser,
} from '../test/helper.js';
import { moderate } from '../test/moderation.js';
import type { ChangeKind } from './change.js';

// Run by `npm test` on its PostgreSQL pass, which finds a Redis or says why it cannot run this.
const redisUrl = process.env.TEST_REDIS_URL;
if (!process.env.TEST_DATABASE_URL || !redisUrl)
  throw new Error('This test needs TEST_DATABASE_URL and TEST_REDIS_URL');

/** Instance one, where each change is made, and instance two, which must show it. */
let one: TestContext;
let two: FastifyInstance;
let twoUrl: string;
let closeTwo: (() => Promise<void>) | undefined;
let author: TestUser;
let reader: TestUser;

beforeAll(async () => {
  one = await createTestApp({ redisUrl, redisPrefix: `pollscope-test-${randomBytes(6).toString('hex')}:` });
  ({ app: two, close: closeTwo } = await secondInstance(one));
  twoUrl = await two.listen({ port: 0, host: '127.0.0.1' });
  author = await signUp(one);
  reader = await signUp(one);
});
const streams: EventStream[] = [];
afterAll(async () => {
  for (const stream of streams) stream.close();
  await closeTwo?.();
  await one?.close();
});

/** The person's calls to instance two. */
const onTwo = (user: TestUser | string) => client(two, typeof user === 'string' ? user : user.token);

/** What instance two shows, once the change made on one has reached it over Redis. */
async function eventually(check: () => Promise<void>): Promise<void> {
  await vi.waitFor(check, { timeout: 5_000, interval: 50 });
}

const questionOnTwo = (user: TestUser, id: number) => onTwo(user).get(api.question(id), questionSchema);
const idsOnTwo = async (user: TestUser, path: string) =>
  (await onTwo(user).get(path, questionPageSchema)).questions.map((question) => question.id);
const feedOnTwo = async (user: TestUser) =>
  (await onTwo(user).get(api.feed, feedSchema)).questions.map((question) => question.id);
const statusOnTwo = async (token: string, path: string) => (await onTwo(token).raw('GET', path)).status;
const trendingOnTwo = async (user: TestUser) =>
  (await onTwo(user).get(api.trending, trendingSchema)).questions.map((question) => question.id);

/** A new moderator: roles are read from the database at each call, as `npm run user:role` sets them. */
async function newModerator(): Promise<TestUser> {
  const moderator = await signUp(one);
  await one.database.db.updateTable('users').set({ role: 'moderator' }).where('id', '=', moderator.id).execute();
  return moderator;
}

/** The person's unread count as instance two streams it, with the next count it sends. */
async function unreadOnTwo(user: TestUser): Promise<() => Promise<number>> {
  const stream = await openEventStream(`${twoUrl}${api.notificationsLive}`, user.token);
  streams.push(stream);
  return async () =>
    unreadSchema.parse(JSON.parse((await stream.next((block) => block.event === UNREAD_EVENT, 'unread event')).data!))
      .unread;
}

/**
 * One case per kind of change: the compiler refuses this record without a case for a new kind.
 * Each first makes instance two keep what the change touches, then makes the change on one.
 */
const cases: Record<ChangeKind, () => Promise<void>> = {
  async asked() {
    const first = await ask(author, { category: 3, tags: ['harbour'] });
    const lists = [api.userQuestions(author.id), api.category(3), api.tag('harbour'), api.search('harbour')];
    for (const path of lists) expect(await idsOnTwo(reader, path)).toContain(first);
    const second = await ask(author, { category: 3, tags: ['harbour'] });
    for (const path of lists) await eventually(async () => expect((await idsOnTwo(reader, path))[0]).toBe(second));
  },
  async voted() {
    const question = await ask(author);
    expect((await questionOnTwo(author, question)).result?.count).toBe(0);
    expect(await trendingOnTwo(author)).not.toContain(question);
    await reader.api.post(api.answer(question), answerBodySchema, { choice: 2 }, questionSchema);
    await eventually(async () => expect((await questionOnTwo(author, question)).result?.count).toBe(1));
    await eventually(async () => expect(await trendingOnTwo(author)).toContain(question));
  },
  async liked() {
    const question = await ask(author);
    expect((await questionOnTwo(author, question)).like_count).toBe(0);
    await reader.api.post(api.like(question), likedSchema);
    await eventually(async () => expect((await questionOnTwo(author, question)).like_count).toBe(1));
  },
  async unliked() {
    const question = await ask(author);
    await reader.api.post(api.like(question), likedSchema);
    await eventually(async () => expect((await questionOnTwo(author, question)).like_count).toBe(1));
    await reader.api.post(api.unlike(question), likedSchema);
    await eventually(async () => expect((await questionOnTwo(author, question)).like_count).toBe(0));
  },
  async passed() {
    const question = await ask(author);
    expect(await idsOnTwo(reader, api.userQuestions(author.id))).toContain(question);
    await reader.api.post(api.pass(question), passedSchema);
    await eventually(async () => expect(await idsOnTwo(reader, api.userQuestions(author.id))).not.toContain(question));
  },
  async unpassed() {
    const question = await ask(author);
    await reader.api.post(api.pass(question), passedSchema);
    await eventually(async () => expect(await idsOnTwo(reader, api.userQuestions(author.id))).not.toContain(question));
    await reader.api.post(api.unpass(question), passedSchema);
    await eventually(async () => expect(await idsOnTwo(reader, api.userQuestions(author.id))).toContain(question));
  },
  async renamed() {
    const question = await ask(author);
    await questionOnTwo(reader, question);
    await updateAccount(author, { firstName: 'Renamed' });
    await eventually(async () => expect((await questionOnTwo(reader, question)).user_name).toBe('Renamed'));
  },
  async profileChanged() {
    const mover = await signUp(one);
    const question = await ask(author);
    // Instance two keeps the mover's state, with the country they vote from.
    await questionOnTwo(mover, question);
    await updateAccount(mover, { livingIn: 250 });
    await onTwo(mover).post(api.answer(question), answerBodySchema, { choice: 1 }, questionSchema);
    const vote = await one.database.db
      .selectFrom('votes')
      .select('country_id')
      .where('question_id', '=', question)
      .where('user_id', '=', mover.id)
      .executeTakeFirstOrThrow();
    expect(vote.country_id).toBe(250);
  },
  async followed() {
    const follower = await signUp(one);
    const question = await ask(author);
    expect(await feedOnTwo(follower)).toEqual([]);
    await follower.api.post(api.follow(author.id), connectedSchema);
    await eventually(async () => expect(await feedOnTwo(follower)).toContain(question));
  },
  async unfollowed() {
    const follower = await signUp(one);
    const question = await ask(author);
    await follower.api.post(api.follow(author.id), connectedSchema);
    await eventually(async () => expect(await feedOnTwo(follower)).toContain(question));
    await follower.api.post(api.unfollow(author.id), connectedSchema);
    await eventually(async () => expect(await feedOnTwo(follower)).toEqual([]));
  },
  async blocked() {
    const blocker = await signUp(one);
    const question = await ask(author);
    expect(await statusOnTwo(blocker.token, api.question(question))).toBe(200);
    await blocker.api.post(api.ban(author.id), blockedSchema);
    await eventually(async () => expect(await statusOnTwo(blocker.token, api.question(question))).toBe(403));
    // Either way: the author no longer reaches the blocker's questions on two.
    const own = await ask(blocker);
    await eventually(async () => expect(await statusOnTwo(author.token, api.question(own))).toBe(403));
  },
  async unblocked() {
    const blocker = await signUp(one);
    const question = await ask(author);
    await blocker.api.post(api.ban(author.id), blockedSchema);
    await eventually(async () => expect(await statusOnTwo(blocker.token, api.question(question))).toBe(403));
    await blocker.api.post(api.unban(author.id), blockedSchema);
    await eventually(async () => expect(await statusOnTwo(blocker.token, api.question(question))).toBe(200));
  },
  async sessionEnded() {
    const leaver = await signUp(one);
    expect(await statusOnTwo(leaver.token, api.myStats)).toBe(200);
    expect((await leaver.api.raw('POST', api.logout)).status).toBe(204);
    await eventually(async () => expect(await statusOnTwo(leaver.token, api.myStats)).toBe(401));
  },
  async passwordChanged() {
    const person = await signUp(one);
    const { token: other } = await client(one.app).post(
      api.login,
      loginBodySchema,
      { email: person.email, password: 'correct horse' },
      tokenResponseSchema,
    );
    expect(await statusOnTwo(other, api.myStats)).toBe(200);
    const settings = await person.api.get(api.settings, settingsSchema);
    await person.api.post(
      api.settings,
      settingsUpdateBodySchema,
      { ...settings, password: 'a new password', current_password: 'correct horse' },
      settingsSchema,
    );
    await eventually(async () => expect(await statusOnTwo(other, api.myStats)).toBe(401));
    expect(await statusOnTwo(person.token, api.myStats)).toBe(200);
  },
  async notified() {
    const followee = await signUp(one);
    const nextUnread = await unreadOnTwo(followee);
    expect(await nextUnread()).toBe(0);
    await reader.api.post(api.follow(followee.id), connectedSchema);
    expect(await nextUnread()).toBe(1);
  },
  async notificationsRead() {
    const followee = await signUp(one);
    await reader.api.post(api.follow(followee.id), connectedSchema);
    const nextUnread = await unreadOnTwo(followee);
    expect(await nextUnread()).toBe(1);
    await followee.api.post(api.notificationsRead, notificationsReadBodySchema, {}, unreadSchema);
    expect(await nextUnread()).toBe(0);
  },
  async accountDeleted() {
    const leaver = await signUp(one);
    const theirs = await ask(leaver, { category: 5, tags: ['farewell'] });
    const others = await ask(author);
    await leaver.api.post(api.answer(others), answerBodySchema, { choice: 1 }, questionSchema);
    await leaver.api.post(api.follow(reader.id), connectedSchema);
    // Instance two keeps the leaver's session, their question in its lists, the count of their vote, and the reader's
    // unread count.
    expect(await statusOnTwo(leaver.token, api.myStats)).toBe(200);
    for (const path of [api.category(5), api.tag('farewell'), api.search('farewell')])
      expect(await idsOnTwo(reader, path)).toContain(theirs);
    expect((await questionOnTwo(reader, theirs)).id).toBe(theirs);
    expect((await questionOnTwo(author, others)).result?.count).toBe(1);
    const nextUnread = await unreadOnTwo(reader);
    const unread = await nextUnread();
    expect(unread).toBeGreaterThan(0);

    expect((await leaver.api.raw('POST', api.deleteAccount, { password: 'correct horse' })).status).toBe(204);
    await eventually(async () => expect(await statusOnTwo(reader.token, api.question(theirs))).toBe(404));
    expect(await statusOnTwo(leaver.token, api.myStats)).toBe(401);
    for (const path of [api.category(5), api.tag('farewell'), api.search('farewell')])
      expect(await idsOnTwo(reader, path)).not.toContain(theirs);
    expect((await questionOnTwo(author, others)).result?.count).toBe(0);
    expect(await nextUnread()).toBe(unread - 1);
  },
  async questionModerated() {
    const moderator = await newModerator();
    const question = await ask(author, { category: 7, tags: ['lighthouse'] });
    const lists = [api.userQuestions(author.id), api.category(7), api.tag('lighthouse'), api.search('lighthouse')];
    for (const path of lists) expect(await idsOnTwo(reader, path)).toContain(question);
    expect(await statusOnTwo(reader.token, api.question(question))).toBe(200);
    expect(
      (await moderate(moderator, { target: 'question', id: question, action: 'remove', reason: 'Off topic' })).status,
    ).toBe(200);
    await eventually(async () => expect(await statusOnTwo(reader.token, api.question(question))).toBe(404));
    for (const path of lists) expect(await idsOnTwo(reader, path)).not.toContain(question);
    expect((await questionOnTwo(author, question)).moderation).toEqual({ status: 'removed', reason: 'Off topic' });
  },
  async userSuspended() {
    const [moderator, suspect] = [await newModerator(), await signUp(one)];
    const question = await ask(suspect, { tags: ['quarry'] });
    expect(await idsOnTwo(reader, api.tag('quarry'))).toContain(question);
    expect(await statusOnTwo(reader.token, api.userStats(suspect.id))).toBe(200);
    expect(await statusOnTwo(suspect.token, api.myStats)).toBe(200);
    expect(
      (await moderate(moderator, { target: 'user', id: suspect.id, action: 'suspend', reason: 'Spam' })).status,
    ).toBe(200);
    // Ended before the action answered, on every instance.
    expect(await statusOnTwo(suspect.token, api.myStats)).toBe(401);
    await eventually(async () => expect(await idsOnTwo(reader, api.tag('quarry'))).not.toContain(question));
    expect(await statusOnTwo(reader.token, api.userStats(suspect.id))).toBe(404);
  },
  async userUnsuspended() {
    const [moderator, suspect] = [await newModerator(), await signUp(one)];
    const question = await ask(suspect, { tags: ['meadow'] });
    expect(
      (await moderate(moderator, { target: 'user', id: suspect.id, action: 'suspend', reason: 'Spam' })).status,
    ).toBe(200);
    await eventually(async () => expect(await idsOnTwo(reader, api.tag('meadow'))).not.toContain(question));
    expect(
      (await moderate(moderator, { target: 'user', id: suspect.id, action: 'unsuspend', reason: 'Appeal accepted' }))
        .status,
    ).toBe(200);
    await eventually(async () => expect(await idsOnTwo(reader, api.tag('meadow'))).toContain(question));
    expect(await statusOnTwo(reader.token, api.userStats(suspect.id))).toBe(200);
  },
  async moderatorActed() {
    // Nothing kept in memory holds it: what it causes, the notification that tells the person, moves their unread count.
    const [moderator, warned] = [await newModerator(), await signUp(one)];
    const nextUnread = await unreadOnTwo(warned);
    expect(await nextUnread()).toBe(0);
    expect(
      (await moderate(moderator, { target: 'user', id: warned.id, action: 'warn', reason: 'Be kind' })).status,
    ).toBe(200);
    expect(await nextUnread()).toBe(1);
  },
  async reported() {
    // Nothing kept in memory holds reports: instance two lists a report from the database as soon as it is filed.
    const question = await ask(author);
    const reportedOnTwo = async () =>
      (await onTwo(reader).get(api.reports, myReportPageSchema)).reports.map((report) => report.target_id);
    expect(await reportedOnTwo()).not.toContain(question);
    const filed = await reader.api.raw('POST', api.reports, { target: 'question', id: question, reason: 'spam' });
    expect(filed.status).toBe(201);
    expect(await reportedOnTwo()).toContain(question);
  },
};

describe('every kind of change made on one instance', () => {
  for (const [kind, check] of Object.entries(cases)) {
    it(`reaches what the other keeps: ${kind}`, check);
  }
});
