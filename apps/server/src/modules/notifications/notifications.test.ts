import {
  answerBodySchema,
  api,
  blockedSchema,
  connectedSchema,
  likedSchema,
  notificationPageSchema,
  notificationsReadBodySchema,
  questionSchema,
  UNREAD_EVENT,
  unreadSchema,
  type Notification,
} from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openEventStream, type EventStream } from '../../test/event-stream.js';
import { SYSTEM_EMAIL } from '../../db/schema.js';
import { ask, createTestApp, signUp, type TestContext, type TestUser } from '../../test/helper.js';
import { createPeople, FRANCE, many } from '../../../test/insights.js';
import { recordVotes } from '../polls/index.js';

let ctx: TestContext;
let baseUrl: string;
const streams: EventStream[] = [];
beforeAll(async () => {
  ctx = await createTestApp();
  baseUrl = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  for (const stream of streams) stream.close();
  await ctx.close();
});

const pageOf = (user: TestUser, cursor?: string | null) =>
  user.api.get(cursor ? `${api.notifications}?cursor=${cursor}` : api.notifications, notificationPageSchema);
const notificationsOf = async (user: TestUser) => (await pageOf(user)).notifications;
/** Those notifications, or with no body every one. */
const markRead = (user: TestUser, ids?: number[]) =>
  ids
    ? user.api.post(api.notificationsRead, notificationsReadBodySchema, { ids }, unreadSchema)
    : user.api.post(api.notificationsRead, unreadSchema);
const vote = (user: TestUser, question: number) =>
  user.api.post(api.answer(question), answerBodySchema, { choice: 1 }, questionSchema);
const like = (user: TestUser, question: number) => user.api.post(api.like(question), likedSchema);
const people = (count: number, name: string) =>
  Promise.all(Array.from({ length: count }, (_, index) => signUp(ctx, { firstName: `${name} ${index + 1}` })));
const actor = (user: TestUser, name: string) => ({ id: user.id, name });

