import { api, questionSchema } from '@pollscope/contract';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findTallyMismatches } from './check.js';
import { openDatabase } from './index.js';
import {
  createCommunity,
  serverClient,
  startServer,
  streamVotes,
  votesMissing,
  type ServerProcess,
} from '../test/server-process.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pollscope-crash-'));
const databaseUrl = path.join(dir, 'crash.db');
const servers: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop('SIGKILL')));
  fs.rmSync(dir, { recursive: true, force: true });
});

async function start(): Promise<ServerProcess> {
  const server = await startServer(databaseUrl);
  servers.push(server);
  return server;
}

describe('a crash', () => {
  it('loses no acknowledged vote and leaves every tally equal to its votes', { timeout: 120_000 }, async () => {
    const first = await start();
    const community = await createCommunity(first.baseUrl, { voters: 40, questions: 10 });

    // The server is killed without warning while votes are on the wire.
    let killed = false;
    const { acknowledged } = await streamVotes(first.baseUrl, community, {
      concurrency: 16,
      stop: (count) => {
        if (count >= 150 && !killed) {
          killed = true;
          first.child.kill('SIGKILL');
        }
        return false;
      },
    });
    await first.stop();
    expect(first.child.signalCode).toBe('SIGKILL');
    expect(acknowledged.length).toBeGreaterThanOrEqual(150);
    expect(acknowledged.length).toBeLessThan(400);

    const second = await start();
    expect(await votesMissing(second.baseUrl, community, acknowledged)).toEqual([]);

    const database = openDatabase(databaseUrl);
    try {
      expect(await findTallyMismatches(database.db)).toEqual([]);
      const perQuestion = await database.db
        .selectFrom('votes')
        .select(['question_id', (eb) => eb.fn.countAll<number>().as('count')])
        .groupBy('question_id')
        .execute();
      const stored = perQuestion.reduce((sum, row) => sum + Number(row.count), 0);
      // Votes whose answer the crash cut off may or may not have been committed; no more than those.
      expect(stored).toBeGreaterThanOrEqual(acknowledged.length);
      expect(stored).toBeLessThanOrEqual(acknowledged.length + 16);
      for (const row of perQuestion) {
        const question = await serverClient(second.baseUrl, community.authorToken).get(
          api.question(row.question_id),
          questionSchema,
        );
        expect(question.result?.count).toBe(Number(row.count));
      }
    } finally {
      await database.close();
    }
  });
});

describe('a stop (SIGTERM) during a stream of votes', () => {
  it(
    'finishes the votes in flight, commits those queued, exits cleanly, and keeps every acknowledged one',
    { timeout: 60_000 },
    async () => {
      const server = await start();
      const community = await createCommunity(server.baseUrl, { voters: 16, questions: 8 });
      let signalledAt = Infinity;
      const { acknowledged, outcomes } = await streamVotes(server.baseUrl, community, {
        concurrency: 16,
        refusals: true,
        stop: (count) => {
          if (count >= 48 && signalledAt === Infinity) {
            signalledAt = performance.now();
            server.child.kill('SIGTERM');
          }
          return false;
        },
      });
      await server.stop();
      const exitMs = performance.now() - signalledAt;
      expect(server.child.exitCode, 'a clean exit').toBe(0);
      expect(exitMs).toBeLessThan(10_000);

      // Votes in flight when the signal came were answered, and with 200: none was cut off with a 5xx.
      const answeredAfter = outcomes.filter(
        (vote) => vote.sentAt < signalledAt && vote.sentAt + vote.ms >= signalledAt,
      );
      const finished = answeredAfter.filter((vote) => vote.status === 200).length;
      expect(finished).toBeGreaterThan(0);
      const refused = outcomes.filter((vote) => vote.status === 503).length;
      const unanswered = outcomes.filter((vote) => vote.status === null).length;
      console.log(
        `SIGTERM during ${acknowledged.length + refused + unanswered} votes: exit code 0 after ${Math.round(exitMs)} ms; ${finished} votes in flight at the signal answered 200, ${refused} refused with 503 while closing, ${unanswered} found the server gone`,
      );

      const again = await start();
      expect(await votesMissing(again.baseUrl, community, acknowledged)).toEqual([]);
      const database = openDatabase(databaseUrl);
      try {
        expect(await findTallyMismatches(database.db)).toEqual([]);
      } finally {
        await database.close();
      }
    },
  );
});
