import {
  accountSchema,
  accountUpdateBodySchema,
  api,
  createQuestionBodySchema,
  createQuestionResponseSchema,
  registerBodySchema,
  tokenResponseSchema,
  type AccountUpdateBody,
  type CreateQuestionBody,
  type RegisterBody,
} from '@pollscope/contract';
import type { FastifyInstance } from 'fastify';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { buildApp, type AppOptions } from '../app.js';
import { loadConfig, type Config } from '../config.js';
import { migrateToLatest, openDatabase, type DatabaseHandle, type DatabaseOptions, type Db } from '../db/index.js';
import { seedReferenceData } from '../seed/reference.js';
import { apiClient, RawReply, type ApiClient } from './client.js';
import { startMailServer, type TestMailServer } from './mail-server.js';
import { createPostgresDatabase, databaseUrlFor, dropPostgresDatabase, testPostgresUrl } from './postgres.js';

export interface TestContext {
  app: FastifyInstance;
  database: DatabaseHandle;
  config: Config;
  close(): Promise<void>;
}

export interface TestDatabase {
  /** A SQLite file path, or a postgres:// URL on a PostgreSQL run (TEST_DATABASE_URL). */
  url: string;
  drop(): Promise<void>;
}

/**
 * A fresh, migrated and seeded database of its own: a SQLite file, or on a PostgreSQL run a
 * database of its own on that server, copied from the run's template (test/global-setup.ts).
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (testPostgresUrl) {
    const serverUrl = testPostgresUrl;
    const template = inject('postgresTemplate');
    if (!template)
      throw new Error(
        'TEST_DATABASE_URL is set but the run made no template database: run the tests with vitest.config.ts',
      );
    const name = await createPostgresDatabase(serverUrl, 'pollscope_test', template);
    return { url: databaseUrlFor(serverUrl, name), drop: () => dropPostgresDatabase(serverUrl, name) };
  }
  const testDatabase = await createEmptyTestDatabase();
  const database = openDatabase(testDatabase.url);
  try {
    await migrateToLatest(database);
    await seedReferenceData(database.db);
  } finally {
    await database.close();
  }
  return testDatabase;
}

/**
 * A new database with no table, not even migrated: a SQLite file, or on a PostgreSQL run a database of its own on that
 * server.
 */
