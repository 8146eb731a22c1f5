import {
  answerBodySchema,
  api,
  blockedSchema,
  likedSchema,
  LIVE_RESULT_EVENT,
  liveResultSchema,
  loginBodySchema,
  questionSchema,
  settingsSchema,
  settingsUpdateBodySchema,
  tokenResponseSchema,
  UNREAD_EVENT,
  unreadSchema,
  type LiveResult,
} from '@pollscope/contract';
import type { FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEventStream, type EventStream } from '../../test/event-stream.js';
import {
  ask,
  client,
  createTestApp,
  secondInstance,
  signUp,
  type TestContext,
  type TestUser,
} from '../../test/helper.js';
import { moderate } from '../../test/moderation.js';

// Run by `npm test` on its PostgreSQL pass, which finds a Redis or says why it cannot run this.
const redisUrl = process.env.TEST_REDIS_URL;
if (!process.env.TEST_DATABASE_URL || !redisUrl)
  throw new Error('This test needs TEST_DATABASE_URL and TEST_REDIS_URL');

/** Instance one, where each change is made, and instance two, where the streams are open. */
let one: TestContext;
let two: FastifyInstance;
let twoUrl: string;
let closeTwo: (() => Promise<void>) | undefined;
const streams: EventStream[] = [];

beforeAll(async () => {
  one = await createTestApp({ redisUrl, redisPrefix: `pollscope-test-${randomBytes(6).toString('hex')}:` });
  ({ app: two, close: closeTwo } = await secondInstance(one));
  twoUrl = await two.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  for (const stream of streams) stream.close();
  await closeTwo?.();
  await one?.close();
});

async function openOnTwo(path: string, token: string): Promise<EventStream> {
  const stream = await openEventStream(`${twoUrl}${path}`, token);
  streams.push(stream);
  expect(stream.status).toBe(200);
  return stream;
}

const resultsIn = (stream: EventStream): LiveResult[] =>
  stream.received
    .filter((block) => block.event === LIVE_RESULT_EVENT)
    .map((block) => liveResultSchema.parse(JSON.parse(block.data!)));

/** The question's live results on instance two as the person with `token` watches them, once its first result came. */
async function watchOnTwo(token: string, questionId: number): Promise<EventStream> {
  const stream = await openOnTwo(api.live(questionId), token);
  await nextResult(stream, () => true);
  return stream;
}

async function nextResult(stream: EventStream, matches: (result: LiveResult) => boolean): Promise<LiveResult> {
  const block = await stream.next(
    (block) => block.event === LIVE_RESULT_EVENT && matches(liveResultSchema.parse(JSON.parse(block.data!))),
    'matching result',
  );
  return liveResultSchema.parse(JSON.parse(block.data!));
}

/** The person's unread counts on instance two, once its first count came. */
async function unreadOnTwo(token: string): Promise<EventStream> {
  const stream = await openOnTwo(api.notificationsLive, token);
  await stream.next((block) => block.event === UNREAD_EVENT, 'unread event');
  return stream;
}

const nextCount = (stream: EventStream, unread: number) =>
  stream.next(
    (block) => block.event === UNREAD_EVENT && unreadSchema.parse(JSON.parse(block.data!)).unread === unread,
    `an unread count of ${unread}`,
  );

const answer = (user: TestUser, questionId: number, choice = 1) =>
  user.api.post(api.answer(questionId), answerBodySchema, { choice }, questionSchema);

/**
 * Returns once instance two has applied every change made before the call, so that none of them
 * (a vote published as its call was answered, say) still owes `stream` a result: Redis delivers one
 * instance's changes in order, so once a like made now has reached the stream, what came before it
 * has too. Called on each stream under test before what should send it nothing more.
 */
async function heardOnTwo(stream: EventStream, question: number): Promise<void> {
  const liker = await signUp(one);
  const { like_count } = await liker.api.get(api.question(question), questionSchema);
  await liker.api.post(api.like(question), likedSchema);
  await nextResult(stream, (result) => result.like_count === like_count + 1);
}

/**
 * The events a stream was sent from `change` (made on instance one) on, once `round` has run: a
 * change that reaches the stream's question on two after `change` did, whose arrival `delivered`
 * waits for on a stream that still gets it. Instance two hears one's changes in the order they were
 * made, and sends a question's state to all its streams in one round, so once `delivered` has its
 * result the stream under test has had every chance to get the same.
 */
async function sentAfter(
  stream: EventStream,
  change: () => Promise<unknown>,
  round: () => Promise<unknown>,
  delivered: () => Promise<unknown>,
): Promise<number> {
  const before = stream.received.length;
  await change();
  await round();
  await delivered();
  return stream.received
    .slice(before)
    .filter((block) => block.event === LIVE_RESULT_EVENT || block.event === UNREAD_EVENT).length;
}

