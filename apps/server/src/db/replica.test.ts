import { answerBodySchema, api, questionPageSchema, questionSchema, statsSchema } from '@pollscope/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config.js';
import { seedReferenceData } from '../seed/reference.js';
import { ask, client, createTestApp, secondInstance, signUp, type TestContext, type TestUser } from '../test/helper.js';
import { startPostgresCluster, startStreamingReplica, type PostgresCluster } from '../test/postgres.js';
import { migrateToLatest, openDatabase, type DatabaseHandle } from './index.js';

// Run by `npm test` on its PostgreSQL pass, which finds a Redis or says why it cannot run this.
const redisUrl = process.env.TEST_REDIS_URL;
if (!process.env.TEST_DATABASE_URL || !redisUrl)
  throw new Error('This test needs TEST_DATABASE_URL and TEST_REDIS_URL');

/** Long enough that a read made just after a write comes well within it on a busy machine. */
const MAX_LAG_MS = 4_000;

/**
 * A primary and its streaming replica of this test's own, and two instances of one deployment reading from the replica.
 */
let primary: PostgresCluster | undefined;
let replica: PostgresCluster | undefined;
let onReplica: DatabaseHandle | undefined;
let one: TestContext;
let two: FastifyInstance;
let closeTwo: (() => Promise<void>) | undefined;
beforeAll(async () => {
  primary = await startPostgresCluster();
  const migrating = openDatabase(primary.url);
  try {
    await migrateToLatest(migrating);
    await seedReferenceData(migrating.db);
  } finally {
    await migrating.close();
  }
  replica = await startStreamingReplica(primary);
  onReplica = openDatabase(replica.url, { poolSize: 1 });
  one = await createTestApp({
    databaseUrl: primary.url,
    databaseReplicaUrls: [replica.url],
    databaseReplicaMaxLagMs: MAX_LAG_MS,
    redisUrl,
    redisPrefix: `pollscope-test-${randomBytes(6).toString('hex')}:`,
  });
  ({ app: two, close: closeTwo } = await secondInstance(one));
}, 120_000);
afterAll(async () => {
  await closeTwo?.();
  await one?.close();
  await onReplica?.close();
  await replica?.destroy();
  await primary?.destroy();
});

/** A condition that holds within a few seconds, checked again and again until then. */
const eventually = (check: () => Promise<void>, timeout = 15_000) => vi.waitFor(check, { timeout, interval: 100 });

/** A series of the instance's metrics, summed over its labels matching `labels`. */
async function metric(app: FastifyInstance, name: string, labels = ''): Promise<number> {
  const text = (await app.inject({ method: 'GET', url: '/metrics' })).body;
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) && line.includes(labels))
    .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
}

/** The ids of the questions `user` answered, as `reader` sees them through `app`. */
async function answeredBy(app: FastifyInstance, reader: TestUser, user: TestUser): Promise<number[]> {
  const path = reader === user ? api.myAnswered : api.userAnswered(user.id);
  return (await client(app, reader.token).get(path, questionPageSchema)).questions.map((question) => question.id);
}

/** Whether `reader`'s next read through `app` goes to the replica: the replica reads counted rise with it. */
async function readsFromReplica(app: FastifyInstance, reader: TestUser, user: TestUser): Promise<boolean> {
  const before = await metric(app, 'pollscope_database_reads_total', 'target="replica"');
  await answeredBy(app, reader, user);
  return (await metric(app, 'pollscope_database_reads_total', 'target="replica"')) > before;
}

async function answer(app: FastifyInstance, voter: TestUser, questionId: number): Promise<void> {
  await client(app, voter.token).post(api.answer(questionId), answerBodySchema, { choice: 1 }, questionSchema);
}

/** Pauses or resumes the replica's replay of the primary's log, as an operator would to hold it at a point. */
const setReplay = async (paused: boolean) =>
  void (await (paused ? sql`select pg_wal_replay_pause()` : sql`select pg_wal_replay_resume()`).execute(onReplica!.db));

