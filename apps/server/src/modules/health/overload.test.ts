import { api } from '@pollscope/contract';
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCommunity, startServer, type ServerProcess } from '../../test/server-process.js';
import { metricValue } from '../../test/metrics-text.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pollscope-overload-'));
const servers: ServerProcess[] = [];
const neighbours: ChildProcess[] = [];
afterAll(async () => {
  for (const neighbour of neighbours) neighbour.kill('SIGKILL');
  for (const server of servers) await server.stop('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

interface LoadResult {
  answers: number;
  served: number;
  /** 503 with Retry-After. */
  refused: number;
  /** Any other answer, a connection error or a request unanswered in 10 s. */
  failures: string[];
}

/** Resolves once the server reports requests waiting in its queue (its metrics are answered ahead of the queue). */
async function untilQueued(baseUrl: string): Promise<void> {
  for (;;) {
    const metrics = await (await fetch(`${baseUrl}/metrics`)).text();
    if ((metricValue(metrics, 'pollscope_requests_queued') ?? 0) > 0) return;
  }
}

/** People reading questions and their feed, each asking again as soon as answered. */
async function load(
  baseUrl: string,
  token: string,
  questionIds: number[],
  connections: number,
  seconds: number,
): Promise<LoadResult> {
  const result: LoadResult = { answers: 0, served: 0, refused: 0, failures: [] };
  const headers = { accept: 'application/json', authorization: `Token ${token}` };
  const paths = [api.feed, ...questionIds.map((id) => api.question(id))];
  const onResponse = (
    status: number,
    _body: string,
    _context: object,
    responseHeaders: IncomingHttpHeaders | undefined,
  ) => {
    result.answers += 1;
    if (status >= 200 && status < 300) result.served += 1;
    else if (status === 503 && responseHeaders?.['retry-after'] !== undefined) result.refused += 1;
    else result.failures.push(`status ${status}`);
  };
  const run = await autocannon({
    url: baseUrl,
    connections,
    duration: seconds,
    timeout: 10,
    requests: paths.map((requestPath) => ({ method: 'GET' as const, path: requestPath, headers, onResponse })),
  });
  if (run.errors > 0) result.failures.push(`${run.errors} connection errors`);
  if (run.timeouts > 0) result.failures.push(`${run.timeouts} requests unanswered in 10 s`);
  return result;
}

/**
 * The real server, with its default load shedding, under the load it must simply carry (200 people
 * at once) and under one past it (1,000), at the machine's speed and slowed to half of one processor
 * by a busy neighbour on it: requests wait in its queue, which adapts to how fast they are started.
 */
describe('load shedding at two speeds', () => {
  for (const slowed of [false, true]) {
    it(
      slowed ? 'slowed by a busy neighbour on its one processor' : 'at the machine’s speed',
      { timeout: 120_000 },
      async () => {
        const server = await startServer(
          path.join(dir, `${slowed ? 'slowed' : 'full'}.db`),
          { OVERLOAD_QUEUE_TIMEOUT_MS: '' },
          [],
          'source',
          slowed ? { cpu: 0 } : {},
        );
        servers.push(server);
        if (slowed)
          neighbours.push(spawn('taskset', ['-c', '0', process.execPath, '-e', 'for (;;);'], { stdio: 'ignore' }));
        const { authorToken: token, questionIds } = await createCommunity(server.baseUrl, { voters: 0, questions: 5 });

        const carried = await load(server.baseUrl, token, questionIds, 200, 4);
        expect(carried.failures).toEqual([]);
        expect(carried.refused).toBe(0);
        expect(carried.served).toBeGreaterThan(200);

        // Health checks are answered ahead of the queue while requests wait in it.
        const flood = load(server.baseUrl, token, questionIds, 1000, 5);
        await untilQueued(server.baseUrl);
        expect((await fetch(`${server.baseUrl}${api.health}`)).status).toBe(200);
        const past = await flood;
        expect(past.failures).toEqual([]);
        expect(past.answers).toBe(past.served + past.refused);
        expect(past.served).toBeGreaterThan(1000);
      },
    );
  }
});