describe('notifications', () => {
  it('tell a person who followed them, by first name', async () => {
    const followee = await signUp(ctx);
    const follower = await signUp(ctx, { firstName: 'Ada' });
    await follower.api.post(api.follow(followee.id), connectedSchema);
    const page = await pageOf(followee);
    expect(page).toEqual({
      notifications: [
        {
          id: expect.any(Number),
          kind: 'follow',
          created_at: expect.any(String),
          read: false,
          actors: [actor(follower, 'Ada')],
          actor_count: 1,
          question: null,
          count: null,
        },
      ],
      next: null,
      unread: 1,
    });
    expect(await notificationsOf(follower)).toEqual([]);
  });

  it('gather the likes of a question while unread, each person once, and start again once read', async () => {
    const author = await signUp(ctx);
    const question = await ask(author, { question: 'Tea or coffee?' });
    const fans = await people(5, 'Fan');
    for (const fan of fans) await like(fan, question);
    // The first takes it back and likes again: still one of five, now the most recent.
    await fans[0].api.post(api.unlike(question), likedSchema);
    await like(fans[0], question);

    const [gathered, ...others] = await notificationsOf(author);
    expect(others).toEqual([]);
    expect(gathered).toMatchObject({
      kind: 'like',
      read: false,
      actors: [actor(fans[0], 'Fan 1'), actor(fans[4], 'Fan 5'), actor(fans[3], 'Fan 4')],
      actor_count: 5,
      question: { id: question, qid: question, title: 'Tea or coffee?' },
      count: null,
    });

    expect(await markRead(author, [gathered.id])).toEqual({ unread: 0 });
    const late = await signUp(ctx, { firstName: 'Late' });
    await like(late, question);
    const page = await pageOf(author);
    expect(page.unread).toBe(1);
    expect(
      page.notifications.map(({ kind, read, actors, actor_count }) => ({ kind, read, actors, actor_count })),
    ).toEqual([
      { kind: 'like', read: false, actors: [actor(late, 'Late')], actor_count: 1 },
      { kind: 'like', read: true, actors: gathered.actors, actor_count: 5 },
    ]);
  });

  it('name the later of two likes first, though both came in the same millisecond', async () => {
    const author = await signUp(ctx);
    const question = await ask(author, { question: 'Rain or shine?' });
    const older = await signUp(ctx, { firstName: 'Older' });
    const newer = await signUp(ctx, { firstName: 'Newer' });
    // The clock stands still, and the newer account likes first: ordered by account, it would be named first.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      await like(newer, question);
      await like(older, question);
    } finally {
      vi.useRealTimers();
    }
    const [liked] = await notificationsOf(author);
    expect(liked.actors).toEqual([actor(older, 'Older'), actor(newer, 'Newer')]);
  });

  it('tell an author when their question reaches 1 and 10 votes, not at 2 or 11', async () => {
    const author = await signUp(ctx);
    const question = await ask(author, { question: 'North or south?' });
    const voters = await people(11, 'Voter');
    const milestones = async () => (await notificationsOf(author)).map((notification) => notification.count);
    const expected = new Map([
      [1, [1]],
      [2, [1]],
      [10, [10, 1]],
      [11, [10, 1]],
    ]);
    for (const [index, voter] of voters.entries()) {
      await vote(voter, question);
      if (expected.has(index + 1)) expect(await milestones()).toEqual(expected.get(index + 1));
    }
    expect((await notificationsOf(author))[0]).toMatchObject({
      kind: 'votes',
      actors: [],
      actor_count: 0,
      question: { id: question, title: 'North or south?' },
      count: 10,
    });
  });

  it('tell every milestone that one batch of votes reaches, on each of its questions', async () => {
    const author = await signUp(ctx);
    const [first, second] = [await ask(author, { question: 'Tea or coffee?' }), await ask(author)];
    const voters = await createPeople(ctx, many(10, { gender: 'F', age: 30, country: FRANCE }));
    // One commit, as concurrent answers are written together: the first question's 1st and 10th votes, the second's 1st.
    await ctx.app.changes.commit((trx) =>
      recordVotes(trx, [
        ...voters.map((voter) => ({ questionId: first, voter, choice: 1 })),
        { questionId: second, voter: voters[0], choice: 1 },
      ]),
    );
    const told = (await notificationsOf(author)).map((notification) => [notification.question?.id, notification.count]);
    expect(told).toHaveLength(3);
    expect(told).toEqual(
      expect.arrayContaining([
        [first, 1],
        [first, 10],
        [second, 1],
      ]),
    );
  });

  it('never tell a person of their own like or vote', async () => {
    const author = await signUp(ctx);
    const question = await ask(author);
    await like(author, question);
    await vote(author, question);
    expect(await pageOf(author)).toEqual({ notifications: [], next: null, unread: 0 });
  });

  it('tell the site’s own account, which nobody signs in to, nothing of its quiz questions', async () => {
    const { id: site } = await ctx.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', SYSTEM_EMAIL)
      .executeTakeFirstOrThrow();
    const { question_id: quizQuestion } = await ctx.database.db
      .selectFrom('quiz_items')
      .select('question_id')
      .executeTakeFirstOrThrow();
    const person = await signUp(ctx);
    await like(person, quizQuestion);
    await vote(person, quizQuestion);
    expect(
      await ctx.database.db.selectFrom('notifications').select('id').where('user_id', '=', site).execute(),
    ).toEqual([]);
  });

  it('stop showing what someone blocked either way did, and show it again once unblocked', async () => {
    const author = await signUp(ctx);
    const question = await ask(author);
    const follower = await signUp(ctx, { firstName: 'Follower' });
    const [blocked, kept] = await people(2, 'Liker');
    await follower.api.post(api.follow(author.id), connectedSchema);
    await like(blocked, question);
    await like(kept, question);
    expect((await pageOf(author)).unread).toBe(2);

    await author.api.post(api.ban(blocked.id), blockedSchema);
    let page = await pageOf(author);
    expect(page.notifications.map(({ kind, actors, actor_count }) => ({ kind, actors, actor_count }))).toEqual([
      { kind: 'like', actors: [actor(kept, 'Liker 2')], actor_count: 1 },
      { kind: 'follow', actors: [actor(follower, 'Follower')], actor_count: 1 },
    ]);
    expect(page.unread).toBe(2);

    // Blocked by them: what they did goes too, and a like left with nobody goes with it.
    await follower.api.post(api.ban(author.id), blockedSchema);
    await kept.api.post(api.ban(author.id), blockedSchema);
    page = await pageOf(author);
    expect(page).toEqual({ notifications: [], next: null, unread: 0 });
    expect(await author.api.get(api.notificationsLive, unreadSchema)).toEqual({ unread: 0 });

    await author.api.post(api.unban(blocked.id), blockedSchema);
    page = await pageOf(author);
    expect(page.notifications.map(({ kind, actors }) => ({ kind, actors }))).toEqual([
      { kind: 'like', actors: [actor(blocked, 'Liker 1')] },
    ]);
    expect(page.unread).toBe(1);
  });

  it('come newest first, a page at a time', async () => {
    const followee = await signUp(ctx);
    const followers = await people(21, 'Follower');
    for (const follower of followers) await follower.api.post(api.follow(followee.id), connectedSchema);
    const first = await pageOf(followee);
    expect(first.notifications).toHaveLength(20);
    expect(first.unread).toBe(21);
    expect(first.next).not.toBeNull();
    const second = await pageOf(followee, first.next);
    expect(second.next).toBeNull();
    const actorIds = [...first.notifications, ...second.notifications].map((notification) => notification.actors[0].id);
    expect(actorIds).toEqual(followers.map((follower) => follower.id).reverse());
  });

  it('are marked read by id, then all at once', async () => {
    const followee = await signUp(ctx);
    for (const follower of await people(3, 'Follower'))
      await follower.api.post(api.follow(followee.id), connectedSchema);
    const [newest, , oldest] = await notificationsOf(followee);
    expect(await markRead(followee, [newest.id, oldest.id])).toEqual({ unread: 1 });
    const readOf = (notifications: Notification[]) => notifications.map((notification) => notification.read);
    expect(readOf(await notificationsOf(followee))).toEqual([true, false, true]);
    expect(await markRead(followee)).toEqual({ unread: 0 });
    expect(readOf(await notificationsOf(followee))).toEqual([true, true, true]);
  });

  it('refuse to mark what is not the caller’s, and change nothing', async () => {
    const [one, other] = await people(2, 'Person');
    const follower = await signUp(ctx);
    await follower.api.post(api.follow(one.id), connectedSchema);
    await follower.api.post(api.follow(other.id), connectedSchema);
    const [own] = await notificationsOf(one);
    const [theirs] = await notificationsOf(other);

    const reply = await one.api.raw('POST', api.notificationsRead, { ids: [own.id, theirs.id] });
    expect(reply.status).toBe(404);
    expect(reply.error()).toEqual({ message: 'No such notification' });
    expect((await pageOf(one)).unread).toBe(1);
    expect((await pageOf(other)).unread).toBe(1);
  });

  it('count unread live: when the stream opens, when a like lands and after marking read', async () => {
    const author = await signUp(ctx);
    const question = await ask(author);
    const stream = await openEventStream(`${baseUrl}${api.notificationsLive}`, author.token);
    streams.push(stream);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const nextUnread = async () =>
      unreadSchema.parse(
        JSON.parse((await stream.next((block) => block.event === UNREAD_EVENT, 'unread event')).data!),
      );
    expect(await nextUnread()).toEqual({ unread: 0 });

    await like(await signUp(ctx), question);
    expect(await nextUnread()).toEqual({ unread: 1 });
    await markRead(author);
    expect(await nextUnread()).toEqual({ unread: 0 });
    expect(await author.api.get(api.notificationsLive, unreadSchema)).toEqual({ unread: 0 });
  });
});