describe('reads from a streaming replica', () => {
  let writer: TestUser;
  let reader: TestUser;
  let asker: TestUser;
  beforeAll(async () => {
    [writer, reader, asker] = [await signUp(one), await signUp(one), await signUp(one)];
    // A token just issued reads from the primary until every replica in use has it.
    await eventually(async () => expect(await readsFromReplica(two, reader, writer)).toBe(true));
    await eventually(async () => expect(await readsFromReplica(two, writer, writer)).toBe(true));
  }, 60_000);

  it('shows a person their own answer at once on either instance while the replica has not replayed it, and others once it has', async () => {
    const questionId = await ask(asker);
    await eventually(async () => expect(await metric(two, 'pollscope_database_replica_in_use')).toBe(1));
    await setReplay(true);
    try {
      await answer(one.app, writer, questionId);
      // The writer's next read, on the other instance, goes to the primary.
      expect(await answeredBy(two, writer, writer)).toContain(questionId);
      expect(await answeredBy(one.app, writer, writer)).toContain(questionId);
      // Someone who just registered finds their account, which the replica does not have yet.
      const newcomer = await signUp(one);
      expect(await client(two, newcomer.token).get(api.myStats, statsSchema)).toEqual({
        question: 0,
        answer: 0,
        like: 0,
      });
      // Someone else reads the replica, which has not replayed the answer yet…
      expect(await answeredBy(two, reader, writer)).not.toContain(questionId);
      // …until it lags past the bound and is left out: reads go to the primary.
      await eventually(async () => expect(await answeredBy(two, reader, writer)).toContain(questionId));
      expect(await metric(two, 'pollscope_database_replica_in_use')).toBe(0);
    } finally {
      await setReplay(false);
    }
    // Replaying again, it catches up and takes reads again.
    await eventually(async () => expect(await metric(two, 'pollscope_database_replica_in_use')).toBe(1));
    await eventually(async () => expect(await readsFromReplica(two, reader, writer)).toBe(true));
    expect(await answeredBy(two, reader, writer)).toContain(questionId);
  });

  it('keeps answering from the primary when the replica stops', async () => {
    const questionId = await ask(asker);
    await answer(two, writer, questionId);
    await eventually(async () => expect(await readsFromReplica(one.app, reader, writer)).toBe(true));
    await replica!.stop();
    try {
      for (let round = 0; round < 10; round += 1) {
        for (const app of [one.app, two]) {
          expect(await answeredBy(app, reader, writer)).toContain(questionId);
          expect((await client(app, reader.token).raw('GET', api.userStats(writer.id))).status).toBe(200);
          expect((await client(app).raw('GET', api.siteStats)).status).toBe(200);
          expect((await client(app, reader.token).raw('GET', api.trending)).status).toBe(200);
        }
      }
      await eventually(async () => expect(await metric(one.app, 'pollscope_database_replica_in_use')).toBe(0));
      expect(await readsFromReplica(one.app, reader, writer)).toBe(false);
    } finally {
      await replica!.start();
    }
    await eventually(async () => expect(await readsFromReplica(one.app, reader, writer)).toBe(true));
  });
});

describe('DATABASE_REPLICA_URL', () => {
  it('stops the start when the primary is a SQLite file, which has no replicas', () => {
    expect(() =>
      loadConfig({ DATABASE_URL: 'data/pollscope.db', DATABASE_REPLICA_URL: 'postgres://replica/pollscope' }),
    ).toThrow(/DATABASE_REPLICA_URL/);
  });

  it('takes several replicas, comma separated', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://primary/pollscope',
      DATABASE_REPLICA_URL: 'postgres://one/pollscope, postgres://two/pollscope',
    });
    expect(config.databaseReplicaUrls).toEqual(['postgres://one/pollscope', 'postgres://two/pollscope']);
    expect(loadConfig({ DATABASE_URL: 'postgres://primary/pollscope' }).databaseReplicaUrls).toEqual([]);
  });
});
