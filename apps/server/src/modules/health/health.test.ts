import { api, readySchema } from '@pollscope/contract';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, client, createTestApp, signUp, type TestContext } from '../../test/helper.js';
import { metricValue } from '../../test/metrics-text.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ metricsToken: 'scrape-secret' });
});
afterAll(() => ctx.close());

const metrics = (options: { address?: string; authorization?: string; forwardedFor?: string } = {}) =>
  ctx.app.inject({
    method: 'GET',
    url: '/metrics',
    remoteAddress: options.address ?? '127.0.0.1',
    headers: {
      ...(options.authorization ? { authorization: options.authorization } : {}),
      ...(options.forwardedFor ? { 'x-forwarded-for': options.forwardedFor } : {}),
    },
  });

describe('GET /metrics', () => {
  it('counts requests by route pattern and status, writes, batches, caches, streams, the outbox and the process', async () => {
    const author = await signUp(ctx);
    const voter = await signUp(ctx);
    const questionId = await ask(author);
    await voter.api.raw('POST', api.answer(questionId), { choice: 1 });
    await voter.api.raw('GET', api.question(questionId));
    await voter.api.raw('GET', api.question(questionId));
    await voter.api.raw('GET', api.question(999_999));
    expect(
      (await voter.api.raw('POST', api.reports, { target: 'question', id: questionId, reason: 'spam' })).status,
    ).toBe(201);

    const reply = await metrics();
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = reply.body;
    const questionRoute =
      'pollscope_http_request_duration_seconds_count{method="GET",route="/api/polls/question/:id/",status=';
    expect(metricValue(text, `${questionRoute}"200"}`)).toBe(2);
    expect(metricValue(text, `${questionRoute}"404"}`)).toBe(1);
    // The pattern, never the URL asked: one series per route, whatever the ids.
    expect(text).not.toContain(`/api/polls/question/${questionId}/`);
    const exactly: Record<string, number> = {
      'pollscope_changes_committed_total{kind="voted"}': 1,
      'pollscope_changes_committed_total{kind="asked"}': 1,
      'pollscope_changes_committed_total{kind="reported"}': 1,
      pollscope_vote_batch_size_count: 1,
      pollscope_vote_batch_seconds_count: 1,
      pollscope_vote_queue: 0,
      'pollscope_cache_budget{cache="feed_pages",unit="bytes"}': ctx.config.feedPagesMegabytes * 2 ** 20,
      pollscope_live_result_streams: 0,
      pollscope_live_unread_streams: 0,
      pollscope_mail_outbox_waiting: 0,
      pollscope_mail_outbox_oldest_age_seconds: 0,
      // This request itself is answered ahead of the queue, and not counted.
      pollscope_requests_in_flight: 0,
      pollscope_requests_queued: 0,
      pollscope_request_queue_standing: 0,
    };
    expect(Object.fromEntries(Object.keys(exactly).map((series) => [series, metricValue(text, series)]))).toEqual(
      exactly,
    );
    const counted = [
      'pollscope_cache_hits_total{cache="question_cards"}',
      'pollscope_cache_misses_total{cache="question_cards"}',
      'pollscope_cache_entries{cache="viewer_states"}',
      'pollscope_cache_bytes{cache="question_cards"}',
      'process_resident_memory_bytes',
    ];
    for (const series of counted) expect(metricValue(text, series), series).toBeGreaterThan(0);
    expect(text).toContain('nodejs_eventloop_lag_p99_seconds');
  });

  it('answers anyone else with the 404 of a path that does not exist, unless they carry the token', async () => {
    const stranger = await metrics({ address: '203.0.113.9' });
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json()).toEqual({ message: 'No route GET /metrics' });
    expect((await metrics({ address: '203.0.113.9', authorization: 'Bearer wrong-secret' })).statusCode).toBe(404);
    expect((await metrics({ address: '203.0.113.9', authorization: 'Bearer scrape-secret' })).statusCode).toBe(200);
  });
});

describe('GET /metrics behind a proxy', () => {
  it('goes by the address the proxy forwards, not the proxy’s own loopback address', async () => {
    const proxied = await createTestApp({ trustProxy: true });
    try {
      const inject = (forwardedFor: string) =>
        proxied.app.inject({
          method: 'GET',
          url: '/metrics',
          remoteAddress: '127.0.0.1',
          headers: { 'x-forwarded-for': forwardedFor },
        });
      expect((await inject('203.0.113.9')).statusCode).toBe(404);
      expect((await inject('127.0.0.1')).statusCode).toBe(200);
    } finally {
      await proxied.close();
    }
  });
});

describe('GET /api/ready', () => {
  it('answers 200 when the database answers, and 503 naming it when it does not', async () => {
    expect(readySchema.parse((await client(ctx.app).raw('GET', api.ready)).json())).toEqual({
      database: 'ok',
      redis: 'not configured',
    });
    const broken = await createTestApp();
    try {
      await broken.database.db.destroy();
      const reply = await client(broken.app).raw('GET', api.ready);
      expect(reply.status).toBe(503);
      expect(reply.headers['retry-after']).toBeDefined();
      expect(reply.json()).toEqual({ message: 'Not ready: the database does not answer' });
    } finally {
      await broken.close();
    }
  });
});

