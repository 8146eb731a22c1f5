import type { FastifyInstance, InjectOptions } from 'fastify';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig, type Config } from '../config.js';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../db/index.js';
import { seedReferenceData } from '../db/seed/reference.js';
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
    if (!template) throw new Error('TEST_DATABASE_URL is set but the run made no template database: run the tests with vitest.config.ts');
    const name = await createPostgresDatabase(serverUrl, 'pollscope_test', template);
    return { url: databaseUrlFor(serverUrl, name), drop: () => dropPostgresDatabase(serverUrl, name) };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pollscope-test-'));
  const url = path.join(dir, 'test.db');
  const database = openDatabase(url);
  try {
    await migrateToLatest(database);
    await seedReferenceData(database.db);
  } finally {
    await database.close();
  }
  return { url, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** A fresh, migrated and seeded database of its own for one test file, and the app on it. */
export async function createTestApp(overrides: Partial<Config> = {}): Promise<TestContext> {
  const testDatabase = await createTestDatabase();
  const config: Config = {
    ...loadConfig({}),
    databaseUrl: testDatabase.url,
    seedDemo: false,
    rateLimits: false,
    // The cheapest cost scrypt allows with these parameters keeps registrations fast in tests.
    passwordHashCost: 1024,
    ...overrides,
  };
  const database = openDatabase(config.databaseUrl);
  const app = await buildApp({ config, database, checkResponses: true });
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
    },
  };
  return ctx;
}

/** Starts the app again on the same database, as after a deploy: what it kept in memory is gone. */
export async function restartApp(ctx: TestContext): Promise<void> {
  await ctx.app.close();
  ctx.app = await buildApp({ config: ctx.config, database: ctx.database, checkResponses: true });
  await ctx.app.ready();
}

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Record<string, unknown>;
}

/** Calls the API as a user (or anonymously without a token), the way the web app does. */
export function client(app: FastifyInstance, token?: string) {
  const call = async <T = any>(method: InjectOptions['method'], url: string, payload?: unknown): Promise<Reply<T>> => {
    const response = await app.inject({
      method,
      url,
      headers: { accept: 'application/json', ...(token ? { authorization: `Token ${token}` } : {}) },
      ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
    });
    const text = response.body;
    return { status: response.statusCode, body: text && response.headers['content-type']?.toString().includes('json') ? JSON.parse(text) : text, headers: response.headers };
  };
  return {
    get: <T = any>(url: string) => call<T>('GET', url),
    post: <T = any>(url: string, payload?: unknown) => call<T>('POST', url, payload),
  };
}

let registered = 0;

export interface TestUser {
  id: number;
  token: string;
  email: string;
  api: ReturnType<typeof client>;
}

/** Registers a new person through the API and returns their id, token and a client acting as them. */
export async function signUp(ctx: TestContext, overrides: Record<string, unknown> = {}): Promise<TestUser> {
  registered += 1;
  const email = `person${registered}-${Date.now()}@example.com`;
  const body = { firstName: `Person ${registered}`, birthDate: '1990-06-15', gender: 'F', livingIn: 840, email, password: 'correct horse', ...overrides };
  const reply = await client(ctx.app).post('/api/auth/register/', body);
  if (reply.status !== 201) throw new Error(`register failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  const user = await ctx.database.db.selectFrom('users').select('id').where('email', '=', String(body.email).toLowerCase()).executeTakeFirstOrThrow();
  return { id: user.id, token: reply.body.token, email: String(body.email), api: client(ctx.app, reply.body.token) };
}

/** Asks a question through the API and returns its id. */
export async function ask(user: TestUser, body: Record<string, unknown> = {}): Promise<number> {
  const reply = await user.api.post('/api/polls/create/', { type: 'MC', question: 'Cats or dogs?', choices: ['Cats', 'Dogs'], tags: [], ...body });
  if (reply.status !== 200) throw new Error(`create failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.question.id;
}
