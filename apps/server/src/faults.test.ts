import { api, feedSchema, loginBodySchema, questionSchema } from '@pollscope/contract';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFailed, onTestFinished, vi } from 'vitest';
import { findTallyMismatches } from './db/check.js';
import { openDatabase } from './db/index.js';
import { openEventStream, type StreamBlock } from './test/event-stream.js';
import { createPostgresDatabase, databaseUrlFor, startPostgresCluster, type PostgresCluster } from './test/postgres.js';
import { startRedisServer, type RedisServer } from './test/redis-server.js';
import {
  createCommunity,
  serverClient,
  startServer,
  streamVotes,
  votesMissing,
  type ServerProcess,
  type VoteOutcome,
} from './test/server-process.js';

/*
 * The faults an operator meets, each on real server processes: PostgreSQL and Redis stopped and
 * started under load (a cluster and a Redis of this file's own, so that it may stop them), and
 * the embedded database's disk full. Each prints what it measured.
 */

let cluster: PostgresCluster;
let redis: RedisServer;
const servers: ServerProcess[] = [];
beforeAll(async () => {
  [cluster, redis] = await Promise.all([startPostgresCluster(), startRedisServer()]);
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop('SIGKILL')));
  await Promise.all([cluster?.destroy(), redis?.destroy()]);
});

