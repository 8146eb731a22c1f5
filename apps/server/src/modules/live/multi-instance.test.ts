import { api, LIVE_RESULT_EVENT, liveResultSchema, type LiveResult } from '@pollscope/contract';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../db/index.js';
import { SYSTEM_EMAIL } from '../../seed/reference.js';
import { openEventStream, type EventStream } from '../../test/event-stream.js';
import { createPostgresDatabase, databaseUrlFor, dropPostgresDatabase, testPostgresUrl } from '../../test/postgres.js';
import { callServer, startServer, type ServerProcess } from '../../test/server-process.js';

// Run by `npm test` on its PostgreSQL pass, which finds a Redis or says why it cannot run this.
const serverUrl = testPostgresUrl;
const redisUrl = process.env.TEST_REDIS_URL;
if (!serverUrl || !redisUrl) throw new Error('This test needs TEST_DATABASE_URL and TEST_REDIS_URL');

let databaseName: string;
let database: DatabaseHandle;
let one: ServerProcess;
let two: ServerProcess;
const servers: ServerProcess[] = [];
const streams: EventStream[] = [];

beforeAll(async () => {
  // An empty database: both instances start at once and must migrate and seed it only once.
  databaseName = await createPostgresDatabase(serverUrl, 'pollscope_test');
  const url = databaseUrlFor(serverUrl, databaseName);
  const env = { REDIS_URL: redisUrl, REDIS_PREFIX: `pollscope-test-${randomBytes(6).toString('hex')}:` };
  const started = await Promise.allSettled([startServer(url, env), startServer(url, env)]);
  // One that started is stopped after all even when the other did not start.
  for (const result of started) if (result.status === 'fulfilled') servers.push(result.value);
  for (const result of started) if (result.status === 'rejected') throw result.reason;
  [one, two] = servers;
  database = openDatabase(url);
});
afterAll(async () => {
  for (const stream of streams) stream.close();
  await Promise.all(servers.map((server) => server.stop()));
  await database?.close();
  if (databaseName) await dropPostgresDatabase(serverUrl, databaseName);
});

let registered = 0;
async function register(server: ServerProcess): Promise<{ email: string; token: string }> {
  const email = `instance${++registered}-${Date.now()}@example.com`;
  const body = { firstName: 'Many', birthDate: '1990-06-15', gender: 'F', livingIn: 840, email, password: 'correct horse' };
  const reply = await callServer(server.baseUrl, 'POST', api.register, { body });
  expect(reply.status).toBe(201);
  return { email, token: reply.body.token };
}

async function ask(server: ServerProcess, token: string): Promise<number> {
  const reply = await callServer(server.baseUrl, 'POST', api.create, { token, body: { type: 'MC', question: 'North or south?', choices: ['North', 'South'], tags: [] } });
  expect(reply.status).toBe(200);
  return reply.body.question.id;
}

async function watch(server: ServerProcess, questionId: number, token: string): Promise<EventStream> {
  const stream = await openEventStream(`${server.baseUrl}${api.live(questionId)}`, token);
  streams.push(stream);
  expect(stream.status).toBe(200);
  return stream;
}

async function nextResult(stream: EventStream, matches: (result: LiveResult) => boolean): Promise<LiveResult> {
  const block = await stream.next((block) => block.event === LIVE_RESULT_EVENT && matches(liveResultSchema.parse(JSON.parse(block.data!))), 'matching result');
  return liveResultSchema.parse(JSON.parse(block.data!));
}