async function newModerator(): Promise<TestUser> {
  const moderator = await signUp(one);
  await one.database.db.updateTable('users').set({ role: 'moderator' }).where('id', '=', moderator.id).execute();
  return moderator;
}

async function secondSession(user: TestUser): Promise<string> {
  const { token } = await client(one.app).post(
    api.login,
    loginBodySchema,
    { email: user.email, password: 'correct horse' },
    tokenResponseSchema,
  );
  return token;
}

describe('an open live stream on another instance', () => {
  it('ends when the question’s author blocks its viewer, and sends nothing more; the viewer’s other streams go on', async () => {
    const [author, viewer, watcher, voter, other] = [
      await signUp(one),
      await signUp(one),
      await signUp(one),
      await signUp(one),
      await signUp(one),
    ];
    const question = await ask(author);
    const elsewhere = await ask(other);
    for (const person of [viewer, watcher]) await answer(person, question);
    await answer(viewer, elsewhere);
    const blockedStream = await watchOnTwo(viewer.token, question);
    const watching = await watchOnTwo(watcher.token, question);
    const viewersOther = await watchOnTwo(viewer.token, elsewhere);
    expect(resultsIn(blockedStream).at(-1)?.result?.count).toBe(2);
    await heardOnTwo(blockedStream, question);

    const sent = await sentAfter(
      blockedStream,
      () => author.api.post(api.ban(viewer.id), blockedSchema),
      () => answer(voter, question),
      () => nextResult(watching, (result) => result.result?.count === 3),
    );
    expect(sent).toBe(0);
    await blockedStream.ended;
    // A block stands only between the two: the viewer's stream of someone else's question still gets its news.
    await answer(voter, elsewhere);
    expect(await nextResult(viewersOther, (result) => result.result?.count === 2)).toMatchObject({ id: elsewhere });
  });

  it('ends either way: the viewer’s when they block the author, the author’s of the viewer’s own question', async () => {
    const [author, viewer, watcher, voter] = [
      await signUp(one),
      await signUp(one),
      await signUp(one),
      await signUp(one),
    ];
    const question = await ask(author);
    const viewersQuestion = await ask(viewer);
    for (const person of [viewer, watcher]) await answer(person, question);
    await answer(author, viewersQuestion);
    const viewersStream = await watchOnTwo(viewer.token, question);
    const authorsStream = await watchOnTwo(author.token, viewersQuestion);
    const watching = await watchOnTwo(watcher.token, question);
    const viewerWatchesOwn = await watchOnTwo(viewer.token, viewersQuestion);

    await heardOnTwo(viewersStream, question);
    await heardOnTwo(authorsStream, viewersQuestion);
    const authorsBefore = authorsStream.received.length;
    const sent = await sentAfter(
      viewersStream,
      () => viewer.api.post(api.ban(author.id), blockedSchema),
      () => answer(voter, question),
      () => nextResult(watching, (result) => result.result?.count === 3),
    );
    const sentToAuthor = await sentAfter(
      authorsStream,
      async () => {},
      () => answer(voter, viewersQuestion),
      () => nextResult(viewerWatchesOwn, (result) => result.result?.count === 2),
    );
    expect([sent, sentToAuthor, authorsStream.received.length - authorsBefore]).toEqual([0, 0, 0]);
    await Promise.all([viewersStream.ended, authorsStream.ended]);
  });

  it('shows its viewer the result once they answer on the other instance, and never before', async () => {
    const [author, viewer, voter] = [await signUp(one), await signUp(one), await signUp(one)];
    const question = await ask(author);
    const viewing = await watchOnTwo(viewer.token, question);
    const authors = await watchOnTwo(author.token, question);
    await answer(voter, question);
    await nextResult(authors, (result) => result.result?.count === 1);
    expect(await nextResult(viewing, () => true)).toEqual({ id: question, result: null, like_count: 0, vote_count: 1 });
    await answer(viewer, question, 2);
    expect(await nextResult(viewing, (result) => result.result !== null)).toMatchObject({
      id: question,
      result: { count: 2 },
    });
  });
});