/** A server for the test under way; should the test fail, what the server wrote is shown with it. */
async function start(databaseUrl: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const server = await startServer(databaseUrl, env);
  servers.push(server);
  onTestFailed(() => console.log(`The server at ${server.baseUrl} wrote:\n${server.output()}`));
  return server;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const answeredAt = (vote: VoteOutcome) => vote.sentAt + vote.ms;

/** Reads a question over and over until `stop()`, pausing between reads: every status and time. */
async function readWhile(
  baseUrl: string,
  token: string,
  questionId: number,
  stop: () => boolean,
): Promise<{ status: number; ms: number }[]> {
  const reads: { status: number; ms: number }[] = [];
  while (!stop()) {
    const sentAt = performance.now();
    const reply = await serverClient(baseUrl, token).raw('GET', api.question(questionId));
    reads.push({ status: reply.status, ms: performance.now() - sentAt });
    await sleep(20);
  }
  return reads;
}

describe('PostgreSQL stopped for 10 s under load, then started', () => {
  it(
    'answers 503 at once while it is away, serves again as soon as it is back, and loses no acknowledged vote',
    { timeout: 90_000 },
    async () => {
      const databaseUrl = databaseUrlFor(cluster.url, await createPostgresDatabase(cluster.url, 'pollscope_test'));
      const server = await start(databaseUrl, { DATABASE_POOL_SIZE: '5' });
      // Running again for the tests after this one, however this one ends.
      onTestFinished(() => cluster.start());
      const community = await createCommunity(server.baseUrl, { voters: 16, questions: 24 });

      // Votes (by distinct people, each sent once) and reads go on until 2 s after the first vote acknowledged once
      // PostgreSQL is back.
      let backAt = Infinity;
      let recoveredAt = Infinity;
      const stop = () => performance.now() > Math.min(recoveredAt + 2_000, backAt + 20_000);
      const votes = streamVotes(server.baseUrl, community, {
        concurrency: 2,
        refusals: true,
        pauseMs: 100,
        stop,
        onOutcome: (vote) => {
          if (vote.status === 200 && answeredAt(vote) > backAt) recoveredAt = Math.min(recoveredAt, answeredAt(vote));
        },
      });
      const reads = readWhile(server.baseUrl, community.authorToken, community.questionIds[0], stop);
      await sleep(1_500);

      const stoppingAt = performance.now();
      await cluster.stop();
      const stoppedAt = performance.now();
      await sleep(1_000);
      const notReady = await serverClient(server.baseUrl).raw('GET', api.ready);
      expect(notReady.status).toBe(503);
      expect(notReady.json()).toEqual({ message: expect.stringMatching(/database/) });
      await sleep(10_000 - (performance.now() - stoppedAt));
      const startingAt = performance.now();
      await cluster.start();
      backAt = performance.now();
      const [{ acknowledged, outcomes }, readings] = await Promise.all([votes, reads]);

      expect(server.child.exitCode, 'the server still runs').toBeNull();
      expect((await serverClient(server.baseUrl).raw('GET', api.ready)).status).toBe(200);
      // Every request answered, none after more than 5 s, each vote 200 or 503 (streamVotes fails on any other).
      expect(outcomes.filter((vote) => vote.status === null)).toEqual([]);
      const longestMs = Math.max(...outcomes.map((vote) => vote.ms), ...readings.map((read) => read.ms));
      expect(longestMs).toBeLessThan(5_000);
      expect(readings.filter((read) => read.status !== 200 && read.status !== 503)).toEqual([]);
      // While it was away every vote was refused, at once; once it was back they succeeded again within 5 s, and from
      // then on.
      const duringOutage = outcomes.filter((vote) => vote.sentAt >= stoppedAt && vote.sentAt < startingAt);
      expect(duringOutage.length).toBeGreaterThan(20);
      expect(duringOutage.filter((vote) => vote.status !== 503)).toEqual([]);
      const firstRefusal = Math.min(...outcomes.filter((vote) => vote.status === 503).map(answeredAt));
      expect(recoveredAt - backAt).toBeLessThan(5_000);
      expect(outcomes.filter((vote) => vote.sentAt > recoveredAt && vote.status !== 200)).toEqual([]);

      // Every acknowledged vote is there; a refused one may have committed as its connection was cut, never the other
      // way.
      expect(await votesMissing(server.baseUrl, community, acknowledged)).toEqual([]);
      const refused = outcomes.filter((vote) => vote.status === 503);
      const refusedButStored = refused.length - (await votesMissing(server.baseUrl, community, refused)).length;
      const database = openDatabase(databaseUrl, { poolSize: 1 });
      try {
        expect(await findTallyMismatches(database.db)).toEqual([]);
      } finally {
        await database.close();
      }
      console.log(
        `PostgreSQL away ${seconds(backAt - stoppingAt)} (stopping took ${seconds(stoppedAt - stoppingAt)}): first vote refused ${seconds(firstRefusal - stoppingAt)} after the stop began, ` +
          `longest request ${seconds(longestMs)}; first vote acknowledged ${seconds(recoveredAt - backAt)} after it was back; ` +
          `${outcomes.length} votes sent, ${acknowledged.length} acknowledged, ${refused.length} refused with 503 (${refusedButStored} of them committed as the connection was cut), 0 acknowledged lost; ${readings.length} reads`,
      );
    },
  );
});

describe('Redis stopped and started under load, with two instances', () => {
  it(
    'keeps both serving, limits each on its own meanwhile, and catches every copy up once it is back',
    { timeout: 90_000 },
    async () => {
      const databaseUrl = databaseUrlFor(cluster.url, await createPostgresDatabase(cluster.url, 'pollscope_test'));
      const env = {
        REDIS_URL: redis.url,
        REDIS_PREFIX: `pollscope-test-${randomBytes(6).toString('hex')}:`,
        RATE_LIMITS: 'on',
      };
      const [one, two] = await Promise.all([start(databaseUrl, env), start(databaseUrl, env)]);
      // Registration is limited to 10 an hour per address: the author and 6 voters.
      const community = await createCommunity(one.baseUrl, { voters: 6, questions: 12 });
      const [watched, copied] = community.questionIds;
      const { authorToken, voterTokens } = community;
      const questionOn = async (server: ServerProcess, id: number) =>
        serverClient(server.baseUrl, authorToken).get(api.question(id), questionSchema);

      // Instance two shows a live result and keeps a copy of a question: what it must catch up on.
      const live = await openEventStream(`${two.baseUrl}${api.live(watched)}`, authorToken);
      onTestFinished(() => live.close());
      const countOf = (block: StreamBlock) => (JSON.parse(block.data!) as { result: { count: number } }).result.count;
      /**
       * The next live result counting `count` votes; results counting fewer may come first (each instance that missed
       * something sends it again).
       */
      const liveCounts = (count: number) =>
        live.next((block) => block.event === 'result' && countOf(block) === count, `a live result counting ${count}`);
      await liveCounts(0);
      expect((await questionOn(two, copied)).result?.count).toBe(0);

      const stoppedAt = performance.now();
      await redis.stop();
      // Both instances go on serving: reads on each all along, votes on each, none refused, none waiting on Redis.
      let outage = true;
      const reads = Promise.all(
        [one, two].map((server, index) =>
          readWhile(server.baseUrl, voterTokens[5], community.questionIds[10 + index], () => !outage),
        ),
      );
      const statuses: number[] = [];
      let longestMs = 0;
      const call = async (server: ServerProcess, token: string, method: 'GET' | 'POST', url: string, body?: object) => {
        const sentAt = performance.now();
        const reply = await serverClient(server.baseUrl, token).raw(method, url, body);
        longestMs = Math.max(longestMs, performance.now() - sentAt);
        statuses.push(reply.status);
        return reply;
      };
      for (let voter = 0; voter < 3; voter += 1) {
        await call(one, voterTokens[voter], 'POST', api.answer(copied), { choice: 1 });
        await call(two, voterTokens[voter], 'POST', api.answer(community.questionIds[2 + voter]), { choice: 2 });
        await call(one, voterTokens[voter], 'GET', api.feed);
        // Not `copied` as one of its voters: a card counting fewer votes than the reader's own is read again at once.
        await call(two, voterTokens[voter], 'GET', api.question(community.questionIds[2 + voter]));
      }
      await call(one, voterTokens[3], 'POST', api.answer(watched), { choice: 3 });
      expect(statuses.filter((status) => status !== 200)).toEqual([]);
      // Instance two did not hear of the votes made on one: this is what Redis coming back must repair.
      expect((await questionOn(two, copied)).result?.count).toBe(0);

      // Rate limits count on each instance alone: ten failed sign-ins for an account on one, then it refuses; two still
      // counts its own.
      const login = (server: ServerProcess, email: string) =>
        serverClient(server.baseUrl).raw(
          'POST',
          api.login,
          loginBodySchema.parse({ email, password: 'not the password' }),
        );
      const alone = `nobody-${randomBytes(4).toString('hex')}@example.com`;
      for (let attempt = 0; attempt < 10; attempt += 1) expect((await login(one, alone)).status).toBe(400);
      expect((await login(one, alone)).status).toBe(429);
      expect((await login(two, alone)).status).toBe(400);

      await sleep(1_000);
      outage = false;
      const readings = (await reads).flat();
      expect(readings.filter((read) => read.status !== 200)).toEqual([]);
      longestMs = Math.max(longestMs, ...readings.map((read) => read.ms));
      const startingAt = performance.now();
      await redis.start();
      const startedAt = performance.now();
      // Both ready again (their Redis connections back), then every copy that could have missed a change read again.
      await vi.waitFor(
        async () => {
          for (const server of [one, two])
            expect((await serverClient(server.baseUrl).raw('GET', api.ready)).status).toBe(200);
        },
        { timeout: 10_000, interval: 50 },
      );
      const readyAt = performance.now();
      await vi.waitFor(async () => expect((await questionOn(two, copied)).result?.count).toBe(3), {
        timeout: 5_000,
        interval: 50,
      });
      const caughtUpAt = performance.now();
      // The live result on two, silent meanwhile, is sent again with the vote it missed, then with each new one.
      await liveCounts(1);
      await call(one, voterTokens[4], 'POST', api.answer(watched), { choice: 1 });
      await liveCounts(2);
      await call(one, voterTokens[4], 'POST', api.like(copied));
      await vi.waitFor(async () => expect((await questionOn(two, copied)).like_count).toBe(1), {
        timeout: 5_000,
        interval: 50,
      });

      // Rate limits count across instances again: five failed sign-ins on each, and both refuse the next.
      const shared = `nobody-${randomBytes(4).toString('hex')}@example.com`;
      for (let attempt = 0; attempt < 10; attempt += 1)
        expect((await login(attempt % 2 ? two : one, shared)).status).toBe(400);
      expect((await login(one, shared)).status).toBe(429);
      expect((await login(two, shared)).status).toBe(429);

      expect(statuses.filter((status) => status !== 200)).toEqual([]);
      expect(longestMs).toBeLessThan(5_000);
      for (const server of [one, two]) expect(server.child.exitCode, 'both still run').toBeNull();
      console.log(
        `Redis away ${seconds(startingAt - stoppedAt)}: ${statuses.length + readings.length} calls to both instances meanwhile, all 200, longest ${seconds(longestMs)}; ` +
          `both ready ${seconds(readyAt - startedAt)} after it was back, instance two's copy caught up ${seconds(caughtUpAt - readyAt)} later`,
      );
    },
  );
});

/**
 * Whether this process may mount a file system (root, with the capability): the disk-full test needs one of its own.
 */
function canMount(): boolean {
  return process.getuid?.() === 0;
}

/** Writes a file until the file system refuses with ENOSPC; deleting it gives the space back. */
function fillDisk(file: string): number {
  const descriptor = fs.openSync(file, 'w');
  let written = 0;
  try {
    for (const size of [1 << 20, 1 << 16, 1 << 12, 1 << 9]) {
      const chunk = Buffer.alloc(size, 1);
      for (;;) {
        try {
          written += fs.writeSync(descriptor, chunk);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
          break;
        }
      }
    }
  } finally {
    fs.closeSync(descriptor);
  }
  return written;
}

describe('the embedded database’s disk full', () => {
  it(
    'refuses writes with 503 while the disk is full, goes on reading, and writes again once there is space',
    { timeout: 60_000 },
    async () => {
      expect(canMount(), 'this test mounts a small tmpfs: run it as root').toBe(true);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pollscope-full-'));
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', dir]);
      try {
        const server = await start(path.join(dir, 'full.db'));
        const community = await createCommunity(server.baseUrl, { voters: 12, questions: 15 });
        const filler = path.join(dir, 'filler');
        const filledAt = performance.now();
        fillDisk(filler);

        // Writes go on into the space the log already has, then are refused with 503 (some still
        // fit, in what a refused one leaves); none fails otherwise (streamVotes fails on any other status).
        let refusedAt = Infinity;
        let refusals = 0;
        const { acknowledged, outcomes } = await streamVotes(server.baseUrl, community, {
          concurrency: 4,
          refusals: true,
          stop: () => refusals >= 20,
          onOutcome: (vote) => {
            if (vote.status !== 503) return;
            refusals += 1;
            refusedAt = Math.min(refusedAt, answeredAt(vote));
          },
        });
        expect(refusals, 'writes refused once the disk is full').toBeGreaterThanOrEqual(20);
        const acknowledgedWhileFull = acknowledged.length;
        // Reads go on.
        expect(
          (await serverClient(server.baseUrl, community.authorToken).raw('GET', api.question(community.questionIds[0])))
            .status,
        ).toBe(200);
        expect(
          feedSchema.safeParse(
            (await serverClient(server.baseUrl, community.voterTokens[0]).raw('GET', api.feed)).json(),
          ).success,
        ).toBe(true);

        fs.rmSync(filler);
        const freedAt = performance.now();
        const after = await streamVotes(server.baseUrl, community, {
          concurrency: 2,
          refusals: true,
          stop: (count) => count >= 20,
          from: outcomes.length,
        });
        const firstWrite = after.outcomes.find((vote) => vote.status === 200)!;
        expect(after.outcomes.filter((vote) => vote.status !== 200)).toEqual([]);
        expect(server.child.exitCode, 'the server still runs').toBeNull();

        const all = [...acknowledged, ...after.acknowledged];
        expect(await votesMissing(server.baseUrl, community, all)).toEqual([]);
        const database = openDatabase(path.join(dir, 'full.db'));
        try {
          expect(await findTallyMismatches(database.db)).toEqual([]);
        } finally {
          await database.close();
        }
        const refused = [...outcomes, ...after.outcomes].filter((vote) => vote.status === 503).length;
        console.log(
          `SQLite disk full: ${acknowledgedWhileFull} votes still fitted, first refused ${seconds(refusedAt - filledAt)} after the disk filled; ` +
            `${refused} writes refused with 503, reads answered; first vote acknowledged ${seconds(answeredAt(firstWrite) - freedAt)} after space was freed; 0 acknowledged lost`,
        );
      } finally {
        await Promise.all(servers.splice(0).map((server) => server.stop('SIGKILL')));
        execFileSync('umount', [dir]);
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
