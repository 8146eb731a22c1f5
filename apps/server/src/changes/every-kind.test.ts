import { api, type Question, type QuestionPage } from '@pollscope/contract';
import type { FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app.js';
import { openDatabase, type DatabaseHandle } from '../db/index.js';
import { ask, client, createTestApp, signUp, type TestContext, type TestUser } from '../test/helper.js';
import type { ChangeKind } from './change.js';

// Run by `npm test` on its PostgreSQL pass, which finds a Redis or says why it cannot run this.
const redisUrl = process.env.TEST_REDIS_URL;
if (!process.env.TEST_DATABASE_URL || !redisUrl) throw new Error('This test needs TEST_DATABASE_URL and TEST_REDIS_URL');

/** Instance one, where each change is made, and instance two, which must show it. */
let one: TestContext;
let two: FastifyInstance;
let twoDatabase: DatabaseHandle;
let author: TestUser;
let reader: TestUser;

beforeAll(async () => {
  one = await createTestApp({ redisUrl, redisPrefix: `pollscope-test-${randomBytes(6).toString('hex')}:` });
  twoDatabase = openDatabase(one.config.databaseUrl);
  two = await buildApp({ config: one.config, database: twoDatabase });
  await two.ready();
  author = await signUp(one);
  reader = await signUp(one);
});
afterAll(async () => {
  await two?.close();
  await twoDatabase?.close();
  await one?.close();
});

/** The person's calls to instance two. */
const onTwo = (user: TestUser | string) => client(two, typeof user === 'string' ? user : user.token);

/** What instance two shows, once the change made on one has reached it over Redis. */
async function eventually(check: () => Promise<void>): Promise<void> {
  await vi.waitFor(check, { timeout: 5_000, interval: 50 });
}

async function questionOnTwo(user: TestUser, id: number): Promise<Question> {
  const reply = await onTwo(user).get<Question>(api.question(id));
  expect(reply.status).toBe(200);
  return reply.body;
}

async function idsOnTwo(user: TestUser, path: string): Promise<number[]> {
  const reply = await onTwo(user).get<QuestionPage>(path);
  expect(reply.status).toBe(200);
  return reply.body.questions.map((question) => question.id);
}

/**
 * One case per kind of change: the compiler refuses this record without a case for a new kind.
 * Each first makes instance two keep what the change touches, then makes the change on one.
 */
const cases: Record<ChangeKind, () => Promise<void>> = {
  async asked() {
    const first = await ask(author, { category: 3, tags: ['harbour'] });
    const lists = [api.userQuestions(author.id), api.category(3), api.tag('harbour')];
    for (const path of lists) expect(await idsOnTwo(reader, path)).toContain(first);
    const second = await ask(author, { category: 3, tags: ['harbour'] });
    for (const path of lists) await eventually(async () => expect((await idsOnTwo(reader, path))[0]).toBe(second));
  },
  async voted() {
    const question = await ask(author);
    expect((await questionOnTwo(author, question)).result?.count).toBe(0);
    expect((await reader.api.post(api.answer(question), { choice: 2 })).status).toBe(200);
    await eventually(async () => expect((await questionOnTwo(author, question)).result?.count).toBe(1));
  },
  async liked() {
    const question = await ask(author);
    expect((await questionOnTwo(author, question)).like_count).toBe(0);
    await reader.api.post(api.like(question));
    await eventually(async () => expect((await questionOnTwo(author, question)).like_count).toBe(1));
  },
  async unliked() {
    const question = await ask(author);
    await reader.api.post(api.like(question));
    await eventually(async () => expect((await questionOnTwo(author, question)).like_count).toBe(1));
    await reader.api.post(api.unlike(question));
    await eventually(async () => expect((await questionOnTwo(author, question)).like_count).toBe(0));
  },
  async passed() {
    const question = await ask(author);
    expect(await idsOnTwo(reader, api.userQuestions(author.id))).toContain(question);
    await reader.api.post(api.pass(question));
    await eventually(async () => expect(await idsOnTwo(reader, api.userQuestions(author.id))).not.toContain(question));
  },
  async unpassed() {
    const question = await ask(author);
    await reader.api.post(api.pass(question));
    await eventually(async () => expect(await idsOnTwo(reader, api.userQuestions(author.id))).not.toContain(question));
    await reader.api.post(api.unpass(question));
    await eventually(async () => expect(await idsOnTwo(reader, api.userQuestions(author.id))).toContain(question));
  },
  async renamed() {
    const question = await ask(author);
    await questionOnTwo(reader, question);
    const account = (await author.api.get(api.account)).body;
    const moved = { firstName: 'Renamed', birthDate: account.birthdate, livingIn: account.country, gender: account.gender, favoriteCategory: null, favoriteTopic: null };
    expect((await author.api.post(api.account, moved)).status).toBe(200);
    await eventually(async () => expect((await questionOnTwo(reader, question)).user_name).toBe('Renamed'));
  },
  async profileChanged() {
    const mover = await signUp(one);
    const question = await ask(author);
    // Instance two keeps the mover's state, with the country they vote from.
    await questionOnTwo(mover, question);
    const account = (await mover.api.get(api.account)).body;
    await mover.api.post(api.account, { firstName: account.first_name, birthDate: account.birthdate, livingIn: 250, gender: account.gender, favoriteCategory: null, favoriteTopic: null });
    expect((await onTwo(mover).post(api.answer(question), { choice: 1 })).status).toBe(200);
    const vote = await one.database.db.selectFrom('votes').select('country_id').where('question_id', '=', question).where('user_id', '=', mover.id).executeTakeFirstOrThrow();
    expect(vote.country_id).toBe(250);
  },
  async followed() {
    const follower = await signUp(one);
    const question = await ask(author);
    expect((await onTwo(follower).get<{ questions: Question[] }>(api.feed)).body.questions).toEqual([]);
    await follower.api.post(api.follow(author.id));
    await eventually(async () => expect((await onTwo(follower).get<{ questions: Question[] }>(api.feed)).body.questions.map((q) => q.id)).toContain(question));
  },
  async unfollowed() {
    const follower = await signUp(one);
    const question = await ask(author);
    await follower.api.post(api.follow(author.id));
    await eventually(async () => expect((await onTwo(follower).get<{ questions: Question[] }>(api.feed)).body.questions.map((q) => q.id)).toContain(question));
    await follower.api.post(api.unfollow(author.id));
    await eventually(async () => expect((await onTwo(follower).get<{ questions: Question[] }>(api.feed)).body.questions).toEqual([]));
  },
  async blocked() {
    const blocker = await signUp(one);
    const question = await ask(author);
    expect((await onTwo(blocker).get(api.question(question))).status).toBe(200);
    await blocker.api.post(api.ban(author.id));
    await eventually(async () => expect((await onTwo(blocker).get(api.question(question))).status).toBe(403));
    // Either way: the author no longer reaches the blocker's questions on two.
    const own = await ask(blocker);
    await eventually(async () => expect((await onTwo(author).get(api.question(own))).status).toBe(403));
  },
  async unblocked() {
    const blocker = await signUp(one);
    const question = await ask(author);
    await blocker.api.post(api.ban(author.id));
    await eventually(async () => expect((await onTwo(blocker).get(api.question(question))).status).toBe(403));
    await blocker.api.post(api.unban(author.id));
    await eventually(async () => expect((await onTwo(blocker).get(api.question(question))).status).toBe(200));
  },
  async sessionEnded() {
    const leaver = await signUp(one);
    expect((await onTwo(leaver).get(api.myStats)).status).toBe(200);
    expect((await leaver.api.post(api.logout)).status).toBe(204);
    await eventually(async () => expect((await onTwo(leaver).get(api.myStats)).status).toBe(401));
  },
  async passwordChanged() {
    const person = await signUp(one);
    const login = await client(one.app).post<{ token: string }>(api.login, { email: person.email, password: 'correct horse' });
    const other = login.body.token;
    expect((await onTwo(other).get(api.myStats)).status).toBe(200);
    const settings = (await person.api.get(api.settings)).body;
    expect((await person.api.post(api.settings, { ...settings, password: 'a new password' })).status).toBe(200);
    await eventually(async () => expect((await onTwo(other).get(api.myStats)).status).toBe(401));
    expect((await onTwo(person).get(api.myStats)).status).toBe(200);
  },
};

describe('every kind of change made on one instance', () => {
  for (const [kind, check] of Object.entries(cases)) {
    it(`reaches what the other keeps: ${kind}`, check);
  }
});