describe('a session that ends', () => {
  it('on sign-out ends that session’s streams, live and unread, and no other session’s', async () => {
    const [author, person, follower] = [await signUp(one), await signUp(one), await signUp(one)];
    const question = await ask(author);
    await answer(person, question);
    const otherToken = await secondSession(person);
    const live = await watchOnTwo(person.token, question);
    const unread = await unreadOnTwo(person.token);
    const otherLive = await watchOnTwo(otherToken, question);
    const otherUnread = await unreadOnTwo(otherToken);

    await heardOnTwo(live, question);
    const unreadBefore = unread.received.length;
    const sentLive = await sentAfter(
      live,
      async () => expect((await person.api.raw('POST', api.logout)).status).toBe(204),
      () => answer(follower, question),
      () => nextResult(otherLive, (result) => result.result?.count === 2),
    );
    // Being followed is news for the person's unread count, delivered to the session still open.
    const sentUnread = await sentAfter(
      unread,
      async () => {},
      () => follower.api.raw('POST', api.follow(person.id)),
      () => nextCount(otherUnread, 1),
    );
    expect([sentLive, sentUnread, unread.received.length - unreadBefore]).toEqual([0, 0, 0]);
    await Promise.all([live.ended, unread.ended]);
  });

  it('with a new password ends the other sessions’ streams, not the one that changed it', async () => {
    const [author, person, voter] = [await signUp(one), await signUp(one), await signUp(one)];
    const question = await ask(author);
    await answer(person, question);
    const otherToken = await secondSession(person);
    const others = await watchOnTwo(otherToken, question);
    const othersUnread = await unreadOnTwo(otherToken);
    const own = await watchOnTwo(person.token, question);
    await heardOnTwo(others, question);

    const settings = await person.api.get(api.settings, settingsSchema);
    const sent = await sentAfter(
      others,
      () =>
        person.api.post(
          api.settings,
          settingsUpdateBodySchema,
          { ...settings, password: 'a new password', current_password: 'correct horse' },
          settingsSchema,
        ),
      () => answer(voter, question),
      () => nextResult(own, (result) => result.result?.count === 2),
    );
    expect(sent).toBe(0);
    await Promise.all([others.ended, othersUnread.ended]);
  });

  it('with a deleted account ends its person’s streams', async () => {
    const [author, leaver, watcher] = [await signUp(one), await signUp(one), await signUp(one)];
    const question = await ask(author);
    for (const person of [leaver, watcher]) await answer(person, question);
    const leavers = await watchOnTwo(leaver.token, question);
    const leaversUnread = await unreadOnTwo(leaver.token);
    const watching = await watchOnTwo(watcher.token, question);
    await heardOnTwo(leavers, question);
    // Their vote goes with them: the count that drops is the round that would have reached them.
    const sent = await sentAfter(
      leavers,
      async () =>
        expect((await leaver.api.raw('POST', api.deleteAccount, { password: 'correct horse' })).status).toBe(204),
      async () => {},
      () => nextResult(watching, (result) => result.result?.count === 1),
    );
    expect(sent).toBe(0);
    await Promise.all([leavers.ended, leaversUnread.ended]);
  });

  it('with a suspension ends the suspended person’s streams, and everyone else’s of their questions', async () => {
    const [moderator, author, suspect, reader, voter] = [
      await newModerator(),
      await signUp(one),
      await signUp(one),
      await signUp(one),
      await signUp(one),
    ];
    const question = await ask(author);
    const suspects = await ask(suspect);
    await answer(suspect, question);
    await answer(reader, suspects);
    const suspectWatching = await watchOnTwo(suspect.token, question);
    const suspectsUnread = await unreadOnTwo(suspect.token);
    const readerOfSuspects = await watchOnTwo(reader.token, suspects);
    const authors = await watchOnTwo(author.token, question);

    await heardOnTwo(suspectWatching, question);
    await heardOnTwo(readerOfSuspects, suspects);
    const readersResults = resultsIn(readerOfSuspects).length;
    const sent = await sentAfter(
      suspectWatching,
      async () =>
        expect(
          (await moderate(moderator, { target: 'user', id: suspect.id, action: 'suspend', reason: 'Spam' })).status,
        ).toBe(200),
      () => answer(voter, question),
      () => nextResult(authors, (result) => result.result?.count === 2),
    );
    expect(sent).toBe(0);
    // Nobody but its author may act on a withheld question, so no vote can reach it: its streams end, with nothing more
    // sent.
    await Promise.all([suspectWatching.ended, suspectsUnread.ended, readerOfSuspects.ended]);
    expect(resultsIn(readerOfSuspects)).toHaveLength(readersResults);
  });
});

describe('a question a moderator removes', () => {
  it('ends the open result streams of everyone but its author, whose stream goes on', async () => {
    const [moderator, author, reader] = [await newModerator(), await signUp(one), await signUp(one)];
    const question = await ask(author);
    await answer(reader, question);
    const readers = await watchOnTwo(reader.token, question);
    const authors = await watchOnTwo(author.token, question);
    await heardOnTwo(readers, question);

    // Only its author may still act on it: their like (the second, after heardOnTwo's) is the round that would have
    // reached the reader.
    const sent = await sentAfter(
      readers,
      async () =>
        expect(
          (await moderate(moderator, { target: 'question', id: question, action: 'remove', reason: 'Off topic' }))
            .status,
        ).toBe(200),
      () => author.api.post(api.like(question), likedSchema),
      () => nextResult(authors, (result) => result.like_count === 2),
    );
    expect(sent).toBe(0);
    await readers.ended;
  });
});