describe('two instances on one PostgreSQL database and one Redis', () => {
  it('migrate and seed a new database once when they start together', async () => {
    const { db } = database;
    const systemUsers = await db.selectFrom('users').select('id').where('email', '=', SYSTEM_EMAIL).execute();
    const quiz = await db.selectFrom('quiz_items').select('id').execute();
    expect(systemUsers).toHaveLength(1);
    expect(quiz).toHaveLength(4);
  });

  it('let a person register on one and sign in on the other, with either token working on both', async () => {
    const person = await register(one);
    const signedIn = await callServer(two.baseUrl, 'POST', api.login, { body: { email: person.email, password: 'correct horse' } });
    expect(signedIn.status).toBe(200);
    for (const server of [one, two]) {
      for (const token of [person.token, signedIn.body.token]) {
        expect((await callServer(server.baseUrl, 'GET', api.account, { token })).status).toBe(200);
      }
    }
  });

  it('bring a vote on one to live viewers on both', async () => {
    const author = await register(one);
    const voter = await register(two);
    const question = await ask(one, author.token);
    const onTwo = await watch(two, question, author.token);
    const onOne = await watch(one, question, author.token);
    for (const stream of [onOne, onTwo]) await nextResult(stream, (result) => result.result?.count === 0);

    expect((await callServer(one.baseUrl, 'POST', api.answer(question), { token: voter.token, body: { choice: 2 } })).status).toBe(200);
    for (const stream of [onTwo, onOne]) {
      expect(await nextResult(stream, (result) => result.result?.count === 1)).toEqual({
        id: question,
        result: { count: 1, answers: [{ key: 1, percent: 0 }, { key: 2, percent: 100 }] },
        like_count: 0,
      });
    }
  });

  it('show a like made on one on the other, live and when asked', async () => {
    const author = await register(two);
    const fan = await register(one);
    const question = await ask(two, author.token);
    const onTwo = await watch(two, question, author.token);
    await nextResult(onTwo, () => true);

    expect((await callServer(one.baseUrl, 'POST', api.like(question), { token: fan.token })).status).toBe(200);
    expect(await nextResult(onTwo, (result) => result.like_count === 1)).toMatchObject({ id: question, like_count: 1 });
    const seen = await callServer(two.baseUrl, 'GET', api.question(question), { token: fan.token });
    expect(seen.body).toMatchObject({ like_count: 1, liked: true });
  });

  it('show a person what they just did on one on the other at once', async () => {
    const author = await register(one);
    const person = await register(two);
    const question = await ask(one, author.token);
    const authorId = (await callServer(one.baseUrl, 'GET', api.question(question), { token: author.token })).body.user;
    // Both instances have the question and the person's state in memory.
    for (const server of [one, two]) expect((await callServer(server.baseUrl, 'GET', api.question(question), { token: person.token })).body.answer).toBeNull();

    expect((await callServer(one.baseUrl, 'POST', api.answer(question), { token: person.token, body: { choice: 1 } })).status).toBe(200);
    expect((await callServer(one.baseUrl, 'POST', api.like(question), { token: person.token })).status).toBe(200);
    expect((await callServer(one.baseUrl, 'POST', api.follow(authorId), { token: person.token })).status).toBe(200);
    const seen = await callServer(two.baseUrl, 'GET', api.question(question), { token: person.token });
    // Their own vote is in the result they see, whether or not two heard of it yet.
    expect(seen.body).toMatchObject({ answer: { choice: 1 }, liked: true, result: { count: 1 } });
    const breakdown = await callServer(two.baseUrl, 'POST', api.breakdown(question), { token: person.token, body: {} });
    expect(breakdown.body.overall).toMatchObject({ count: 1 });
    expect((await callServer(two.baseUrl, 'POST', api.answer(question), { token: person.token, body: { choice: 2 } })).status).toBe(409);
    const feed = await callServer(two.baseUrl, 'GET', api.feed, { token: person.token });
    expect(feed.body.questions.map((item: { id: number }) => item.id)).toContain(question);

    expect((await callServer(one.baseUrl, 'POST', api.pass(question), { token: person.token })).status).toBe(200);
    const hidden = await callServer(two.baseUrl, 'GET', api.feed, { token: person.token });
    expect(hidden.body.questions.map((item: { id: number }) => item.id)).not.toContain(question);
  });

  it('bring what others do on one to the questions the other shows', async () => {
    const author = await register(two);
    const reader = await register(two);
    const question = await ask(two, author.token);
    const authorId = (await callServer(two.baseUrl, 'GET', api.question(question), { token: author.token })).body.user;
    expect((await callServer(two.baseUrl, 'POST', api.follow(authorId), { token: reader.token })).status).toBe(200);
    expect((await callServer(two.baseUrl, 'POST', api.answer(question), { token: reader.token, body: { choice: 1 } })).status).toBe(200);
    const feedOnTwo = async () => (await callServer(two.baseUrl, 'GET', api.feed, { token: reader.token })).body;
    expect((await feedOnTwo()).questions[0]).toMatchObject({ id: question, result: { count: 1 }, like_count: 0, user_name: 'Many' });

    // Others vote and like on one, the author asks again and renames there.
    const voter = await register(one);
    expect((await callServer(one.baseUrl, 'POST', api.answer(question), { token: voter.token, body: { choice: 2 } })).status).toBe(200);
    expect((await callServer(one.baseUrl, 'POST', api.like(question), { token: voter.token })).status).toBe(200);
    const newer = await ask(one, author.token);
    const account = (await callServer(one.baseUrl, 'GET', api.account, { token: author.token })).body;
    const renamed = { firstName: 'Renamed', birthDate: account.birthdate, livingIn: account.country, favoriteCategory: null, favoriteTopic: null };
    expect((await callServer(one.baseUrl, 'POST', api.account, { token: author.token, body: renamed })).status).toBe(200);

    // Heard through Redis within moments.
    await vi.waitFor(
      async () => {
        const feed = await feedOnTwo();
        expect(feed.questions.map((item: { id: number }) => item.id)).toEqual([newer, question]);
        expect(feed.questions[1]).toMatchObject({ result: { count: 2, answers: [{ key: 1, percent: 50 }, { key: 2, percent: 50 }] }, like_count: 1, user_name: 'Renamed' });
      },
      { timeout: 5_000, interval: 50 },
    );
  });

  it('end what a block forbids on the other at once', async () => {
    const author = await register(one);
    const reader = await register(two);
    const question = await ask(one, author.token);
    const idOf = async (email: string) => (await database.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
    expect((await callServer(two.baseUrl, 'POST', api.follow(await idOf(author.email)), { token: reader.token })).status).toBe(200);
    expect((await callServer(two.baseUrl, 'GET', api.feed, { token: reader.token })).body.questions.map((item: { id: number }) => item.id)).toEqual([question]);

    expect((await callServer(one.baseUrl, 'POST', api.ban(await idOf(reader.email)), { token: author.token })).status).toBe(200);
    expect((await callServer(two.baseUrl, 'GET', api.question(question), { token: reader.token })).status).toBe(403);
    expect((await callServer(two.baseUrl, 'GET', api.feed, { token: reader.token })).body.questions).toEqual([]);
  });
});
