import {
  accountSchema,
  api,
  breakdownFilterBodySchema,
  breakdownResultSchema,
  createQuestionResponseSchema,
  feedSchema,
  LIVE_RESULT_EVENT,
  type LiveResult,
  liveResultSchema,
  questionSchema,
  tokenResponseSchema,
} from '@pollscope/contract';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../db/index.js';
import { SYSTEM_EMAIL } from '../../db/schema.js';
import { openEventStream, type EventStream } from '../../test/event-stream.js';
import { createPostgresDatabase, databaseUrlFor, dropPostgresDatabase, testPostgresUrl } from '../../test/postgres.js';
import { serverClient, startServer, type ServerProcess } from '../../test/server-process.js';

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
  const body = {
    firstName: 'Many',
    birthDate: '1990-06-15',
    gender: 'F',
    livingIn: 840,
    email,
    password: 'correct horse',
  };
  const reply = await serverClient(server.baseUrl).raw('POST', api.register, body);
  expect(reply.status).toBe(201);
  return { email, token: reply.parse(tokenResponseSchema).token };
}

async function ask(server: ServerProcess, token: string): Promise<number> {
  const reply = await serverClient(server.baseUrl, token).raw('POST', api.create, {
    type: 'MC',
    question: 'North or south?',
    choices: ['North', 'South'],
    tags: [],
  });
  expect(reply.status).toBe(200);
  return reply.parse(createQuestionResponseSchema).question.id;
}

async function watch(server: ServerProcess, questionId: number, token: string): Promise<EventStream> {
  const stream = await openEventStream(`${server.baseUrl}${api.live(questionId)}`, token);
  streams.push(stream);
  expect(stream.status).toBe(200);
  return stream;
}