/**
 * A registration sent up to the middle of its body: the instance counts it in flight from its headers, and holds its
 * place until `finish` sends the rest, which resolves to the whole answer.
 */
function registrationHeldOpen(port: number, email: string) {
  const body = JSON.stringify({
    firstName: 'Slow',
    birthDate: '1990-01-01',
    gender: 'F',
    livingIn: 840,
    email,
    password: 'correct horse',
  });
  const socket = net.connect(port, '127.0.0.1');
  const answer = new Promise<string>((resolve) => {
    let text = '';
    socket.on('data', (chunk) => (text += chunk));
    socket.on('end', () => resolve(text));
  });
  socket.write(
    `POST ${api.register} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body.slice(0, 10)}`,
  );
  return {
    finish: () => {
      socket.write(body.slice(10));
      return answer;
    },
  };
}

/** A series of the app's /metrics, read without passing its admission queue. */
const series = async (app: TestContext['app'], name: string) =>
  metricValue((await app.inject({ method: 'GET', url: '/metrics' })).body, name);

/** Resolves once the series reads `value`, looking again after each turn of the event loop. */
async function seriesReaches(app: TestContext['app'], name: string, value: number) {
  while ((await series(app, name)) !== value) await new Promise((resolve) => setImmediate(resolve));
}

describe('an overloaded instance', () => {
  it('keeps a request past the bound on requests in flight waiting its turn, and answers health checks at once', async () => {
    const busy = await createTestApp({ overloadRequestsInFlight: 1, overloadQueueTimeoutMs: 2000 });
    try {
      await busy.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = busy.app.server.address() as AddressInfo;
      const first = registrationHeldOpen(port, 'busy1@example.com');
      await seriesReaches(busy.app, 'pollscope_requests_in_flight', 1);
      const second = fetch(`http://127.0.0.1:${port}${api.register}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          firstName: 'Busy',
          birthDate: '1990-01-01',
          gender: 'F',
          livingIn: 840,
          email: 'busy2@example.com',
          password: 'correct horse',
        }),
      });
      await seriesReaches(busy.app, 'pollscope_requests_queued', 1);
      // The second registration waits its turn; health is answered while it does.
      expect((await fetch(`http://127.0.0.1:${port}${api.health}`)).status).toBe(200);
      expect(await series(busy.app, 'pollscope_requests_queued')).toBe(1);
      expect(await first.finish()).toMatch(/^HTTP\/1\.1 201 /);
      expect((await second).status).toBe(201);
      // Both waits were measured, the second's from the moment it was read.
      expect(await series(busy.app, 'pollscope_request_queue_wait_seconds_count')).toBe(2);
      expect(await series(busy.app, 'pollscope_request_queue_wait_seconds_bucket{le="0.001"}')).toBe(1);
    } finally {
      await busy.close();
    }
  });

  it('refuses requests that waited past the timeout, with Retry-After, and serves again by itself', async () => {
    const lagging = await createTestApp({
      overloadRequestsInFlight: 1,
      overloadQueueTargetMs: 5,
      overloadQueueTimeoutMs: 10,
    });
    try {
      const page = `/q/${await ask(await signUp(lagging))}`;
      await lagging.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = lagging.app.server.address() as AddressInfo;
      // A registration whose body is still on its way holds the instance's one place in flight.
      const held = registrationHeldOpen(port, 'slow@example.com');
      await seriesReaches(lagging.app, 'pollscope_requests_in_flight', 1);
      // Twenty readers arrive meanwhile: none can start, and each is refused once it has waited past the timeout.
      const refused = await Promise.all(
        Array.from({ length: 20 }, async () => {
          const reply = await fetch(`http://127.0.0.1:${port}${page}`);
          return { status: reply.status, retryAfter: reply.headers.get('retry-after'), body: await reply.json() };
        }),
      );
      expect(refused.map((answer) => answer.status)).toEqual(Array(20).fill(503));
      expect(refused.every((answer) => answer.retryAfter === '2')).toBe(true);
      expect(refused[0].body).toEqual({ message: expect.stringMatching(/busy/i) });
      expect(await series(lagging.app, 'pollscope_overload_refused_total{reason="queue_timeout"}')).toBe(20);
      // The registration that held its place is answered once its body has come.
      expect(await held.finish()).toMatch(/^HTTP\/1\.1 201 /);
      // One at a time makes no queue, and nothing was started after waiting past the timeout.
      for (let index = 0; index < 20; index += 1)
        expect((await fetch(`http://127.0.0.1:${port}${page}`)).status).toBe(200);
      expect(await series(lagging.app, 'pollscope_request_queue_wait_seconds_bucket{le="0.1"}')).toBe(
        await series(lagging.app, 'pollscope_request_queue_wait_seconds_count'),
      );
    } finally {
      await lagging.close();
    }
  });
});