export async function createEmptyTestDatabase(): Promise<TestDatabase> {
  if (testPostgresUrl) {
    const serverUrl = testPostgresUrl;
    const name = await createPostgresDatabase(serverUrl, 'pollscope_test');
    return { url: databaseUrlFor(serverUrl, name), drop: () => dropPostgresDatabase(serverUrl, name) };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pollscope-test-'));
  return { url: path.join(dir, 'test.db'), drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** The replicas a test's config names (none but in the replica tests). */
function replicasOf(config: Config): DatabaseOptions {
  return { replicaUrls: config.databaseReplicaUrls, replicaMaxLagMs: config.databaseReplicaMaxLagMs };
}

/** What a test may give the app beside its config: the source of its private releases' noise. */
type TestAppOptions = Pick<AppOptions, 'noiseRandom'>;

/** A fresh, migrated and seeded database of its own for one test file, and the app on it. */
export async function createTestApp(
  overrides: Partial<Config> = {},
  appOptions: TestAppOptions = {},
): Promise<TestContext> {
  return createTestAppOn(await createTestDatabase(), overrides, appOptions);
}

/** The app on `testDatabase`, which closing the app drops. */
export async function createTestAppOn(
  testDatabase: TestDatabase,
  overrides: Partial<Config> = {},
  appOptions: TestAppOptions = {},
): Promise<TestContext> {
  // Mail the test does not catch with a mail server of its own is written here, not beside the project's data.
  const mailDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pollscope-test-mail-'));
  const config: Config = {
    ...loadConfig({}),
    databaseUrl: testDatabase.url,
    mailDir,
    seedDemo: false,
    rateLimits: false,
    // The cheapest cost scrypt allows with these parameters keeps registrations fast in tests.
    passwordHashCost: 1024,
    // Tests share busy cores: a slow moment must not refuse their requests (the overload tests set their own bounds).
    overloadQueueTimeoutMs: 0,
    ...overrides,
  };
  const database = openDatabase(config.databaseUrl, replicasOf(config));
  const app = await buildApp({ config, database, checkResponses: true, ...appOptions });
  await app.ready();
  const ctx: TestContext = {
    app,
    database,
    config,
    async close() {
      // The app of now: restartApp may have replaced the first.
      await ctx.app.close();
      await database.close();
      await testDatabase.drop();
      fs.rmSync(mailDir, { recursive: true, force: true });
    },
  };
  return ctx;
}

/** A test app whose mail goes through a test mail server of its own; closing the app stops the server too. */
export async function createTestAppWithMail(
  overrides: Partial<Config> = {},
): Promise<{ ctx: TestContext; mailbox: TestMailServer }> {
  const mailbox = await startMailServer();
  const ctx = await createTestApp({ smtpUrl: mailbox.url, ...overrides });
  const closeApp = ctx.close;
  ctx.close = async () => {
    await closeApp();
    await mailbox.stop();
  };
  return { ctx, mailbox };
}

/** Another instance of the app on the test's database, as a second server of one deployment. */
export async function secondInstance(ctx: TestContext): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  const database = openDatabase(ctx.config.databaseUrl, replicasOf(ctx.config));
  const app = await buildApp({ config: ctx.config, database, checkResponses: true });
  await app.ready();
  return {
    app,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/**
 * Starts another instance on the test's database beside `ctx`'s, as a second server of one deployment; closing `ctx`
 * closes it first.
 */
export async function withSecondInstance(ctx: TestContext): Promise<FastifyInstance> {
  const second = await secondInstance(ctx);
  const closeFirst = ctx.close;
  ctx.close = async () => {
    await second.close();
    await closeFirst();
  };
  return second.app;
}

/** Starts the app again on the same database, as after a deploy: what it kept in memory is gone. */
export async function restartApp(ctx: TestContext): Promise<void> {
  await ctx.app.close();
  ctx.app = await buildApp({ config: ctx.config, database: ctx.database, checkResponses: true });
  await ctx.app.ready();
}

/** Calls the test's app through `inject` as a user with `token`, or anonymously. */
export function client(app: FastifyInstance, token?: string): ApiClient {
  return apiClient(async (method, url, payload) => {
    const response = await app.inject({
      method,
      url,
      headers: { accept: 'application/json', ...(token ? { authorization: `Token ${token}` } : {}) },
      ...(payload === undefined ? {} : { payload }),
    });
    return new RawReply(response.statusCode, response.headers, response.body);
  });
}

let registered = 0;

export interface TestUser {
  id: number;
  token: string;
  email: string;
  api: ApiClient;
}

/** Registers a new person through the API and returns their id, token and a client acting as them. */
export async function signUp(ctx: TestContext, overrides: Partial<RegisterBody> = {}): Promise<TestUser> {
  registered += 1;
  const email = `person${registered}-${Date.now()}@example.com`;
  const body: RegisterBody = {
    firstName: `Person ${registered}`,
    birthDate: '1990-06-15',
    gender: 'F',
    livingIn: 840,
    email,
    password: 'correct horse',
    ...overrides,
  };
  const { token } = await client(ctx.app).post(api.register, registerBodySchema, body, tokenResponseSchema);
  const user = await ctx.database.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', body.email.toLowerCase())
    .executeTakeFirstOrThrow();
  return { id: user.id, token, email: body.email, api: client(ctx.app, token) };
}

/** Asks a question through the API and returns its id. */
export async function ask(user: TestUser, body: Partial<CreateQuestionBody> = {}): Promise<number> {
  const question: CreateQuestionBody = {
    type: 'MC',
    question: 'Cats or dogs?',
    choices: ['Cats', 'Dogs'],
    tags: [],
    ...body,
  };
  const created = await user.api.post(api.create, createQuestionBodySchema, question, createQuestionResponseSchema);
  return created.question.id;
}

/** Changes some of the person's personal info through the API, keeping the rest (favourites cleared unless given). */
export async function updateAccount(user: TestUser, change: Partial<AccountUpdateBody>): Promise<void> {
  const account = await user.api.get(api.account, accountSchema);
  const update = {
    firstName: account.first_name,
    birthDate: account.birthdate,
    livingIn: account.country,
    favoriteCategory: null,
    favoriteTopic: null,
    ...change,
  };
  await user.api.post(api.account, accountUpdateBodySchema, update, accountSchema);
}

/** `db` counting the statements run on it: each, compiled once or built from its table, hands its result to plugins. */
export function countingStatements(db: Db): { db: Db; statements(): number } {
  let statements = 0;
  const counted = db.withPlugin({
    transformQuery: ({ node }) => node,
    transformResult: ({ result }) => {
      statements += 1;
      return Promise.resolve(result);
    },
  });
  return { db: counted, statements: () => statements };
}