async function nextResult(stream: EventStream, matches: (result: LiveResult) => boolean): Promise<LiveResult> {
  const block = await stream.next(
    (block) => block.event === LIVE_RESULT_EVENT && matches(liveResultSchema.parse(JSON.parse(block.data!))),
    'matching result',
  );
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
    const signedIn = await serverClient(two.baseUrl).raw('POST', api.login, {
      email: person.email,
      password: 'correct horse',
    });
    expect(signedIn.status).toBe(200);
    for (const server of [one, two]) {
      for (const token of [person.token, signedIn.parse(tokenResponseSchema).token]) {
        expect((await serverClient(server.baseUrl, token).raw('GET', api.account)).status).toBe(200);
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

    expect((await serverClient(one.baseUrl, voter.token).raw('POST', api.answer(question), { choice: 2 })).status).toBe(
      200,
    );
    for (const stream of [onTwo, onOne]) {
      expect(await nextResult(stream, (result) => result.result?.count === 1)).toEqual({
        id: question,
        result: {
          count: 1,
          answers: [
            { key: 1, percent: 0 },
            { key: 2, percent: 100 },
          ],
        },
        like_count: 0,
        vote_count: 1,
      });
    }
  });

  it('show a like made on one on the other, live and when asked', async () => {
    const author = await register(two);
    const fan = await register(one);
    const question = await ask(two, author.token);
    const onTwo = await watch(two, question, author.token);
    await nextResult(onTwo, () => true);

    expect((await serverClient(one.baseUrl, fan.token).raw('POST', api.like(question))).status).toBe(200);
    expect(await nextResult(onTwo, (result) => result.like_count === 1)).toMatchObject({ id: question, like_count: 1 });
    const seen = await serverClient(two.baseUrl, fan.token).get(api.question(question), questionSchema);
    expect(seen).toMatchObject({ like_count: 1, liked: true });
  });

  it('show a person what they just did on one on the other at once', async () => {
    const author = await register(one);
    const person = await register(two);
    const question = await ask(one, author.token);
    const authorId = (await serverClient(one.baseUrl, author.token).get(api.question(question), questionSchema)).user;
    // Both instances have the question and the person's state in memory.
    for (const server of [one, two])
      expect(
        (await serverClient(server.baseUrl, person.token).get(api.question(question), questionSchema)).answer,
      ).toBeNull();

    expect(
      (await serverClient(one.baseUrl, person.token).raw('POST', api.answer(question), { choice: 1 })).status,
    ).toBe(200);
    expect((await serverClient(one.baseUrl, person.token).raw('POST', api.like(question))).status).toBe(200);
    expect((await serverClient(one.baseUrl, person.token).raw('POST', api.follow(authorId))).status).toBe(200);
    const seen = await serverClient(two.baseUrl, person.token).get(api.question(question), questionSchema);
    // Their own vote is in the result they see, whether or not two heard of it yet.
    expect(seen).toMatchObject({ answer: { choice: 1 }, liked: true, result: { count: 1 } });
    const breakdown = await serverClient(two.baseUrl, person.token).post(
      api.breakdown(question),
      breakdownFilterBodySchema,
      {},
      breakdownResultSchema,
    );
    expect(breakdown.overall).toMatchObject({ count: 1 });
    expect(
      (await serverClient(two.baseUrl, person.token).raw('POST', api.answer(question), { choice: 2 })).status,
    ).toBe(409);
    const feed = await serverClient(two.baseUrl, person.token).get(api.feed, feedSchema);
    expect(feed.questions.map((item) => item.id)).toContain(question);

    expect((await serverClient(one.baseUrl, person.token).raw('POST', api.pass(question))).status).toBe(200);
    const hidden = await serverClient(two.baseUrl, person.token).get(api.feed, feedSchema);
    expect(hidden.questions.map((item) => item.id)).not.toContain(question);
  });

  it('bring what others do on one to the questions the other shows', async () => {
    const author = await register(two);
    const reader = await register(two);
    const question = await ask(two, author.token);
    const authorId = (await serverClient(two.baseUrl, author.token).get(api.question(question), questionSchema)).user;
    expect((await serverClient(two.baseUrl, reader.token).raw('POST', api.follow(authorId))).status).toBe(200);
    expect(
      (await serverClient(two.baseUrl, reader.token).raw('POST', api.answer(question), { choice: 1 })).status,
    ).toBe(200);
    const feedOnTwo = () => serverClient(two.baseUrl, reader.token).get(api.feed, feedSchema);
    expect((await feedOnTwo()).questions[0]).toMatchObject({
      id: question,
      result: { count: 1 },
      like_count: 0,
      user_name: 'Many',
    });

    // Others vote and like on one, the author asks again and renames there.
    const voter = await register(one);
    expect((await serverClient(one.baseUrl, voter.token).raw('POST', api.answer(question), { choice: 2 })).status).toBe(
      200,
    );
    expect((await serverClient(one.baseUrl, voter.token).raw('POST', api.like(question))).status).toBe(200);
    const newer = await ask(one, author.token);
    const account = await serverClient(one.baseUrl, author.token).get(api.account, accountSchema);
    const renamed = {
      firstName: 'Renamed',
      birthDate: account.birthdate,
      livingIn: account.country,
      favoriteCategory: null,
      favoriteTopic: null,
    };
    expect((await serverClient(one.baseUrl, author.token).raw('POST', api.account, renamed)).status).toBe(200);

    // Heard through Redis within moments.
    await vi.waitFor(
      async () => {
        const feed = await feedOnTwo();
        expect(feed.questions.map((item) => item.id)).toEqual([newer, question]);
        expect(feed.questions[1]).toMatchObject({
          result: {
            count: 2,
            answers: [
              { key: 1, percent: 50 },
              { key: 2, percent: 50 },
            ],
          },
          like_count: 1,
          user_name: 'Renamed',
        });
      },
      { timeout: 5_000, interval: 50 },
    );
  });

  it('end what a block forbids on the other at once', async () => {
    const author = await register(one);
    const reader = await register(two);
    const question = await ask(one, author.token);
    const idOf = async (email: string) =>
      (await database.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
    expect(
      (await serverClient(two.baseUrl, reader.token).raw('POST', api.follow(await idOf(author.email)))).status,
    ).toBe(200);
    expect(
      (await serverClient(two.baseUrl, reader.token).get(api.feed, feedSchema)).questions.map((item) => item.id),
    ).toEqual([question]);

    expect((await serverClient(one.baseUrl, author.token).raw('POST', api.ban(await idOf(reader.email)))).status).toBe(
      200,
    );
    expect((await serverClient(two.baseUrl, reader.token).raw('GET', api.question(question))).status).toBe(403);
    expect((await serverClient(two.baseUrl, reader.token).get(api.feed, feedSchema)).questions).toEqual([]);
  });
});
