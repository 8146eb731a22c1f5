import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { batchesDuring } from './batches.js';

/** Two stand-ins for servers, each answering /metrics with what the test last gave it. */
const metricsOf: string[] = ['', ''];
let asked = 0;
let onAsked = () => {};
const servers = metricsOf.map((_, index) =>
  http.createServer((request, response) => {
    response.end(request.url === '/metrics' ? metricsOf[index] : '');
    asked += 1;
    onAsked();
  }),
);
/** Resolves once the servers have been asked `times` times in all. */
const askedTimes = (times: number) =>
  new Promise<void>((resolve) => {
    onAsked = () => asked >= times && resolve();
    onAsked();
  });
const urls: string[] = [];

beforeAll(async () => {
  for (const server of servers) {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    urls.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  }
});
afterAll(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

const votes = (batches: number, votesWritten: number, seconds: number) =>
  [
    `pollscope_vote_batch_size_sum ${votesWritten}`,
    `pollscope_vote_batch_size_count ${batches}`,
    `pollscope_vote_batch_seconds_sum ${seconds}`,
    `pollscope_vote_batch_seconds_count ${batches}`,
  ].join('\n');

it('gives the batches written while measured, summed over the servers, and leaves out a writer that wrote none', async () => {
  metricsOf[0] = `${votes(10, 40, 0.05)}\npollscope_like_batch_size_count 3`;
  metricsOf[1] = votes(0, 0, 0);
  const seen = batchesDuring(urls, 0);
  // The first reading, taken before the servers' counts move.
  await askedTimes(2);
  metricsOf[0] = `${votes(110, 540, 0.45)}\npollscope_like_batch_size_count 3`;
  metricsOf[1] = votes(100, 300, 0.2);
  // 200 batches of 800 votes in 0.6 s: 4 votes a batch, 3 ms each.
  expect(await seen()).toEqual([{ writer: 'vote', batches: 200, meanSize: 4, meanMs: 3 }]);
});
